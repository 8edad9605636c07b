extension Task where Failure == Never {
    /// Starts an unstructured task that keeps the current task's executor
    /// preference, as a child task would.
    ///
    /// Operators start tasks on behalf of the consumer that iterates them (a
    /// pump, a gate reader, a shared run). A consumer that asked for its work
    /// to run on an executor of its choosing (`withTaskExecutorPreference`)
    /// keeps that choice for the work done for it; `Task {}` alone would drop
    /// it. Without a preference this is `Task {}`.
    @discardableResult
    package static func inheritingExecutor(operation: sending @escaping () async -> Success) -> Task {
        Task(executorPreference: currentTaskExecutor(), operation: operation)
    }
}

extension Task where Failure == any Error {
    /// The throwing form of ``Task/inheritingExecutor(operation:)``, for
    /// tests that start consumers of their own.
    @discardableResult
    package static func inheritingExecutor(operation: sending @escaping () async throws -> Success) -> Task {
        Task(executorPreference: currentTaskExecutor(), operation: operation)
    }
}

/// The current task's executor preference, if it has one.
private func currentTaskExecutor() -> (any TaskExecutor)? {
    withUnsafeCurrentTask { $0?.unownedTaskExecutor?.asTaskExecutor() }
}
