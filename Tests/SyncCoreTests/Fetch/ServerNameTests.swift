import Testing

@testable import SyncCore

/// `tls.serverName` asks the URL's address under another name (docs/configuration.md#tls):
/// the host is replaced, an IPv6 address within its brackets.
@Suite struct ServerNameTests {
    @Test func theHostIsReplacedWhateverItsForm() {
        #expect(
            HTTPTransport.replacingHost(of: "https://10.20.0.5:8443/api?q=1", with: "reports.example.com")
                == "https://reports.example.com:8443/api?q=1")
        #expect(
            HTTPTransport.replacingHost(of: "https://[fd00::5]:8443/api", with: "reports.example.com")
                == "https://reports.example.com:8443/api")
        #expect(
            HTTPTransport.replacingHost(of: "https://reports.example.com:8443/api", with: "fd00::5")
                == "https://[fd00::5]:8443/api")
        #expect(
            HTTPTransport.replacingHost(of: "https://reports.example.com/api", with: "[fd00::5]")
                == "https://[fd00::5]/api")
    }
}
