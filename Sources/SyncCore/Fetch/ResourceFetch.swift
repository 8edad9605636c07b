import Foundation
import NIOCore
import NIOHTTP1
import Store
import Streams

/// One page as received: its records, its size, and the request for the next page.
struct FetchedPage: Sendable {
    /// 1 for the first page of the sync.
    var number: Int
    /// The request, as `GET https://…`, secrets scrubbed.
    var request: String
    /// The page's records, in order.
    var records: [StagedRecord]
    /// The size of its body in bytes.
    var bytes: Int
    /// The response's validators (kept from the first page).
    var validators: Validators
    /// The server answered 304 to a conditional first request: nothing changed.
    var notModified: Bool
    /// The next page, or `nil` if this was the last.
    var next: PageRequest?
}

/// The pages of one sync of one resource, as a lazy stream through
/// ``paginate(first:fetch:next:)``: each page is requested only when the
/// previous one has been consumed, each request goes through
/// ``AsyncSequence/retryIf(policy:clock:random:onRetry:_:)`` with the
/// resource's retry policy, and a page that still fails ends the stream.
struct ResourceFetch: Sendable {
    package let resource: ResourceConfig
    let transport: any PageTransport
    let redactor: Redactor
    let planner: PagePlanner
    let decoder: PageDecoder
    /// The clock retries wait on.
    var clock: any Clock<Duration> = ContinuousClock()
    /// Told before each retry of a page.
    var onRetry: @Sendable (RetryEvent) -> Void = { _ in }
    /// In the agent, the machine's connectivity: requests wait while it is
    /// offline, and a request that finds it offline waits for it to come back
    /// without using up an attempt. Without it (`refresh` in-process), such a
    /// request ends the sync as `offline`.
    package var connectivity: ConnectivityGate?

    /// Prepares the fetch of `resource`, its URL filled with `dependencyValues`.
    init(
        resource: ResourceConfig, transport: any PageTransport, redactor: Redactor,
        dependencyValues: [URLTemplate.Dependency: String] = [:]
    ) {
        self.resource = resource
        self.transport = transport
        self.redactor = redactor
        planner = PagePlanner(
            pagination: resource.pagination, baseURL: resource.url.render(dependencyValues), query: resource.query,
            maxPages: resource.settings.maxPages)
        decoder = PageDecoder(items: resource.items, key: resource.key)
    }

    /// A fingerprint of the first request and of how its answer is read: the
    /// method, URL, body and headers (secrets as their `${…}` references) and
    /// the items, key and pagination settings. Validators are sent back only
    /// with the request they were received for.
    var fingerprint: String {
        let parts = [
            resource.method.rawValue, planner.first().url, resource.body?.text ?? "",
            resource.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n"),
            resource.items.description, resource.key.description, "\(resource.pagination)",
        ]
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in redactor.redact(parts.joined(separator: "\u{1F}")).utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }

    /// The stream of pages; the first request is conditional when `validators` are given.
    func pages(validators: Validators) -> AsyncPaginatedSequence<PageRequest, FetchedPage> {
        paginate(
            first: planner.first(),
            fetch: { request in
                let conditional = request.number == 1 ? validators : Validators()
                let attempt = deferred { try await fetch(request, validators: conditional) }
                let policy = resource.settings.retry
                guard let connectivity else {
                    return try await clock.retrying(
                        attempt, policy: policy, onRetry: onRetry, decide: { Self.decision(for: $0) })
                }
                return try await clock.retrying(
                    attempt.pausable(by: connectivity.online), policy: policy, onRetry: onRetry,
                    decide: { Self.decision(for: $0, connectivity: connectivity) })
            },
            next: { _, page in page.next })
    }

    /// Whether a failed request is worth another attempt
    /// (docs/configuration.md#failures-and-retries): transient failures are,
    /// after at least the wait the server asked for; unrecoverable ones end the
    /// sync. An offline failure ends it too, unless the agent watches
    /// `connectivity`: then the request waits for the machine to be back online,
    /// and the wait uses up no attempt.
    static func decision(for error: any Error, connectivity: ConnectivityGate? = nil) -> RetryDecision {
        guard let error = error as? FetchError else { return .giveUp }
        switch error.kind {
        case .transient:
            return .retry(after: error.retryAfter)
        case .offline:
            guard let connectivity else { return .giveUp }
            connectivity.reportOffline(error)
            return .retryUncounted
        case .unrecoverable:
            return .giveUp
        }
    }

    /// Fetches and decodes one page. Every error it throws is scrubbed of secrets
    /// here, whatever part of it (the URL, an error body, a redirect target) holds them.
    func fetch(_ request: PageRequest, validators: Validators) async throws(FetchError) -> FetchedPage {
        do {
            return try await fetchUnredacted(request, validators: validators)
        } catch {
            throw error.redacted(by: redactor)
        }
    }

