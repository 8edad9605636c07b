import StreamsTesting
import Testing

@testable import Streams

@Suite(.timeLimit(.minutes(1))) struct TestExecutorTests {
    @Test func settlingRunsEveryQueuedTaskUntilItWaits() async {
        let executor = TestExecutor()
        let finished = Recorder<Int>()
        let settled = await executor.run {
            for worker in 0..<3 {
                Task.inheritingExecutor {
                    // Many hops, each one a job of its own on the executor.
                    for _ in 0..<50 { await Task.yield() }
                    finished.record(worker)
                }
            }
            return await executor.settle()
        }
        #expect(settled)
        #expect(finished.values.sorted() == [0, 1, 2])
    }

    @Test func aTaskThatNeverWaitsKeepsItFromSettling() async {
        let executor = TestExecutor()
        let settled = await executor.run {
            let spinner = Task.inheritingExecutor {
                while !Task.isCancelled { await Task.yield() }
            }
            defer { spinner.cancel() }
            return await executor.settle(limit: 1000)
        }
        #expect(!settled)
    }

    @Test func tasksThatOperatorsStartKeepTheConsumersExecutor() async {
        let executor = TestExecutor()
        let onExecutor: @Sendable () -> Bool = {
            withUnsafeCurrentTask { $0?.unownedTaskExecutor == executor.asUnownedTaskExecutor() }
        }
        let inside = await executor.run { await Task.inheritingExecutor { onExecutor() }.value }
        let outside = await Task.inheritingExecutor { onExecutor() }.value
        #expect(inside)
        #expect(!outside)
    }
}
