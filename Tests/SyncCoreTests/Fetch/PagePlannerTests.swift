import Store
import Testing

@testable import SyncCore

@Suite(.timeLimit(.minutes(1))) struct PagePlannerTests {
    func planner(
        _ pagination: Pagination, base: String = "https://api.example.com/users", maxPages: Int = 100
    )
        -> PagePlanner
    {
        PagePlanner(pagination: pagination, baseURL: base, query: [("status", "active")], maxPages: maxPages)
    }

    func facts(items: Int, body: String = "{}", links: [String] = []) throws -> PagePlanner.PageFacts {
        PagePlanner.PageFacts(
            itemCount: items, document: try JSONDocument(validating: Array(body.utf8)), linkHeaders: links)
    }

    @Test func noneIsOneRequest() throws {
        let planner = planner(.none)
        let first = planner.first()
        #expect(first.url == "https://api.example.com/users?status=active")
        #expect(try planner.next(after: first, facts(items: 10)) == nil)
    }

    @Test func pageCountsPagesUntilAShortOne() throws {
        let planner = planner(.page(param: "page", sizeParam: "per_page", size: 2, start: 1))
        let first = planner.first()
        #expect(first.url == "https://api.example.com/users?status=active&page=1&per_page=2")
        let second = try #require(try planner.next(after: first, facts(items: 2)))
        #expect(second.url == "https://api.example.com/users?status=active&page=2&per_page=2")
        #expect(second.number == 2)
        #expect(try planner.next(after: second, facts(items: 1)) == nil)
        #expect(try planner.next(after: second, facts(items: 0)) == nil)
    }

    @Test func withATotalAShortPageIsNotTheLastAndOffsetsAdvanceByWhatCame() throws {
        // Jira caps maxResults at 50 whatever is asked, and says so only through total.
        var pagination = Pagination.offset(param: "startAt", limitParam: "maxResults", limit: 100)
        pagination.total = .body(try JSONPointer("/total"))
        let planner = planner(pagination)
        var request = planner.first()
        var offsets = [request.position]
        while true {
            var page = try facts(items: min(50, 180 - request.position), body: #"{"total": 180}"#)
            page.total = 180
            guard let next = try planner.next(after: request, page) else { break }
            request = next
            offsets.append(next.position)
        }
        #expect(offsets == [0, 50, 100, 150])
        #expect(request.url.hasSuffix("startAt=150&maxResults=100"))
    }

    @Test func withHasMoreAShortPageGoesOnAndAnEmptyPageEnds() throws {
        var pagination = Pagination.page(param: "page", sizeParam: "per_page", size: 100, start: 1)
        pagination.hasMore = try JSONPointer("/has_more")
        let planner = planner(pagination)
        let first = planner.first()
        let second = try #require(try planner.next(after: first, facts(items: 40, body: #"{"has_more": true}"#)))
        #expect(second.position == 2 && second.received == 40)
        #expect(try planner.next(after: second, facts(items: 0, body: #"{"has_more": true}"#)) == nil)
        #expect(planner.saysMore(after: second, try facts(items: 0, body: #"{"has_more": true}"#)) != nil)
        #expect(planner.saysMore(after: second, try facts(items: 0, body: #"{"has_more": false}"#)) == nil)
    }

    @Test func aCappedQueryEndsAtItsCapWithoutAskingPastIt() throws {
        var pagination = Pagination.page(param: "page", sizeParam: "per_page", size: 10, start: 1)
        pagination.cap = 20
        pagination.hasMore = try JSONPointer("/more")
        let planner = planner(pagination)
        let first = planner.first()
        let full = try facts(items: 10, body: #"{"more": true}"#)
        let second = try #require(try planner.next(after: first, full))
        // HubSpot answers 400 past its cap: the window ends at it, and that is no short copy.
        #expect(try planner.next(after: second, full) == nil)
        #expect(planner.saysMore(after: second, full) == nil)
    }

    @Test func pageStartsWhereConfigured() {
        let planner = planner(.page(param: "p", sizeParam: "n", size: 5, start: 0))
        #expect(planner.first().url == "https://api.example.com/users?status=active&p=0&n=5")
    }

    @Test func offsetAdvancesByTheItemsReceived() throws {
        let planner = planner(.offset(param: "offset", limitParam: "limit", limit: 3))
        let first = planner.first()
        #expect(first.url == "https://api.example.com/users?status=active&offset=0&limit=3")
        let second = try #require(try planner.next(after: first, facts(items: 3)))
        #expect(second.url == "https://api.example.com/users?status=active&offset=3&limit=3")
        #expect(try planner.next(after: second, facts(items: 2)) == nil)
    }

    @Test func cursorFollowsTheCursorUntilItIsNullAbsentOrEmpty() throws {
        let planner = planner(.cursor(next: try JSONPointer("/meta/next"), param: "cursor"))
        let first = planner.first()
        #expect(first.url == "https://api.example.com/users?status=active")
        let second = try #require(
            try planner.next(after: first, facts(items: 5, body: #"{"meta": {"next": "a b+c"}}"#)))
        #expect(second.url == "https://api.example.com/users?status=active&cursor=a%20b%2Bc")
        let third = try #require(try planner.next(after: second, facts(items: 5, body: #"{"meta": {"next": 42}}"#)))
        #expect(third.url == "https://api.example.com/users?status=active&cursor=42")
        #expect(try planner.next(after: third, facts(items: 5, body: #"{"meta": {"next": null}}"#)) == nil)
        #expect(try planner.next(after: third, facts(items: 5, body: #"{"meta": {}}"#)) == nil)
        #expect(try planner.next(after: third, facts(items: 5, body: #"{"meta": {"next": ""}}"#)) == nil)
    }

    @Test func aCursorSeenTwiceIsALoop() throws {
        let planner = planner(.cursor(next: try JSONPointer("/next"), param: "cursor"))
        let second = try #require(try planner.next(after: planner.first(), facts(items: 1, body: #"{"next": "x"}"#)))
        #expect(
            throws: PagePlanner.Problem(
                message: #"the cursor "x" came back a second time in this sync (a pagination loop)"#)
        ) {
            try planner.next(after: second, facts(items: 1, body: #"{"next": "x"}"#))
        }
    }

    @Test func aCursorThatIsNotAScalarIsAnError() throws {
        let planner = planner(.cursor(next: try JSONPointer("/next"), param: "cursor"))
        #expect(throws: PagePlanner.Problem(message: #"the cursor at "/next" is an object, not a string"#)) {
            try planner.next(after: planner.first(), facts(items: 1, body: #"{"next": {}}"#))
        }
    }

    @Test func linkFollowsRelNextResolvedAgainstThePage() throws {
        let planner = planner(.link)
        let first = planner.first()
        let second = try #require(
            try planner.next(
                after: first, facts(items: 1, links: [#"</users?page=2>; rel="next", </users?page=9>; rel="last""#])))
        #expect(second.url == "https://api.example.com/users?page=2")
        #expect(try planner.next(after: second, facts(items: 1, links: [#"</users?page=1>; rel="prev""#])) == nil)
        #expect(try planner.next(after: second, facts(items: 1)) == nil)
    }

    @Test func aLinkBackToAPageSeenIsALoop() throws {
        let planner = planner(.link)
        let first = planner.first()
        let second = try #require(
            try planner.next(after: first, facts(items: 1, links: ["<https://api.example.com/p2>; rel=next"])))
        #expect(throws: PagePlanner.Problem.self) {
            try planner.next(after: second, facts(items: 1, links: ["<\(first.url)>; rel=next"]))
        }
        #expect(throws: PagePlanner.Problem.self) {
            try planner.next(after: second, facts(items: 1, links: ["<https://api.example.com/p2>; rel=next"]))
        }
    }

    @Test func nextURLFollowsTheURLInTheBody() throws {
        let planner = planner(.nextURL(next: try JSONPointer("/next")))
        let second = try #require(
            try planner.next(after: planner.first(), facts(items: 1, body: #"{"next": "https://cdn.example.com/p/2"}"#))
        )
        #expect(second.url == "https://cdn.example.com/p/2")
        let third = try #require(try planner.next(after: second, facts(items: 1, body: #"{"next": "3"}"#)))
        #expect(third.url == "https://cdn.example.com/p/3")
        #expect(try planner.next(after: third, facts(items: 1, body: #"{"next": null}"#)) == nil)
        #expect(throws: PagePlanner.Problem.self) {
            try planner.next(after: third, facts(items: 1, body: #"{"next": "ftp://x/y"}"#))
        }
    }

    @Test func allowsOneRequestPastMaxPagesToSeeTheEnd() throws {
        // With maxPages full pages, only an empty page after them shows the end;
        // ResourceFetch refuses that page if it holds items.
        let planner = planner(.page(param: "page", sizeParam: "per_page", size: 1, start: 1), maxPages: 2)
        let second = try #require(try planner.next(after: planner.first(), facts(items: 1)))
        let third = try #require(try planner.next(after: second, facts(items: 1)))
        #expect(third.number == 3)
        #expect(throws: PagePlanner.Problem(message: "the upstream has more than maxPages (2) pages")) {
            try planner.next(after: third, facts(items: 1))
        }
    }

    @Test func settingAParameterReplacesItAndDropsTheFragment() {
        #expect(
            PagePlanner.url("https://h/p?page=9&x=1#top", setting: [("page", "2"), ("q", "a&b=c")])
                == "https://h/p?x=1&page=2&q=a%26b%3Dc")
        #expect(PagePlanner.url("https://h/p", setting: []) == "https://h/p")
    }

    /// Facts of a page whose body holds `items` at `/data`, with its last item.
    func factsWithItems(_ body: String) throws -> PagePlanner.PageFacts {
        let document = try JSONDocument(validating: Array(body.utf8))
        var last: JSONDocument.Span?
        var count = 0
        if let data = document.span(at: try JSONPointer("/data")) {
            document.forEachElement(of: data) { item in
                last = item
                count += 1
                return true
            }
        }
        return PagePlanner.PageFacts(itemCount: count, document: document, lastItem: last)
    }

    @Test func stripeTakesTheCursorFromTheLastItemWhileHasMoreIsTrue() throws {
        var pagination = Pagination(style: .cursor(from: .lastItem(try JSONPointer("/id")), param: "starting_after"))
        pagination.hasMore = try JSONPointer("/has_more")
        let planner = planner(pagination)
        let first = planner.first()
        let second = try #require(
            try planner.next(
                after: first,
                factsWithItems(#"{"object": "list", "has_more": true, "data": [{"id": "cus_1"}, {"id": "cus_2"}]}"#)))
        #expect(second.url == "https://api.example.com/users?status=active&starting_after=cus_2")
        // has_more false, or absent, ends the walk even with items.
        #expect(
            try planner.next(after: second, factsWithItems(#"{"has_more": false, "data": [{"id": "cus_3"}]}"#)) == nil)
        #expect(try planner.next(after: second, factsWithItems(#"{"data": [{"id": "cus_3"}]}"#)) == nil)
        // An empty page has no last item: the end.
        #expect(try planner.next(after: second, factsWithItems(#"{"has_more": true, "data": []}"#)) == nil)
        #expect(throws: PagePlanner.Problem.self) {
            try planner.next(after: second, factsWithItems(#"{"has_more": "yes", "data": [{"id": "x"}]}"#))
        }
    }

    @Test func stopWhenEndsTheWalkOnTheMatchingPage() throws {
        var pagination = Pagination.cursor(next: try JSONPointer("/after_cursor"), param: "cursor")
        pagination.stopWhen = ResponseMatch(pointer: try JSONPointer("/end_of_stream"), equals: true)
        let planner = planner(pagination)
        let first = planner.first()
        let next = try planner.next(
            after: first, facts(items: 2, body: #"{"after_cursor": "abc", "end_of_stream": false}"#))
        #expect(next?.url == "https://api.example.com/users?status=active&cursor=abc")
        // Zendesk sends a cursor on the last page too: end_of_stream wins.
        #expect(
            try planner.next(after: first, facts(items: 2, body: #"{"after_cursor": "abd", "end_of_stream": true}"#))
                == nil)
    }

    @Test func aCursorInTheBodyGoesAtItsPointerOfThePostBody() throws {
        var pagination = Pagination.cursor(next: try JSONPointer("/next_cursor"), param: "start_cursor")
        pagination.placement = .body
        pagination.hasMore = try JSONPointer("/has_more")
        let planner = PagePlanner(
            pagination: pagination, baseURL: "https://api.notion.com/v1/databases/d1/query", query: [],
            maxPages: 100,
            body: RequestBody(
                text: #"{"page_size": 100, "filter": {"property": "Done"}}"#, contentType: "application/json"))
        let first = planner.first()
        #expect(first.url == "https://api.notion.com/v1/databases/d1/query")
        #expect(first.body == #"{"page_size":100,"filter":{"property":"Done"}}"#)
        let second = try #require(
            try planner.next(after: first, facts(items: 100, body: #"{"next_cursor": "c-2", "has_more": true}"#)))
        #expect(second.url == "https://api.notion.com/v1/databases/d1/query")
        #expect(second.body == #"{"page_size":100,"filter":{"property":"Done"},"start_cursor":"c-2"}"#)
        #expect(
            try planner.next(after: second, facts(items: 3, body: #"{"next_cursor": null, "has_more": false}"#)) == nil)
    }

    @Test func pageAndOffsetInTheBodyUseNumbersAndPointers() throws {
        var pagination = Pagination.offset(param: "/paging/offset", limitParam: "/paging/limit", limit: 2)
        pagination.placement = .body
        let planner = PagePlanner(
            pagination: pagination, baseURL: "https://api.example.com/search", query: [], maxPages: 100)
        let first = planner.first()
        #expect(first.body == #"{"paging":{"offset":0,"limit":2}}"#)
        let second = try #require(try planner.next(after: first, facts(items: 2)))
        #expect(second.body == #"{"paging":{"offset":2,"limit":2}}"#)
    }

    @Test func aRelativeNextRecordsUrlResolvesAgainstThePageItCameFrom() throws {
        let planner = planner(
            .nextURL(next: try JSONPointer("/nextRecordsUrl")),
            base: "https://x.my.salesforce.com/services/data/v60.0/query?q=SELECT")
        let first = planner.first()
        let second = try #require(
            try planner.next(
                after: first,
                facts(items: 2, body: #"{"done": false, "nextRecordsUrl": "/services/data/v60.0/query/01gD-2000"}"#)))
        #expect(second.url == "https://x.my.salesforce.com/services/data/v60.0/query/01gD-2000")
    }
}

@Suite(.timeLimit(.minutes(1))) struct LinkHeaderTests {
    @Test func findsTheTargetOfARelation() {
        let values = [#"<https://h/?page=3>; rel="next last", <https://h/?page=1>; rel=prev"#]
        #expect(LinkHeader.target(values, relation: "next") == "https://h/?page=3")
        #expect(LinkHeader.target(values, relation: "prev") == "https://h/?page=1")
        #expect(LinkHeader.target(values, relation: "first") == nil)
    }

    @Test func keepsCommasInsideTargetsAndQuotes() {
        let values = [#"<https://h/?a=1,2>; title="x, y"; rel="next""#]
        #expect(LinkHeader.target(values, relation: "NEXT") == "https://h/?a=1,2")
    }

    @Test func readsSeveralHeaderLines() {
        #expect(LinkHeader.target(["<a>; rel=prev", "<b>; rel=next"], relation: "next") == "b")
    }

    /// Found by the `link` fuzz target (fuzz/regressions/link).
    @Test func aRelationInsideAQuotedParameterIsNoRelation() {
        let values = [#"<a>; title="x;rel=next;y"; rel="last", <b>; title="a \"q\"; rel=next"; rel=next"#]
        #expect(LinkHeader.target(values, relation: "next") == "b")
        #expect(LinkHeader.target(values, relation: "last") == "a")
    }
}

@Suite(.timeLimit(.minutes(1))) struct RetryAfterTests {
    @Test func readsSeconds() {
        #expect(RetryAfter.parse("120") == .seconds(120))
        #expect(RetryAfter.parse(" 0 ") == .zero)
        #expect(RetryAfter.parse("-1") == nil)
        #expect(RetryAfter.parse(nil) == nil)
        #expect(RetryAfter.parse("soon") == nil)
    }

    @Test func readsAnHTTPDateRelativeToNow() {
        let now = Timestamp.date(from: "2026-11-21T10:00:00Z")!
        #expect(RetryAfter.parse("Sat, 21 Nov 2026 10:00:30 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.parse("Sat, 21 Nov 2026 09:00:00 GMT", now: now) == .zero)
    }

    /// Found by the `retry-after` fuzz target (fuzz/regressions/retry-after): a number of
    /// seconds beyond Int64's milliseconds trapped.
    @Test func readsDecimalSecondsExactlyAndHugeOnesAsTheLongestWait() {
        #expect(RetryAfter.parse("1.005") == .milliseconds(1005))
        #expect(RetryAfter.parse("4.35") == .milliseconds(4350))
        #expect(RetryAfter.parse("0.0001") == .milliseconds(1))
        #expect(RetryAfter.parse("99999999999999999999999") == RetryAfter.longest)
        #expect(RetryAfter.parse("100000") == RetryAfter.longest)
        #expect(RetryAfter.parse("86399.5") == .milliseconds(86_399_500))
        #expect(RetryAfter.parse("1e3") == nil)
        #expect(RetryAfter.parse("1.") == nil)
    }

    /// The longest wait an API can ask for is a day (docs/configuration.md#the-longest-wait),
    /// however far away its date is.
    @Test func aWaitIsAtMostADay() {
        let now = Timestamp.date(from: "2026-11-21T10:00:00Z")!
        #expect(RetryAfter.longest == .seconds(86_400))
        #expect(RetryAfter.parse("Fri, 31 Dec 9999 23:59:59 GMT", now: now) == RetryAfter.longest)
        #expect(RetryAfter.parse("Sun, 22 Nov 2026 09:59:59 GMT", now: now) == .seconds(86_399))
    }

    /// RFC 9110 §5.6.7: an RFC 850 year is at most 50 years ahead; asctime pads its day.
    @Test func readsTheObsoleteDateForms() {
        let now = Timestamp.date(from: "2026-11-21T10:00:00Z")!
        // 73 is 2073, 46 years ahead (a wait of a day, the longest); 77 would be
        // 51 years ahead, so it is 1977 (no wait).
        #expect(RetryAfter.parse("Sunday, 01-Jan-73 00:00:00 GMT", now: now) == RetryAfter.longest)
        #expect(RetryAfter.parse("Sunday, 22-Nov-26 09:00:00 GMT", now: now) == .seconds(23 * 3600))
        #expect(RetryAfter.parse("Saturday, 01-Jan-77 00:00:00 GMT", now: now) == .zero)
        #expect(RetryAfter.parse("Sat Nov 21 10:00:30 2026", now: now) == .seconds(30))
        #expect(RetryAfter.parse("Sun Nov  1 00:00:00 2026", now: now) == .zero)
        let december = Timestamp.date(from: "2026-12-04T22:00:00Z")!
        #expect(RetryAfter.parse("Sat Dec  5 10:00:00 2026", now: december) == .seconds(12 * 3600))
    }
}

@Suite(.timeLimit(.minutes(1))) struct PageDecoderTests {
    func decode(
        _ body: String, items: String = "/data", key: String = "/id"
    ) throws(PageDecoder.Problem) -> [StagedRecord] {
        let decoder = PageDecoder(items: try! JSONPointer(items), key: try! JSONPointer(key))
        return try decoder.decode(Array(body.utf8)).records
    }

    @Test func keysEachItemAndKeepsItsCompactJSON() throws {
        let records = try decode(#"{"data": [ {"id": 1, "n": "a b"}, {"id": "x-2", "n": [1, 2]} ]}"#)
        #expect(
            records == [
                StagedRecord(key: "1", data: #"{"id":1,"n":"a b"}"#),
                StagedRecord(key: "x-2", data: #"{"id":"x-2","n":[1,2]}"#),
            ])
    }

    @Test func aBodyThatIsAnArrayOrOneObject() throws {
        #expect(try decode(#"[{"id": 7}]"#, items: "").map(\.key) == ["7"])
        #expect(try decode(#"{"id": 8, "name": "me"}"#, items: "").map(\.key) == ["8"])
        #expect(try decode(#"{"data": []}"#).isEmpty)
    }

    @Test func unicodeAndLargeNumbersMakeKeysAsWritten() throws {
        let records = try decode(
            #"{"data": [{"id": "日本\u00e9"}, {"id": 123456789012345678901234567890}, {"id": 1.5e3}]}"#)
        #expect(records.map(\.key) == ["日本é", "123456789012345678901234567890", "1.5e3"])
    }

    @Test func aNestedKey() throws {
        #expect(try decode(#"{"data": [{"meta": {"uuid": "u1"}}]}"#, key: "/meta/uuid").map(\.key) == ["u1"])
    }

    @Test(arguments: [
        (#"{"data": [1,}"#, "the body is not valid JSON (unexpected character '}', expected a value at byte 12)"),
        (#"{"items": []}"#, #"the body has no items at "/data""#),
        (#"{"data": "x"}"#, #"the items at "/data" are a string, not an array of items"#),
        (#"{"data": [{"id": 1}, {"name": 2}]}"#, #"the item at "/data/1" has no key at "/id""#),
        (#"{"data": [{"id": {"a": 1}}]}"#, #"the key of the item at "/data/0" is an object, not a string or a number"#),
        (#"{"data": [{"id": null}]}"#, #"the key of the item at "/data/0" is null, not a string or a number"#),
        (
            #"{"data": [{"id": "a\u0000b"}]}"#,
            #"the key of the item at "/data/0" holds a NUL or a lone surrogate, which a key cannot"#
        ),
        (
            #"{"data": [{"id": "\ud800"}]}"#,
            #"the key of the item at "/data/0" holds a NUL or a lone surrogate, which a key cannot"#
        ),
    ])
    func explainsWhatIsWrong(_ body: String, _ message: String) {
        #expect(throws: PageDecoder.Problem(message: message)) { try decode(body) }
    }
}

@Suite(.timeLimit(.minutes(1))) struct FetchErrorTests {
    @Test(arguments: [408, 425, 429, 500, 502, 503, 504])
    func retryableStatusesAreTransient(_ status: Int) {
        #expect(FetchError.kind(ofStatus: status) == .transient)
    }

    @Test(arguments: [400, 401, 403, 404, 409, 410, 422, 501, 505, 302])
    func otherStatusesAreUnrecoverable(_ status: Int) {
        #expect(FetchError.kind(ofStatus: status) == .unrecoverable)
    }

    @Test func describesItselfInOneSentence() {
        let error = FetchError(
            .transient, resource: "users", request: "GET https://h/u?page=2", cause: "the connection was reset")
        #expect(error.description == "users: GET https://h/u?page=2 failed: the connection was reset")
    }
}
