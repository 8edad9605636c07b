extension Result where Failure == any Error {
    /// The value `body` returns, or the error it throws: `Result(catching:)`
    /// for asynchronous work.
    @usableFromInline init(awaiting body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
