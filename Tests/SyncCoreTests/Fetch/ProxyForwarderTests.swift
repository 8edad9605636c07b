import Testing

@testable import SyncCore

/// `http://` through a proxy: the request target is the whole URL, as curl
/// sends it (docs/configuration.md#proxies), without what is never sent.
@Suite struct ProxyForwarderTests {
    @Test func theProxyIsSentTheWholeURLWithoutCredentialsOrFragment() throws {
        let target = try #require(ProxyForwarder.target(of: "http://u:p@api.example.com:8080/v1/users?q=a%20b#top"))
        #expect(target.uri == "http://api.example.com:8080/v1/users?q=a%20b")
        #expect(target.authority == "api.example.com:8080")
        let bare = try #require(ProxyForwarder.target(of: "http://api.example.com?page=2"))
        #expect(bare.uri == "http://api.example.com/?page=2")
        #expect(bare.authority == "api.example.com")
        #expect(ProxyForwarder.target(of: "https://api.example.com/") == nil)
    }
}
