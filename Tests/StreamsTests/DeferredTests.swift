import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct DeferredTests {
    struct Failed: Error {}

    @Test func runsTheOperationWhenAskedAndEachIterationAnew() async throws {
        let runs = Recorder<Int>()
        let sequence = deferred { () -> Int in
            runs.record(runs.count + 1)
            return runs.count
        }
        #expect(runs.values.isEmpty)
        #expect(await collect(sequence).elements == [1])
        #expect(try await sequence.firstElement() == 2)
        #expect(runs.count == 2)
    }

    @Test func aFailureEndsTheSequence() async {
        let (elements, error) = await collect(deferred { () -> Int in throw Failed() })
        #expect(elements.isEmpty)
        #expect(error is Failed)
    }

    @Test func firstElementOfAnEmptySequenceThrows() async {
        await #expect(throws: NoElementError.self) { try await Probe([], clock: VirtualClock()).firstElement() }
    }

    @Test func cancellingTheConsumerCancelsTheOperation() async {
        let clock = VirtualClock()
        let task = Task.inheritingExecutor { await collect(deferred { try await clock.sleep(for: .seconds(60)) }) }
        await clock.waitForSleepers(1)
        task.cancel()
        #expect(await task.value.error is CancellationError)
        #expect(clock.sleeperCount == 0)
    }
}

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct ResultCallbackTests {
    struct Failed: Error {}

    /// A completion-handler API, as the seed articles' `UserManager` has.
    final class UserManager: Sendable {
        let calls = Recorder<String>()

        func getUser(_ id: String, completion: @escaping @Sendable (Result<String, any Error>) -> Void) {
            calls.record(id)
            Task.inheritingExecutor { completion(id == "missing" ? .failure(Failed()) : .success("user-\(id)")) }
        }
    }

    @Test func aCallbackBecomesAnAsyncValue() async throws {
        let manager = UserManager()
        #expect(try await withResultCallback { manager.getUser("7", completion: $0) } == "user-7")
        await #expect(throws: Failed.self) {
            try await withResultCallback { manager.getUser("missing", completion: $0) }
        }
    }

    @Test func aCallbackBecomesAOneElementSequenceStartedWhenAsked() async {
        let manager = UserManager()
        let user = fromResultCallback { manager.getUser("7", completion: $0) }
        #expect(manager.calls.values.isEmpty)
        #expect(await collect(user).elements == ["user-7"])
        #expect(manager.calls.values == ["7"])
    }

    @Test func callsAfterTheFirstAreIgnored() async throws {
        let value = try await withResultCallback { (done: @escaping @Sendable (Result<Int, any Error>) -> Void) in
            done(.success(1))
            done(.success(2))
            done(.failure(Failed()))
        }
        #expect(value == 1)
    }
}
