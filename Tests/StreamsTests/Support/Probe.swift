import Streams
import StreamsTesting

/// An upstream for operator tests: it produces `elements` (on demand, counting
/// each iteration as a run), then ends, fails, or hangs on the virtual clock
/// until cancelled, and records what happened to it.
struct Probe: AsyncSequence, Sendable {
    enum Ending: Sendable {
        case finish
        case fail
        case hang
    }

    struct Failed: Error, Equatable {}

    let elements: [Int]
    let ending: Ending
    let clock: VirtualClock
    let log: Recorder<String>

    init(_ elements: [Int], then ending: Ending = .finish, clock: VirtualClock, log: Recorder<String> = Recorder()) {
        self.elements = elements
        self.ending = ending
        self.clock = clock
        self.log = log
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let probe: Probe
        var index = 0

        mutating func next() async throws -> Int? {
            if index == 0 { probe.log.record("start") }
            if index < probe.elements.count {
                index += 1
                return probe.elements[index - 1]
            }
            switch probe.ending {
            case .finish:
                probe.log.record("end")
                return nil
            case .fail:
                probe.log.record("fail")
                throw Failed()
            case .hang:
                do {
                    try await probe.clock.sleep(for: .seconds(3600))
                } catch {
                    probe.log.record("cancelled")
                    throw error
                }
                return nil
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(probe: self)
    }
}

/// Collects a sequence's elements, and whether it ended or failed.
func collect<S: AsyncSequence>(_ sequence: S) async -> (elements: [S.Element], error: (any Error)?) {
    var elements: [S.Element] = []
    do {
        for try await element in sequence { elements.append(element) }
        return (elements, nil)
    } catch {
        return (elements, error)
    }
}

/// Drains an iterator made earlier: for consumers that must be subscribed
/// before the test goes on (a shared sequence subscribes in
/// `makeAsyncIterator`, while a task may start late).
func collect<I: AsyncIteratorProtocol & Sendable>(
    from iterator: I
) async -> (elements: [I.Element], error: (any Error)?) {
    var iterator = iterator
    var elements: [I.Element] = []
    do {
        while let element = try await iterator.next() { elements.append(element) }
        return (elements, nil)
    } catch {
        return (elements, error)
    }
}

/// Lets the test's tasks run until each waits on something: on the test's
/// ``TestExecutor`` until its queue is empty, elsewhere for 100 yields. For
/// checking that something did not happen, or has happened by now.
func letTasksRun() async {
    if let executor = TestExecutor.current {
        await executor.settle()
    } else {
        for _ in 0..<100 { await Task.yield() }
    }
}

/// Yields until `condition` holds (at most 10,000 times, never sleeping):
/// for waiting on work that other tasks do without touching the clock.
@discardableResult
func settle(until condition: () -> Bool) async -> Bool {
    for _ in 0..<10_000 {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}
