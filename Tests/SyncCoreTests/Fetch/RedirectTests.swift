import Testing

@testable import SyncCore

@Suite(.timeLimit(.minutes(1))) struct RedirectTests {
    let request = HTTPRequestSpec(
        method: .post, url: "https://api.example.com/v1/search?q=1",
        headers: [("X-Api-Key", "secret")], body: RequestBody(text: "{}", contentType: "application/json"))

    @Test func anAnswerThatIsNotARedirectIsNotFollowed() throws {
        #expect(try Redirect.follow(request, status: 200, location: "/x", visited: [request.url]) == nil)
        #expect(try Redirect.follow(request, status: 304, location: "/x", visited: [request.url]) == nil)
    }

    @Test func aSameOriginRedirectKeepsTheHeaders() throws {
        let next = try #require(
            try Redirect.follow(request, status: 307, location: "/v2/search", visited: [request.url]))
        #expect(next.url == "https://api.example.com/v2/search")
        #expect(next.headers.map(\.name) == ["X-Api-Key"])
        #expect(next.method == .post)
        #expect(next.body != nil)
    }

    @Test func anotherOriginGetsNoneOfTheConfiguredHeaders() throws {
        for location in ["https://cdn.example.com/x", "http://api.example.com/x", "https://api.example.com:8443/x"] {
            let next = try #require(
                try Redirect.follow(request, status: 308, location: location, visited: [request.url]))
            #expect(next.headers.isEmpty, "\(location)")
        }
        #expect(
            Redirect.origin(of: "https://API.example.com/a") == Redirect.origin(of: "https://api.example.com:443/b"))
    }

    @Test func seeOtherAndAPostMovedBecomeAGetWithoutBody() throws {
        for status in [301, 302, 303] {
            let next = try #require(
                try Redirect.follow(request, status: status, location: "/r", visited: [request.url]))
            #expect(next.method == .get)
            #expect(next.body == nil)
        }
    }

    @Test func circlesTooManyHopsAndBadLocationsAreRefused() {
        #expect(
            throws: Redirect.Problem(
                message: "the redirects go in a circle back to https://api.example.com/v1/search?q=1")
        ) {
            try Redirect.follow(request, status: 302, location: "/v1/search?q=1", visited: [request.url])
        }
        let visited = (0...5).map { "https://api.example.com/\($0)" }
        #expect(throws: Redirect.Problem(message: "more than 5 redirects")) {
            try Redirect.follow(request, status: 302, location: "/next", visited: visited)
        }
        #expect(throws: Redirect.Problem.self) { try Redirect.follow(request, status: 302, location: nil, visited: []) }
        #expect(throws: Redirect.Problem.self) {
            try Redirect.follow(request, status: 302, location: "ftp://x/y", visited: [])
        }
    }
}
