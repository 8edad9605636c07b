/// Marble diagrams for operator tests on virtual time.
///
/// A diagram has one character per tick: `-` nothing happens, a letter (or any
/// other character) is an element, `|` the end, `#` a failure
/// (``Marble/Failure``), and `(ab)` several events in one tick.
///
/// ```swift
/// let clock = VirtualClock()
/// let source = Marble.sequence("-a-b-|", clock: clock)
/// let output = await Marble.record(source.map { $0.uppercased() }, clock: clock, ticks: 8)
/// #expect(output == "-A-B-|")
/// ```
public enum Marble {
    /// The failure a `#` stands for.
    public struct Failure: Error, Equatable, Sendable {
        /// Creates the failure.
        public init() {}
    }

    /// One event of a diagram.
    enum Event: Equatable, Sendable {
        case element(String)
        case end
        case failure
    }

    /// The events of a diagram with their tick numbers.
    static func parse(_ diagram: String) -> [(tick: Int, event: Event)] {
        var events: [(Int, Event)] = []
        var tick = 0
        var inGroup = false
        for character in diagram {
            switch character {
            case "(": inGroup = true
            case ")":
                inGroup = false
                tick += 1
            case "-" where !inGroup:
                tick += 1
            default:
                let event: Event =
                    switch character {
                    case "|": .end
                    case "#": .failure
                    default: .element(String(character))
                    }
                events.append((tick, event))
                if !inGroup { tick += 1 }
            }
        }
        return events
    }

    /// A sequence that produces the diagram's events on `clock`, each at its tick
    /// counted from the first request. Each iteration plays the diagram anew.
    public static func sequence(_ diagram: String, clock: VirtualClock, tick: Duration = .seconds(1)) -> MarbleSequence
    {
        MarbleSequence(events: parse(diagram), clock: clock, tick: tick)
    }

    /// Iterates `sequence` while moving `clock` forward one tick at a time for
    /// `ticks` ticks, and returns what it produced as a diagram. The iteration is
    /// cancelled at the end if it is still going.
    public static func record<S: AsyncSequence & Sendable>(
        _ sequence: S, clock: VirtualClock, tick: Duration = .seconds(1), ticks: Int
    ) async -> String where S.Element: CustomStringConvertible {
        let start = clock.now
        let events = Recorder<(Int, Event)>()
        let index: @Sendable () -> Int = { Int(start.duration(to: clock.now) / tick) }
        // On a test's ``TestExecutor``, the consumer runs there too.
        let consumer = Task(executorPreference: TestExecutor.current) {
            do {
                for try await element in sequence {
                    events.record((index(), .element(element.description)))
                }
                events.record((index(), .end))
            } catch is CancellationError {
                // Stopped by the recorder at the end of the ticks: nothing happened.
            } catch {
                events.record((index(), .failure))
            }
        }
        await clock.advance(by: .zero)
        for _ in 0..<ticks {
            await clock.advance(by: tick)
        }
        consumer.cancel()
        _ = await consumer.result
        return render(events.values)
    }

    static func render(_ events: [(Int, Event)]) -> String {
        guard let last = events.map(\.0).max() else { return "" }
        var diagram = ""
        for tick in 0...last {
            let here = events.filter { $0.0 == tick }.map { event -> String in
                switch event.1 {
                case .element(let text): text
                case .end: "|"
                case .failure: "#"
                }
            }
            switch here.count {
            case 0: diagram += "-"
            case 1: diagram += here[0]
            default: diagram += "(" + here.joined() + ")"
            }
        }
        return diagram
    }
}

/// A sequence that plays a marble diagram on a virtual clock, made by
/// ``Marble/sequence(_:clock:tick:)``.
public struct MarbleSequence: AsyncSequence, Sendable {
    /// The type of the elements.
    public typealias Element = String

    let events: [(tick: Int, event: Marble.Event)]
    let clock: VirtualClock
    let tick: Duration

    /// The iterator of a ``MarbleSequence``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: MarbleSequence
        var start: VirtualClock.Instant?
        var position = 0

        /// Waits for the next event's tick and produces it.
        public mutating func next() async throws -> String? {
            let start = self.start ?? sequence.clock.now
            self.start = start
            guard position < sequence.events.count else { return nil }
            let (tick, event) = sequence.events[position]
            position += 1
            try await sequence.clock.sleep(until: start.advanced(by: sequence.tick * tick))
            switch event {
            case .element(let text): return text
            case .end:
                position = sequence.events.count
                return nil
            case .failure:
                position = sequence.events.count
                throw Marble.Failure()
            }
        }
    }

    /// Starts an iteration.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self)
    }
}
