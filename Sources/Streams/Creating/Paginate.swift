/// Creates an asynchronous sequence of pages, fetching each page only when it is asked for.
///
/// The first page is fetched with `first`; after each page, `next` decides the
/// request for the following page, or returns `nil` when the page was the last
/// (an empty or short page, a missing cursor). A page whose fetch throws ends the
/// sequence with that error: no further page is requested.
///
/// ```
/// fetch:  ──[p1]──[p2]──[p3 short]|
/// output: ──p1────p2────p3|
/// ```
///
/// - Parameters:
///   - first: The request for the first page.
///   - fetch: Fetches one page for a request.
///   - next: Returns the request for the page after the given one, or `nil` to stop.
public func paginate<Request: Sendable, Page: Sendable>(
    first: Request,
    fetch: @escaping @Sendable (Request) async throws -> Page,
    next: @escaping @Sendable (Request, Page) throws -> Request?
) -> AsyncPaginatedSequence<Request, Page> {
    AsyncPaginatedSequence(first: first, fetch: fetch, next: next)
}

/// Creates an asynchronous sequence of pages that are collections, stopping by
/// itself at an empty page or a page shorter than `pageSize`; otherwise `next`
/// decides, as in ``paginate(first:fetch:next:)``.
///
/// ```
/// fetch:  ──[1,2]──[3,4]──[5]|      (pageSize: 2)
/// output: ──[1,2]──[3,4]──[5]|
/// ```
public func paginate<Request: Sendable, Page: Collection & Sendable>(
    first: Request,
    pageSize: Int,
    fetch: @escaping @Sendable (Request) async throws -> Page,
    next: @escaping @Sendable (Request, Page) throws -> Request?
) -> AsyncPaginatedSequence<Request, Page> {
    paginate(first: first, fetch: fetch) { request, page in
        if page.isEmpty || page.count < pageSize { return nil }
        return try next(request, page)
    }
}

/// An asynchronous sequence of pages produced by ``paginate(first:fetch:next:)``.
///
/// Pages are fetched lazily, one at a time, in order; ``fetchingAhead()``
/// fetches the next one while the consumer handles the current one. Iterating
/// it twice fetches the pages twice.
public struct AsyncPaginatedSequence<Request: Sendable, Page: Sendable>: AsyncSequence, Sendable {
    /// A page.
    public typealias Element = Page

    let first: Request
    let fetch: @Sendable (Request) async throws -> Page
    let next: @Sendable (Request, Page) throws -> Request?
    /// Whether the next page is fetched while the consumer handles the current one.
    var ahead = false

    /// The same pages, each fetched as soon as the page before it arrived,
    /// while the consumer handles that one: a walk whose consumer does slow
    /// work per page (a database write) takes the longer of fetching and
    /// handling instead of their sum. At most one page is fetched ahead; one
    /// still being fetched when the consumer stops is cancelled.
    ///
    /// ```
    /// fetch:    ──[p1]──[p2]──[p3]|
    /// consumer: ────────(p1)──(p2)──(p3)
    /// ```
    public func fetchingAhead() -> Self {
        var sequence = self
        sequence.ahead = true
        return sequence
    }

    /// The iterator of an ``AsyncPaginatedSequence``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var pending: Request?
        let fetch: @Sendable (Request) async throws -> Page
        let next: @Sendable (Request, Page) throws -> Request?
        let ahead: Bool
        /// The next page, being fetched ahead.
        var fetching: FetchAhead<(Page, Request?)>?

        /// Fetches the next page, or returns `nil` after the last; rethrows a fetch error, after which it returns `nil`.
        public mutating func next() async throws -> Page? {
            let page: Page
            let following: Request?
            if let fetching {
                self.fetching = nil
                (page, following) = try await fetching.value()
            } else {
                guard let request = pending else { return nil }
                pending = nil
                (page, following) = try await Self.step(request, fetch, next)
            }
            if ahead, let following {
                let (fetch, next) = (fetch, next)
                fetching = FetchAhead { try await Self.step(following, fetch, next) }
            } else {
                pending = following
            }
            return page
        }

        /// A page and the request for the one after it.
        private static func step(
            _ request: Request, _ fetch: @Sendable (Request) async throws -> Page,
            _ next: @Sendable (Request, Page) throws -> Request?
        ) async throws -> (Page, Request?) {
            let page = try await fetch(request)
            return (page, try next(request, page))
        }
    }

    /// An iterator that starts from the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pending: first, fetch: fetch, next: next, ahead: ahead)
    }
}

/// A page fetched ahead in a task of its own, cancelled when its iterator is
/// dropped before it takes it.
final class FetchAhead<Value: Sendable>: Sendable {
    private let task: Task<Value, any Error>

    init(_ operation: @escaping @Sendable () async throws -> Value) {
        task = Task.inheritingExecutor(operation: operation)
    }

    deinit { task.cancel() }

    /// The value, waited for; cancelling the waiter cancels the fetch.
    func value() async throws -> Value {
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: { [task] in
            task.cancel()
        }
    }
}
