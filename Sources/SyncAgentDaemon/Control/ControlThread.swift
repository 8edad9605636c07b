import NIOCore
import NIOPosix

/// The thread the status API's servers (the socket's and the HTTP listener's)
/// run on: their sockets' event loop, and the executor of the tasks that
/// answer their requests (docs/architecture.md#status-under-load).
///
/// The syncs keep Swift's cooperative threads and the HTTP client's event
/// loops busy; a status request that waited for them would wait behind
/// thousands of their jobs. On a thread of its own it waits only for other
/// requests, and the kernel shares the cores between it and them. A request
/// that starts work of the engine (a refresh, a reload) runs on the global
/// executor instead, so that work never lands here (``StatusHTTPServer``).
///
/// One thread, started when a server first starts and kept until the
/// process ends, as NIO's singleton group is; it sleeps while nothing asks.
enum ControlThread {
    /// The event loop group of the one thread.
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// The executor of tasks on it.
    static let executor = EventLoopTaskExecutor(group.next())
}

/// Runs the jobs of the tasks that prefer it (`withTaskExecutorPreference`)
/// on `eventLoop`.
///
/// Thread-safety: `Sendable`; it holds nothing but the event loop, which is.
final class EventLoopTaskExecutor: TaskExecutor {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
