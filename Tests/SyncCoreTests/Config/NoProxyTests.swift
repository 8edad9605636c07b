import Testing

@testable import SyncCore

/// `NO_PROXY` as curl matches it (docs/configuration.md#proxies).
@Suite struct NoProxyTests {
    @Test func aNameMatchesItselfAndItsSubdomainsOnly() {
        for list in ["example.com", ".example.com", "EXAMPLE.com."] {
            let noProxy = NoProxy("other.org, " + list)
            #expect(noProxy.matches(host: "example.com", port: 443), "\(list)")
            #expect(noProxy.matches(host: "api.Example.com", port: 80), "\(list)")
            #expect(noProxy.matches(host: "example.com.", port: 80), "\(list)")
            #expect(!noProxy.matches(host: "badexample.com", port: 443), "\(list)")
            #expect(!noProxy.matches(host: "example.com.evil.net", port: 443), "\(list)")
        }
    }

    /// Found by the `noproxy` fuzz target (fuzz/regressions/noproxy): a comma followed by
    /// a combining mark is one character, and the list was split by characters.
    @Test func entriesAreSplitAtEveryComma() {
        #expect(NoProxy("example.com:80,\u{59A}x").matches(host: "example.com", port: 80))
        #expect(NoProxy("a.test,\u{301}b.test").matches(host: "a.test", port: 443))
    }

    @Test func anAsteriskMatchesEverythingAndAnEmptyListNothing() {
        #expect(NoProxy("*").matches(host: "api.example.com", port: 443))
        #expect(NoProxy("localhost, *").matches(host: "10.1.2.3", port: 80))
        #expect(!NoProxy("").matches(host: "localhost", port: 80))
        #expect(!NoProxy(" , ").matches(host: "localhost", port: 80))
        // Only `*` alone is a wildcard.
        #expect(!NoProxy("*.example.com").matches(host: "api.example.com", port: 443))
    }

    @Test func addressesMatchExactlyOrByNetwork() {
        let noProxy = NoProxy("127.0.0.1,10.0.0.0/8,::1,fd00::/8")
        #expect(noProxy.matches(host: "127.0.0.1", port: 80))
        #expect(!noProxy.matches(host: "127.0.0.2", port: 80))
        #expect(noProxy.matches(host: "10.200.3.4", port: 443))
        #expect(!noProxy.matches(host: "11.0.0.1", port: 443))
        #expect(noProxy.matches(host: "[::1]", port: 443))
        #expect(noProxy.matches(host: "fd12:3456::1", port: 443))
        #expect(!noProxy.matches(host: "fe80::1", port: 443))
        // An address is not a name: no suffix matching.
        #expect(!NoProxy("0.0.1").matches(host: "10.0.0.1", port: 80))
        #expect(!NoProxy("172.16.0.0/12").matches(host: "example.com", port: 80))
    }

    @Test func anEntryWithAPortMatchesThatPortOnly() {
        let noProxy = NoProxy("example.com:8443, 127.0.0.1:8080, [::1]:9000")
        #expect(noProxy.matches(host: "api.example.com", port: 8443))
        #expect(!noProxy.matches(host: "api.example.com", port: 443))
        #expect(noProxy.matches(host: "127.0.0.1", port: 8080))
        #expect(!noProxy.matches(host: "127.0.0.1", port: 80))
        #expect(noProxy.matches(host: "::1", port: 9000))
        #expect(!noProxy.matches(host: "::1", port: 9001))
    }
}
