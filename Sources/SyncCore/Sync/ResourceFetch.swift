import Foundation
import NIOCore
import NIOHTTP1
import Store
import Streams
import Synchronization

/// One page as received: its records, its size, and the request for the next page.
struct FetchedPage: Sendable {
    /// 1 for the first page of the sync.
    var number: Int
    /// The request, as `GET https://…`, secrets scrubbed.
    var request: String
    /// The page's records, in order (none when not modified).
    var records: [StagedRecord]
    /// The size of its body in bytes, decoded.
    var bytes: Int
    /// The size of its body on the wire (smaller when it came compressed).
    var wireBytes = 0
    /// The server answered 304 to the page's conditional request: its records
    /// are those the previous snapshot took from it.
    var notModified: Bool
    /// The next page, or `nil` if this was the last.
    var next: PageRequest?
    /// The page as the next sync needs it to revalidate it: its validators among them.
    var stored: StoredPage
    /// For an incremental resource: its records and deletions, in the page's order.
    var changes: [IncrementalChange] = []
    /// For an incremental resource: the page's value for the next sync.
    var kept: SinceState?
    /// For an incremental resource with `since.field`: the order of its items' times.
    var order = TimeOrder()
    /// The number of items the page held (deletions and tombstones included).
    var itemCount = 0
    /// The number of items the API says the whole walk holds (`pagination.total`).
    var total: Int?
    /// The total a page of a walk that trusts short pages states by a usual
    /// name, though `pagination.total` does not name it: a check only.
    var impliedTotal: (count: Int, place: String)?
}

/// The pages of a resource's last applied snapshot, by number, whose
/// validators the next sync sends back (docs/configuration.md#revalidation).
struct StoredWalk: Sendable {
    var pages: [Int: StoredPage] = [:]

    init(_ pages: [StoredPage] = []) {
        for page in pages { self.pages[page.number] = page }
    }
}

/// The pages of one sync of one resource, as a lazy stream through
/// ``paginate(first:fetch:next:)``: each page is requested only when the
/// previous one has been consumed, each request goes through
/// ``AsyncSequence/retryIf(policy:clock:random:onRetry:_:)`` with the
/// resource's retry policy, and a page that still fails ends the stream.
struct ResourceFetch: Sendable {
    package let resource: ResourceConfig
    /// What it runs with: the transport, the clock and timers, connectivity, the time and the jitter.
    let context: SyncContext
    let decoder: PageDecoder
    /// Told before each retry of a page, with the page's number.
    let onRetry: @Sendable (RetryEvent, _ page: Int) -> Void
    /// The request budget of the resource's scope (docs/configuration.md#rate-limits),
    /// shared with the other resources of that scope.
    let budget: RequestBudget
    /// The request: its planner, body and headers, with the `since` value of an incremental resource.
    let template: RequestTemplate

    var planner: PagePlanner { template.planner }

    private var redactor: Redactor { context.redactor }

    /// Prepares the fetch of `resource`, its URL filled with `dependencyValues`;
    /// an incremental resource sends `since` where its placeholders, its
    /// `since.param` or `since.bodyField` say (docs/configuration.md#placeholders).
    /// In the agent (``SyncContext/connectivity``), requests wait while the
    /// machine is offline, and a request that finds it offline waits for it
    /// to come back without using up an attempt; without it (`refresh`
    /// in-process), such a request ends the sync as `offline`.
    init(
        resource: ResourceConfig, context: SyncContext, dependencyValues: [URLTemplate.Dependency: String] = [:],
        since: SentValue? = nil, onRetry: @escaping @Sendable (RetryEvent, _ page: Int) -> Void = { _, _ in }
    ) {
        self.resource = resource
        self.context = context
        self.onRetry = onRetry
        template = RequestTemplate(resource: resource, dependencyValues: dependencyValues, since: since)
        decoder = PageDecoder(items: resource.items, key: resource.key, deleted: resource.deleted)
        budget = context.budgets.budget(for: resource)
    }

    /// The request of `resource` (``RequestTemplate``): the spelling existing tests use.
    static func plan(
        _ resource: ResourceConfig, dependencyValues: [URLTemplate.Dependency: String], since: SentValue?
    ) -> RequestTemplate {
        RequestTemplate(resource: resource, dependencyValues: dependencyValues, since: since)
    }

