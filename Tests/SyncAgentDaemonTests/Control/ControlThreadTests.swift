import Testing

@testable import Streams
@testable import SyncAgentDaemon

/// The status API's own thread (docs/architecture.md#status-under-load): its
/// requests' tasks run there, and the engine's work they start does not.
@Suite struct ControlThreadTests {
    typealias FakeAgent = StatusAPITests.FakeAgent

    @Test func tasksOfTheAPIRunOnItsThreadAndTheEngineWorkTheyStartDoesNot() async {
        let loop = ControlThread.executor.eventLoop
        let (onThread, engineWork) = await withTaskExecutorPreference(ControlThread.executor) {
            // A task that takes its starter's executor, as a sync started by a refresh does.
            let onThread = await Task.inheritingExecutor { loop.inEventLoop }.value
            let engineWork = await StatusAPI<FakeAgent>.offControlThread {
                await Task.inheritingExecutor { loop.inEventLoop }.value
            }
            return (onThread, engineWork)
        }
        #expect(onThread)
        #expect(!engineWork)
        #expect(await Task.inheritingExecutor { loop.inEventLoop }.value == false)
    }
}
