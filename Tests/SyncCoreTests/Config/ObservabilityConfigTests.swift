import Foundation
import Testing

@testable import SyncCore

/// `http` and `logFormat` (docs/configuration.md#the-http-listener): a TCP
/// listener that is off unless asked for, read-only unless control is on with
/// a token, and the log lines' format.
@Suite struct ObservabilityConfigTests {
    func config(_ members: String, environment: [String: String] = [:]) throws(ConfigError) -> AgentConfig {
        try decodeConfig(#"{\#(members), "resources": [\#(resource())]}"#, environment: environment)
    }

    func problems(_ members: String) -> [String] {
        configProblems(#"{\#(members), "resources": [\#(resource())]}"#)
    }

    @Test func theListenerIsOffUnlessAskedForAndReadOnlyByDefault() throws {
        #expect(try decodeConfig(#"{"resources": [\#(resource())]}"#).http == nil)
        let listener = try #require(try config(#""http": {"listen": "127.0.0.1:9464"}"#).http)
        #expect(listener.host == "127.0.0.1" && listener.port == 9464)
        #expect(!listener.control && listener.token == nil)
        #expect(listener.isLoopback && listener.url == "http://127.0.0.1:9464")
    }

    @Test func listensOnIPv6AndEveryInterfaceToo() throws {
        let ipv6 = try #require(try config(#""http": {"listen": "[::1]:9464"}"#).http)
        #expect(ipv6.host == "::1" && ipv6.isLoopback && ipv6.listen == "[::1]:9464")
        let everywhere = try #require(try config(#""http": {"listen": "0.0.0.0:9464"}"#).http)
        #expect(!everywhere.isLoopback)
        let allIPv6 = try #require(try config(#""http": {"listen": "[::]:9464"}"#).http)
        #expect(!allIPv6.isLoopback)
        #expect(try config(#""http": {"listen": "localhost:9464"}"#).http?.isLoopback == true)
        #expect(try config(#""http": {"listen": "127.0.0.2:80"}"#).http?.isLoopback == true)
    }

    @Test func aWrongAddressIsAProblemThatSaysWhatToWrite() {
        #expect(
            problems(#""http": {}"#) == [#"http.listen: is required: an address and a port, such as "127.0.0.1:9464""#])
        #expect(problems(#""http": {"listen": "9464"}"#).first?.contains(#"must look like "127.0.0.1:9464""#) == true)
        #expect(
            problems(#""http": {"listen": "metrics.local:9464"}"#).first?.contains("is not an IPv4 address") == true)
        #expect(problems(#""http": {"listen": "127.0.0.1:0"}"#).first?.contains("from 1 to 65535") == true)
        #expect(problems(#""http": {"listen": "127.0.0.1:70000"}"#).first?.contains("from 1 to 65535") == true)
        #expect(problems(#""http": {"listen": "[::g]:9464"}"#) == ["http.listen: ::g is not an IPv6 address"])
        #expect(problems(#""http": {"listen": "::1:9464"}"#).first?.contains(#""[::1]:9464" for IPv6"#) == true)
        #expect(problems(#""http": {"listen": "127.0.0.1:9464", "contol": true}"#).first?.contains("contol") == true)
    }

    @Test func controlNeedsALongTokenWhichIsASecret() throws {
        let folder = NSTemporaryDirectory() + "http-config-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("3f1c9a7be02d44c1a8e6\n".utf8).write(to: URL(fileURLWithPath: folder + "/http-token"))
        let config = try config(
            #""http": {"listen": "127.0.0.1:9464", "control": true, "token": "${credential:http-token}"}"#,
            environment: ["CREDENTIALS_DIRECTORY": folder])
        #expect(config.http?.control == true && config.http?.token == "3f1c9a7be02d44c1a8e6")
        #expect(!config.redactor.redact("Bearer 3f1c9a7be02d44c1a8e6").contains("3f1c9a7b"))

        #expect(
            problems(#""http": {"listen": "127.0.0.1:9464", "control": true}"#).first?.hasPrefix(
                #"http.token: is required with "control": true"#) == true)
        #expect(
            configProblems(
                #"{"http": {"listen": "127.0.0.1:9464", "control": true, "token": "${TOKEN}"}, "resources": [\#(resource())]}"#,
                environment: ["TOKEN": "short"]) == [
                    "http.token: must be at least 16 characters (e.g. from `openssl rand -hex 32`)"
                ])
        #expect(
            configProblems(
                #"{"http": {"listen": "127.0.0.1:9464", "token": "${TOKEN}"}, "resources": [\#(resource())]}"#,
                environment: ["TOKEN": "3f1c9a7be02d44c1a8e6"]) == [
                    #"http.token: has no use without "control": true (the listener is read-only then)"#
                ])
        // Written in the file, it is readable by whoever reads the file.
        let written = problems(
            #""http": {"listen": "127.0.0.1:9464", "control": true, "token": "3f1c9a7be02d44c1a8e6"}"#)
        #expect(written.first?.hasPrefix("http.token: must come from a credential, a file or the environment") == true)
        #expect(!written.joined().contains("3f1c9a7be02d44c1a8e6"))
        #expect(
            problems(#""http": {"listen": "127.0.0.1:9464", "control": "yes"}"#) == [
                "http.control: must be true or false, not a string"
            ])
    }

    @Test func aReloadCannotMoveTheListenerButTakesANewToken() throws {
        let listener = #""http": {"listen": "127.0.0.1:9464", "control": true, "token": "${TOKEN}"}"#
        let before = try config(listener, environment: ["TOKEN": "3f1c9a7be02d44c1a8e6"])
        let newToken = try config(listener, environment: ["TOKEN": "0000111122223333aaaa"])
        #expect(before.restartOnlyChanges(to: newToken).isEmpty)
        let moved = try config(#""http": {"listen": "127.0.0.1:9465"}"#)
        #expect(
            before.restartOnlyChanges(to: moved).map(\.description) == [
                "http.listen: changed; this takes a restart, not a reload",
                "http.control: changed; this takes a restart, not a reload",
            ])
        let none = try decodeConfig(#"{"resources": [\#(resource())]}"#)
        #expect(none.restartOnlyChanges(to: moved).map(\.path) == ["http.listen"])
    }

    @Test func logLinesAreTextUnlessJSONIsAskedFor() throws {
        #expect(try decodeConfig(#"{"resources": [\#(resource())]}"#).logFormat == .text)
        #expect(try config(#""logFormat": "json""#).logFormat == .json)
        #expect(problems(#""logFormat": "logfmt""#) == [#"logFormat: must be "text" or "json""#])
    }
}