    /// The fingerprint of the first request (``RequestTemplate/fingerprint(redactor:)``).
    var fingerprint: String { template.fingerprint(redactor: redactor) }

    /// The fingerprint of `resource`'s first request sending no `since` value
    /// (``RequestFingerprint/first(of:dependencyValues:redactor:)``).
    static func fingerprint(
        of resource: ResourceConfig, dependencyValues: [URLTemplate.Dependency: String], redactor: Redactor
    ) -> String {
        RequestFingerprint.first(of: resource, dependencyValues: dependencyValues, redactor: redactor)
    }

    /// `next` as the pages table keeps it (``StoredRequest``).
    func stored(_ next: PageRequest, after request: PageRequest) -> String {
        StoredRequest.encode(next, after: request, redactor: redactor)
    }

    /// The page after `request`, from what ``stored(_:after:)`` wrote.
    func request(stored text: String, after request: PageRequest) -> PageRequest? {
        StoredRequest.decode(text, after: request, redactor: redactor)
    }

    /// A fingerprint of one page's request (``RequestFingerprint/page(_:method:redactor:)``).
    func fingerprint(of request: PageRequest) -> String {
        RequestFingerprint.page(request, method: resource.method, redactor: redactor)
    }

    /// The stream of pages. A page whose request is the one `stored` holds
    /// for its number is asked for conditionally, with that page's validators
    /// (when the page after it can be told from what was stored). The next
    /// page is fetched while the sync writes this one.
    func pages(
        stored: StoredWalk = StoredWalk(), from start: PageRequest? = nil
    ) -> AsyncPaginatedSequence<PageRequest, FetchedPage> {
        paginate(
            first: start ?? planner.first(),
            fetch: { request in
                let previous = stored.pages[request.number].flatMap { page -> StoredPage? in
                    guard page.request == fingerprint(of: request), !page.validators.isEmpty,
                        page.next.map({ self.request(stored: $0, after: request) != nil }) ?? true
                    else { return nil }
                    return page
                }
                let waits = RateLimitWaits(maxWait: resource.settings.rateLimit.maxWait)
                let attempt = deferred {
                    try await admit(request)
                    return try await fetch(request, previous: previous)
                }
                let policy = resource.settings.retry
                let onRetry = { @Sendable [onRetry] (event: RetryEvent) in onRetry(event, request.number) }
                let clock = context.clock
                guard let connectivity = context.connectivity else {
                    return try await clock.retrying(
                        attempt, policy: policy, random: context.random, onRetry: onRetry,
                        decide: { decision(for: $0, waits: waits) })
                }
                return try await clock.retrying(
                    attempt.pausable(by: connectivity.online), policy: policy, random: context.random, onRetry: onRetry,
                    decide: { decision(for: $0, connectivity: connectivity, waits: waits) })
            },
            next: { _, page in page.next }
        ).fetchingAhead()
    }

    /// Waits for the budget of the resource's scope to let `request` go; a
    /// wait of a second or more shows as a rate-limit wait. Every wait is
    /// told to `onBudgetWait`.
    private func admit(_ request: PageRequest) async throws {
        let shown = "\(resource.method.rawValue) \(request.url)"
        do {
            try await admitUnlessTooLong(request, shown: shown)
        } catch let tooLong as RequestBudget.TooLong {
            // Longer than rateLimit.maxWait: the sync ends rateLimited, as for a server's limit.
            let cause =
                switch tooLong.cause {
                case .budget: "the request budget of \(budget.scope) has no room before the reset"
                case .rateLimit: "the rate limit of \(budget.scope) resets after rateLimit.maxWait"
                }
            throw FetchError(
                .rateLimited, resource: resource.name, request: shown, cause: cause, retryAfter: tooLong.wait
            ).redacted(by: redactor)
        }
    }

