import Foundation
import Store
import Testing

@testable import SyncCore

/// `store` (docs/configuration.md#the-store): the SQLite file by default, or a
/// PostgreSQL schema named by a libpq-style URL, its password a secret.
@Suite struct StoreConfigTests {
    @Test func theStoreIsTheSQLiteFileUnlessAPostgreSQLOneIsNamed() throws {
        #expect(try decodeConfig(#"{"resources": [\#(resource())]}"#).store == .sqlite)
        #expect(try decodeConfig(#"{"store": {"type": "sqlite"}, "resources": [\#(resource())]}"#).store == .sqlite)
        let config = try decodeConfig(
            #"""
            {"store": {"type": "postgres", "url": "postgres://agent@db.internal:6432/copy?sslmode=verify-full&sslrootcert=/etc/ca.pem"},
             "resources": [\#(resource())]}
            """#)
        guard case .postgres(let location) = config.store else {
            Issue.record("not a PostgreSQL store: \(config.store)")
            return
        }
        #expect(location.host == "db.internal" && location.port == 6432 && location.user == "agent")
        #expect(location.database == "copy" && location.schema == "sync_agent")
        #expect(location.tls == .verifyFull && location.rootCertificate == "/etc/ca.pem")
        #expect(config.storeDescription == "postgres://agent@db.internal:6432/copy (schema sync_agent)")
    }

    @Test func thePasswordComesFromACredentialAndIsRedacted() throws {
        let folder = NSTemporaryDirectory() + "store-config-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("pa:ss w0rd\n".utf8).write(to: URL(fileURLWithPath: folder + "/pg"))
        let config = try decodeConfig(
            #"""
            {"store": {"type": "postgres", "url": "postgres://agent@localhost/copy", "password": "${credential:pg}",
                       "schema": "fleet_1"},
             "resources": [\#(resource())]}
            """#, environment: ["CREDENTIALS_DIRECTORY": folder])
        guard case .postgres(let location) = config.store else {
            Issue.record("not a PostgreSQL store")
            return
        }
        #expect(location.password == "pa:ss w0rd" && location.schema == "fleet_1")
        #expect(!config.storeDescription.contains("w0rd"))
        #expect(config.redactor.redact("login failed for pa:ss w0rd") == "login failed for ${credential:pg}")
        // A password written in the URL is a secret too.
        let written = try decodeConfig(
            #"{"store": {"type": "postgres", "url": "postgres://agent:hunter2@localhost/copy"}, "resources": [\#(resource())]}"#
        )
        #expect(!written.redactor.redact("hunter2").contains("hunter2"))
    }

    // Found with the config fuzz target (fuzz/regressions/config): `validate` showed the value.
    @Test func aPartOfTheURLThatAReferenceFillsIsShownAsTheReference() throws {
        let config = try decodeConfig(
            #"{"store": {"type": "postgres", "url": "postgres://${PG_USER}@db.internal/copy"}, "resources": [\#(resource())]}"#,
            environment: ["PG_USER": "svc-7Qm2Vx9L"])
        #expect(config.storeDescription == "postgres://${PG_USER}@db.internal:5432/copy (schema sync_agent)")
    }

    // Found by the config fuzz target (fuzz/regressions/config/schema-quoting-a-secret.json):
    // the problem quoted the schema with the value its reference filled.
    @Test func aProblemQuotingAFilledValueShowsItsReference() {
        #expect(
            configProblems(
                #"{"store": {"type": "postgres", "url": "postgres://a@b/c", "schema": "s/${TOKEN}"}, "resources": [\#(resource())]}"#,
                environment: ["TOKEN": "rt.Fh8Kj2Mn5Bv1Cx7Z"]
            ) == [
                #"store.schema: the schema "s/${TOKEN}" must be a plain lowercase name (letters, digits and _, not starting with a digit)"#
            ])
    }

    @Test func aWrongStoreIsAProblemOfItsKey() {
        #expect(
            configProblems(#"{"store": {"type": "mysql"}, "resources": [\#(resource())]}"#) == [
                #"store.type: must be "sqlite" or "postgres""#
            ])
        #expect(
            configProblems(#"{"store": {"type": "postgres"}, "resources": [\#(resource())]}"#) == [
                "store.url: is required: postgres://USER@HOST:PORT/DATABASE"
            ])
        #expect(
            configProblems(#"{"store": {"type": "postgres", "url": "mysql://a@b/c"}, "resources": [\#(resource())]}"#)
                == ["store.url: the PostgreSQL URL must look like postgres://USER@HOST:PORT/DATABASE"])
        #expect(
            configProblems(
                #"{"store": {"type": "postgres", "url": "postgres://a@b/c?sslmode=always"}, "resources": [\#(resource())]}"#
            ) == [
                #"store.url: the PostgreSQL URL's sslmode "always" is none of disable, prefer, require, verify-ca, verify-full"#
            ])
        #expect(
            configProblems(
                #"{"store": {"type": "postgres", "url": "postgres://a@b/c", "schema": "Fleet"}, "resources": [\#(resource())]}"#
            ) == [
                #"store.schema: the schema "Fleet" must be a plain lowercase name (letters, digits and _, not starting with a digit)"#
            ])
        #expect(
            configProblems(#"{"store": {"type": "postgres", "url": "postgres://b/c"}, "resources": [\#(resource())]}"#)
                == ["store.url: the PostgreSQL URL names no user (postgres://USER@HOST/DATABASE)"])
        #expect(
            configProblems(
                #"{"store": {"type": "postgres", "url": "postgres://a@b/c", "port": 1}, "resources": [\#(resource())]}"#
            )
                == [#"store.port: unknown key"#])
    }

    @Test func aUnixSocketFolderIsReachedWithoutTLS() throws {
        let location = try PostgresLocation(url: "postgresql://agent@/copy?host=/run/postgresql&port=5433")
        #expect(location.socketFolder == "/run/postgresql" && location.host == nil && location.port == 5433)
        #expect(location.tls == .disable)
        #expect(location.description == "postgres://agent@/copy?host=/run/postgresql (schema sync_agent)")
    }

    @Test func changingTheStoreTakesARestart() throws {
        let before = try decodeConfig(#"{"resources": [\#(resource())]}"#)
        let after = try decodeConfig(
            #"{"store": {"type": "postgres", "url": "postgres://a@b/c"}, "resources": [\#(resource())]}"#)
        #expect(
            before.restartOnlyChanges(to: after).map(\.description) == [
                "store: changed; this takes a restart, not a reload"
            ])
    }
}
