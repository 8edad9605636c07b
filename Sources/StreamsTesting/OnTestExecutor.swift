import Testing

/// Runs each test of a suite on a ``TestExecutor`` of its own, so that
/// ``VirtualClock`` advances wait for the tasks under test to be quiet rather
/// than for a number of yields.
public struct OnTestExecutor: SuiteTrait, TestTrait, TestScoping {
    /// Applies to every test of a suite it marks.
    public var isRecursive: Bool { true }

    /// Creates the trait.
    public init() {}

    /// Runs a test case on a new ``TestExecutor``.
    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite's own scope is not a test: its tests get an executor each.
        guard testCase != nil else { return try await function() }
        try await TestExecutor().run(function)
    }
}

extension Trait where Self == OnTestExecutor {
    /// Runs each test on a ``TestExecutor`` of its own.
    public static var onTestExecutor: Self { Self() }
}