    private func admitUnlessTooLong(_ request: PageRequest, shown: String) async throws {
        try await budget.admit(
            maxWait: resource.settings.rateLimit.maxWait,
            onWait: { [context, resource] in
                context.onBudgetWait(resource.name, $0)
            },
            onLongWait: { wait, why in
                let cause =
                    switch why {
                    case .budget: "waiting for the request budget of \(budget.scope)"
                    case .rateLimit: "waiting for the rate limit of \(budget.scope) to reset"
                    }
                let error = FetchError(
                    .rateLimited, resource: resource.name, request: shown, cause: cause, retryAfter: wait)
                onRetry(
                    RetryEvent(
                        attempt: 1, maxAttempts: resource.settings.retry.maxAttempts, delay: wait,
                        error: error.redacted(by: redactor), counted: false), request.number)
            })
    }

    /// Whether a failed request is worth another attempt
    /// (docs/configuration.md#failures-and-retries): transient failures are,
    /// after at least the wait the server asked for; a rate limit is waited
    /// out without using up an attempt, for as long as `rateLimit.maxWait`
    /// allows, the scope's other resources waiting too; unrecoverable ones end
    /// the sync. An offline failure ends it too, unless the agent watches
    /// `connectivity`: then the request waits for the machine to be back
    /// online, and the wait uses up no attempt.
    func decision(
        for error: any Error, connectivity: ConnectivityGate? = nil, waits: RateLimitWaits? = nil
    ) -> RetryDecision {
        guard let error = error as? FetchError else { return .giveUp }
        switch error.kind {
        case .transient:
            return .retry(after: error.retryAfter)
        case .rateLimited:
            guard let waits,
                let wait = waits.next(told: error.retryAfter, policy: resource.settings.retry, unit: context.random())
            else {
                // Ending the sync: the scope's other resources still hold until the reset.
                if error.status != nil, let told = error.retryAfter { budget.block(for: told) }
                return .giveUp
            }
            budget.block(for: wait)
            return .wait(wait)
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
    func fetch(_ request: PageRequest, previous: StoredPage? = nil) async throws(FetchError) -> FetchedPage {
        do {
            return try await fetchUnredacted(request, previous: previous)
        } catch {
            var redacted = error.redacted(by: redactor)
            if case .oauth2 = resource.settings.auth { redacted.cause = context.tokens.scrub(redacted.cause) }
            throw redacted
        }
    }

    private func fetchUnredacted(
        _ request: PageRequest, previous: StoredPage?
    ) async throws(FetchError)
        -> FetchedPage
    {
        let validators = previous?.validators ?? Validators()
        var headers = template.headers
        if let etag = validators.etag { headers.append(("If-None-Match", etag)) }
        if let lastModified = validators.lastModified { headers.append(("If-Modified-Since", lastModified)) }
        var spec = HTTPRequestSpec(
            method: resource.method, url: request.url, headers: headers, body: template.body(of: request))
        spec.tls = resource.settings.tls
        spec.proxy = resource.settings.proxy
        let shown = "\(resource.method.rawValue) \(request.url)"
        let settings = resource.settings
        let response: HTTPResponseData
        do {
            // The timeout covers the whole exchange: connect, redirects, head and body.
            response = try await withTimeout(settings.timeout, timers: context.timers) {
                [spec, tokens = context.tokens, transport = context.transport] in
                if case .oauth2(let auth) = settings.auth {
                    return try await tokens.send(spec, auth: auth, via: transport, maxBytes: settings.maxResponseSize)
                }
                return try await transport.send(spec, maxBytes: settings.maxResponseSize)
            }
        } catch {
            let url = URLComponents(string: request.url)
            let host = url?.host ?? "?"
            let proxy = settings.proxy.server(for: request.url)
            var classified = FetchError.classify(
                error, resource: resource.name, request: shown, host: host, proxy: proxy, timeout: settings.timeout,
                maxBytes: settings.maxResponseSize)
            // Through a proxy, the server may not be reachable to read its certificate again.
            if proxy == nil, CertificateDiagnosis.isRejection(error),
                let cause = await CertificateDiagnosis.explain(
                    error, host: host, port: url?.port ?? 443, serverName: settings.tls.serverName, now: context.now())
            {
                classified.cause = cause
            }
            throw classified
        }
        let received = Validators(
            etag: response.headers.first(name: "ETag"), lastModified: response.headers.first(name: "Last-Modified"))
        budget.learn(
            QuotaHeaders(
                { response.headers.first(name: $0) }, names: settings.rateLimit.headers, now: context.now()))
        if response.status == 304, let previous {
            // Unchanged: the page after it is the one it led to last time.
            var kept = previous
            if !received.isEmpty { kept.validators = received }
            return FetchedPage(
                number: request.number, request: redactor.redact(shown), records: [], bytes: 0, notModified: true,
                next: previous.next.flatMap { self.request(stored: $0, after: request) }, stored: kept)
        }
        let bytes = Array(response.body.readableBytesView)
        let document = try? JSONDocument(validating: bytes)
        if let expired = resource.incremental?.expiredWhen,
            expired.matches(status: response.status, body: bytes, document: document)
        {
            var error = FetchError(
                .unrecoverable, resource: resource.name, request: shown,
                cause: "the API answered \(response.status): the value kept for this sync is too old (expiredWhen)",
                status: response.status)
            error.stateExpired = true
            throw error
        }
        if let failure = ResponseVerdict.failure(
            status: response.status, headers: response.headers, body: bytes, document: document,
            settings: settings, now: context.now())
        {
            throw FetchError(
                failure.kind, resource: resource.name, request: shown, cause: failure.cause,
                status: response.status, retryAfter: failure.wait)
        }
        do {
            let decoded = try decoder.decode(bytes, document: document, incremental: resource.incremental)
            let (document, records, lastItem) = (decoded.document, decoded.records, decoded.lastItem)
            // Tombstones count: a page of them is no short page.
            let itemCount = decoded.itemCount
            if request.number > planner.maxPages, itemCount > 0 { throw PagePlanner.tooManyPages(planner.maxPages) }
            var facts = PagePlanner.PageFacts(
                itemCount: itemCount, document: document, lastItem: lastItem,
                linkHeaders: response.headers["Link"])
            facts.total = try total(in: document, headers: response.headers)
            // Relative next-page links are relative to the URL that answered.
            var answered = request
            answered.url = response.url
            answered.seen.insert(request.url)
            let next = try planner.next(after: answered, facts)
            if next == nil, let more = planner.saysMore(after: request, facts) {
                throw PagePlanner.Problem(message: "\(more): the copy would be short")
            }
            let stored = StoredPage(
                number: request.number, request: fingerprint(of: request), validators: received,
                next: next.map { self.stored($0, after: request) }, itemCount: records.count)
            var page = FetchedPage(
                number: request.number, request: redactor.redact(shown), records: records, bytes: bytes.count,
                wireBytes: response.wireBytes, notModified: false, next: next, stored: stored,
                changes: decoded.changes, kept: decoded.kept)
            page.itemCount = itemCount
            page.order = decoded.order
            page.total = facts.total
            if resource.pagination.trustsShortPages, resource.pagination.stopsAtShortPages {
                page.impliedTotal = try Self.impliedTotal(in: document, headers: response.headers)
            }
            if case .link = resource.incremental?.source, case .token(let link)? = page.kept {
                // A relative link is relative to the URL that answered.
                page.kept = .token(URL(string: link, relativeTo: URL(string: response.url))?.absoluteString ?? link)
            }
            return page
        } catch let problem as PageDecoder.Problem {
            throw FetchError(.unrecoverable, resource: resource.name, request: shown, cause: problem.message)
        } catch let problem as PagePlanner.Problem {
            throw FetchError(
                .unrecoverable, resource: resource.name, request: shown, cause: problem.message)
        } catch {
            throw FetchError(.unrecoverable, resource: resource.name, request: shown, cause: "\(error)")
        }
    }
}

extension ResourceFetch {
    /// The names under which APIs state a walk's total, at the top of the body.
    private static let totalNames = [
        "total", "total_count", "totalCount", "totalSize", "total_results", "totalResults", "totalItems",
    ]

    /// A count of items stated under a usual name (`/total`, `X-Total-Count`),
    /// which a walk that stops at a short page checks its count against. A
    /// value there that is no count may mean something else, and is passed
    /// over; a count too large to hold is refused, naming it, not ignored.
    fileprivate static func impliedTotal(
        in document: JSONDocument, headers: HTTPHeaders
    ) throws(PagePlanner.Problem) -> (count: Int, place: String)? {
        for name in totalNames {
            let pointer = JSONPointer(tokens: [name])
            guard let span = document.span(at: pointer) else { continue }
            let value = JSONValue(document, span)
            switch StatedCount(value) {
            case .count(let count): return (count, "\(pointer)")
            case .tooLarge: throw tooLargeTotal(value.shown(), place: "at \"\(pointer)\"")
            case .notACount: continue
            }
        }
        if let text = headers.first(name: "X-Total-Count") {
            switch StatedCount(header: text) {
            case .count(let count): return (count, "X-Total-Count")
            case .tooLarge: throw tooLargeTotal(text.shownQuoted(), place: "in the header X-Total-Count")
            case .notACount: break
            }
        }
        return nil
    }

    /// A total past what the agent counts to: the copy could not be checked.
    private static func tooLargeTotal(_ shown: String, place: String) -> PagePlanner.Problem {
        PagePlanner.Problem(
            message: "the total \(place) is \(shown), more items than the agent can count "
                + "(at most \(Int.max)): whether the copy is complete cannot be told")
    }

    /// The number of items the page says the walk holds, where `pagination.total` says to look.
    fileprivate func total(in document: JSONDocument, headers: HTTPHeaders) throws(PagePlanner.Problem) -> Int? {
        switch resource.pagination.total {
        case nil: return nil
        case .header(let name):
            guard let text = headers.first(name: name) else { return nil }
            switch StatedCount(header: text) {
            case .count(let total): return total
            case .tooLarge: throw Self.tooLargeTotal(text.shownQuoted(), place: "in the header \(name)")
            case .notACount:
                throw PagePlanner.Problem(message: "the header \(name) is \(text.shownQuoted()), not a count of items")
            }
        case .body(let pointer):
            guard let span = document.span(at: pointer), document.kind(of: span) != .null else { return nil }
            let value = JSONValue(document, span)
            switch StatedCount(value) {
            case .count(let total): return total
            case .tooLarge: throw Self.tooLargeTotal(value.shown(), place: "at \"\(pointer)\"")
            case .notACount:
                let what = if case .number = value { "a number" } else { document.kind(of: span).phrase }
                throw PagePlanner.Problem(
                    message: "the total at \"\(pointer)\" is \(what), \(value.shown()), not a count of items")
            }
        }
    }
}

/// The rate-limit waits of one page's request: each is the wait the server
/// told, else the retry policy's backoff (growing with each wait); together
/// they may last at most `maxWait`.
///
/// Thread-safety: `Sendable`; its totals are behind a `Mutex`.
final class RateLimitWaits: Sendable {
    let maxWait: Duration
    private let state = Mutex<(total: Duration, count: Int)>((.zero, 0))

    init(maxWait: Duration) {
        self.maxWait = maxWait
    }

    /// The next wait, or `nil` when it would go past `maxWait`; `unit` (in
    /// `0..<1`) draws the backoff's jitter.
    func next(told: Duration?, policy: RetryPolicy, unit: Double) -> Duration? {
        state.withLock { state in
            state.count += 1
            let wait = told ?? policy.delay(afterAttempt: state.count, unit: unit)
            guard state.total + wait <= maxWait else { return nil }
            state.total += wait
            return wait
        }
    }
}

extension Clock where Duration == Swift.Duration {
    /// Deadlines kept on this clock. (A method of the clock, so that a clock
    /// held as `any Clock` is opened.)
    func timers() -> Timers {
        Timers(clock: self)
    }

    /// The element of `request`, retried on this clock as `decide` says. (A
    /// method of the clock, so that a clock held as `any Clock` is opened.)
    fileprivate func retrying<Request: AsyncSequence & Sendable>(
        _ request: Request, policy: RetryPolicy, random: @escaping @Sendable () -> Double,
        onRetry: @escaping @Sendable (RetryEvent) -> Void, decide: @escaping @Sendable (any Error) -> RetryDecision
    ) async throws -> Request.Element where Request.Element: Sendable {
        try await request.retryIf(policy: policy, clock: self, random: random, onRetry: onRetry, decide).firstElement()
    }
}
