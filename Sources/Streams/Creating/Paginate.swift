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
/// Pages are fetched lazily, one at a time, in order. Iterating it twice fetches
/// the pages twice.
public struct AsyncPaginatedSequence<Request: Sendable, Page: Sendable>: AsyncSequence, Sendable {
    /// A page.
    public typealias Element = Page

    let first: Request
    let fetch: @Sendable (Request) async throws -> Page
    let next: @Sendable (Request, Page) throws -> Request?

    /// The iterator of an ``AsyncPaginatedSequence``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var pending: Request?
        let fetch: @Sendable (Request) async throws -> Page
        let next: @Sendable (Request, Page) throws -> Request?

        /// Fetches the next page, or returns `nil` after the last; rethrows a fetch error, after which it returns `nil`.
        public mutating func next() async throws -> Page? {
            guard let request = pending else { return nil }
            pending = nil
            let page = try await fetch(request)
            pending = try next(request, page)
            return page
        }
    }

    /// An iterator that starts from the first page.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pending: first, fetch: fetch, next: next)
    }
}
