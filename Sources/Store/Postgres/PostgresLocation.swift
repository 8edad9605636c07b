import Foundation

/// Where a ``PostgresStore`` is: a server, a database, a user, a schema and how
/// to secure the connection, read from a libpq-style URL
/// (docs/fleet.md#the-store):
///
///     postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE&sslrootcert=FILE]
///     postgres://USER@/DATABASE?host=/run/postgresql        (a Unix socket's folder)
///
/// `sslmode` is `disable`, `prefer` (the default), `require`, `verify-ca` or
/// `verify-full`, as libpq reads it: `require` encrypts without checking the
/// certificate unless `sslrootcert` names a CA, `verify-ca` checks it against
/// that CA (or the system's), `verify-full` checks the host name too.
public struct PostgresLocation: Sendable, Hashable {
    /// How the connection is secured.
    public enum TLSMode: String, Sendable, Hashable, CaseIterable {
        case disable, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    /// The server's host name or address, or `nil` for a Unix socket.
    public var host: String?
    /// The TCP port.
    public var port: Int
    /// The folder of the server's Unix socket, when it is reached through one.
    public var socketFolder: String?
    /// The user.
    public var user: String
    /// The password, if the URL has one (it never appears in ``description``).
    public var password: String?
    /// The database.
    public var database: String
    /// The schema that holds the agent's tables.
    public var schema: String
    /// How the connection is secured.
    public var tls: TLSMode
    /// A PEM file of the CA that signs the server's certificate (`sslrootcert`).
    public var rootCertificate: String?

    /// The schema's name when the configuration names none.
    public static let defaultSchema = "sync_agent"

    /// Reads `url`; the tables go in `schema`.
    ///
    /// - Throws: A message naming what is wrong with the URL or the schema.
    public init(url: String, schema: String = PostgresLocation.defaultSchema) throws(StoreError) {
        guard let components = URLComponents(string: url),
            ["postgres", "postgresql"].contains(components.scheme?.lowercased() ?? "")
        else {
            throw StoreError(.open, "the PostgreSQL URL must look like postgres://USER@HOST:PORT/DATABASE")
        }
        guard Self.isPlainIdentifier(schema) else {
            throw StoreError(
                .open,
                "the schema \"\(schema)\" must be a plain lowercase name (letters, digits and _, not starting with "
                    + "a digit)")
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let known: Set = ["sslmode", "sslrootcert", "host", "port", "user", "password", "dbname"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw StoreError(
                .open, "the PostgreSQL URL has the parameter \"\(unknown)\", which the agent does not know")
        }
        self.schema = schema
        let hostParameter = query["host"].flatMap { $0.isEmpty ? nil : $0 }
        if let folder = hostParameter, folder.hasPrefix("/") {
            socketFolder = folder
            host = nil
        } else {
            socketFolder = nil
            host = hostParameter ?? components.host.flatMap { $0.isEmpty ? nil : $0 }
            if host == nil {
                throw StoreError(.open, "the PostgreSQL URL names no host (postgres://USER@HOST/DATABASE)")
            }
        }
        let portText = query["port"] ?? components.port.map(String.init)
        guard let port = portText.map({ Int($0) }) ?? 5432, (1...65535).contains(port) else {
            throw StoreError(.open, "the PostgreSQL URL's port \"\(portText ?? "")\" is not a port number")
        }
        self.port = port
        guard let user = query["user"] ?? components.user.flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw StoreError(.open, "the PostgreSQL URL names no user (postgres://USER@HOST/DATABASE)")
        }
        self.user = user.removingPercentEncoding ?? user
        password = (query["password"] ?? components.password).map { $0.removingPercentEncoding ?? $0 }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard let database = query["dbname"] ?? (path.isEmpty ? nil : path) else {
            throw StoreError(.open, "the PostgreSQL URL names no database (postgres://USER@HOST/DATABASE)")
        }
        self.database = database.removingPercentEncoding ?? database
        let mode = query["sslmode"] ?? "prefer"
        guard let tls = TLSMode(rawValue: mode) else {
            let modes = TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
            throw StoreError(.open, "the PostgreSQL URL's sslmode \"\(mode)\" is none of \(modes)")
        }
        self.tls = socketFolder == nil ? tls : .disable
        rootCertificate = query["sslrootcert"]
    }

    /// Whether `name` is a schema name that needs no quoting.
    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 63 else { return false }
        func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || byte == 95 }
        return isLetter(first)
            && name.utf8.allSatisfy { isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}

extension PostgresLocation: CustomStringConvertible {
    /// The location without the password, for messages and the status:
    /// `postgres://USER@HOST:PORT/DATABASE (schema SCHEMA)`.
    public var description: String {
        if let socketFolder {
            return "postgres://\(user)@/\(database)?host=\(socketFolder) (schema \(schema))"
        }
        return "postgres://\(user)@\(host ?? ""):\(port)/\(database) (schema \(schema))"
    }
}