    private func fetchUnredacted(
        _ request: PageRequest, validators: Validators
    ) async throws(FetchError)
        -> FetchedPage
    {
        var headers = resource.headers
        if let etag = validators.etag { headers.append(("If-None-Match", etag)) }
        if let lastModified = validators.lastModified { headers.append(("If-Modified-Since", lastModified)) }
        let spec = HTTPRequestSpec(method: resource.method, url: request.url, headers: headers, body: resource.body)
        let shown = "\(resource.method.rawValue) \(request.url)"
        let settings = resource.settings
        let response: HTTPResponseData
        do {
            // The timeout covers the whole exchange: connect, redirects, head and body.
            response = try await clock.firstElement(
                of: deferred { try await transport.send(spec, maxBytes: settings.maxResponseSize) },
                timeout: settings.timeout)
        } catch {
            throw FetchError.classify(
                error, resource: resource.name, request: shown, host: URLComponents(string: request.url)?.host ?? "?",
                timeout: settings.timeout, maxBytes: settings.maxResponseSize)
        }
        let received = Validators(
            etag: response.headers.first(name: "ETag"), lastModified: response.headers.first(name: "Last-Modified"))
        if response.status == 304, !validators.isEmpty {
            return FetchedPage(
                number: request.number, request: redactor.redact(shown), records: [], bytes: 0,
                validators: received, notModified: true, next: nil)
        }
        guard (200..<300).contains(response.status) else {
            throw FetchError(
                FetchError.kind(ofStatus: response.status), resource: resource.name, request: shown,
                cause: "the server answered \(response.status) \(HTTPReason.phrase(response.status))"
                    + Self.excerpt(of: response.body),
                status: response.status,
                retryAfter: RetryAfter.parse(response.headers.first(name: "Retry-After")))
        }
        let bytes = Array(response.body.readableBytesView)
        do {
            let (document, records) = try decoder.decode(bytes)
            if request.number > planner.maxPages, !records.isEmpty { throw PagePlanner.tooManyPages(planner.maxPages) }
            let facts = PagePlanner.PageFacts(
                itemCount: records.count, document: document, linkHeaders: response.headers["Link"])
            // Relative next-page links are relative to the URL that answered.
            var answered = request
            answered.url = response.url
            answered.seen.insert(request.url)
            let next = try planner.next(after: answered, facts)
            return FetchedPage(
                number: request.number, request: redactor.redact(shown), records: records, bytes: bytes.count,
                validators: received, notModified: false, next: next)
        } catch let problem as PageDecoder.Problem {
            throw FetchError(.unrecoverable, resource: resource.name, request: shown, cause: problem.message)
        } catch let problem as PagePlanner.Problem {
            throw FetchError(
                .unrecoverable, resource: resource.name, request: shown, cause: problem.message)
        } catch {
            throw FetchError(.unrecoverable, resource: resource.name, request: shown, cause: "\(error)")
        }
    }

    /// The start of an error body, when it is short text worth showing.
    private static func excerpt(of body: ByteBuffer) -> String {
        guard body.readableBytes > 0, body.readableBytes <= 200,
            let text = body.getString(at: body.readerIndex, length: body.readableBytes)?.trimmingSpaces(),
            !text.isEmpty, !text.contains("\n"), !text.hasPrefix("<")
        else { return "" }
        return " (\(text))"
    }
}

/// Reason phrases for HTTP statuses.
enum HTTPReason {
    static func phrase(_ status: Int) -> String {
        HTTPResponseStatus(statusCode: status).reasonPhrase
    }
}

extension Clock where Duration == Swift.Duration {
    /// The element of `request`, retried on this clock as `decide` says. (A
    /// method of the clock, so that a clock held as `any Clock` is opened.)
    fileprivate func retrying<Request: AsyncSequence & Sendable>(
        _ request: Request, policy: RetryPolicy,
        onRetry: @escaping @Sendable (RetryEvent) -> Void, decide: @escaping @Sendable (any Error) -> RetryDecision
    ) async throws -> Request.Element where Request.Element: Sendable {
        try await request.retryIf(policy: policy, clock: self, onRetry: onRetry, decide).firstElement()
    }

    /// The element of `request`, or ``TimeoutError`` when it takes longer than `timeout` on this clock.
    fileprivate func firstElement<Request: AsyncSequence & Sendable>(
        of request: Request, timeout: Duration
    ) async throws -> Request.Element where Request.Element: Sendable {
        try await request.timeout(after: timeout, clock: self).firstElement()
    }
}
