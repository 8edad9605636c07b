import Foundation

/// Debian's nginx serving a folder of static files on loopback, as a real
/// static-file API: one ETag and Last-Modified per file (from its mtime and
/// size), 304 to a matching `If-None-Match`. Its access log records each
/// request's path and status.
final class Nginx: Sendable {
    let folder: String
    /// The loopback address it listens on: 127.0.0.1 unless it was started on a port of its own.
    let address: String
    let port: Int
    private let process: Process
    /// `http`, or `https` when it serves TLS.
    private let scheme: String

    /// The folder it serves.
    var root: String { folder + "/www" }
    /// Its origin, such as `http://127.0.0.1:41234`, or `https://127.0.0.7` on port 443.
    var baseURL: String {
        port == (scheme == "https" ? 443 : 80) ? "\(scheme)://\(address)" : "\(scheme)://\(address):\(port)"
    }

    private init(folder: String, address: String, port: Int, process: Process, scheme: String) {
        self.folder = folder
        self.address = address
        self.port = port
        self.process = process
        self.scheme = scheme
    }

    struct DidNotStart: Error, CustomStringConvertible {
        var log: String
        var description: String { "nginx did not start:\n\(log)" }
    }

    /// Starts nginx in a new temporary folder, on a free loopback port.
    /// With `gzip`, it compresses JSON for clients that accept it, and serves
    /// `NAME.gz` for `NAME` when there is one (`gzip_static`).
    /// With `tls`, it serves HTTPS (HTTP/2 to clients that ask for it by ALPN,
    /// as real servers do) with that CA's server certificate, and
    /// files under `/private/` only to clients with a certificate of that CA;
    /// `certificate` names another of its server certificates (`internal`, `expired`).
    /// With `port`, it listens on that port (443, as a proxy's rules want) of an
    /// address of 127.0.0.0/8 that is free, which ``address`` tells.
    static func start(
        gzip: Bool = false, tls: PrivateCA? = nil, certificate: String = "server", port fixedPort: Int? = nil
    ) async throws -> Nginx {
        let folder = NSTemporaryDirectory() + "sync-agent-nginx-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/www", withIntermediateDirectories: true)
        for attempt in 0..<5 {
            let port = fixedPort ?? Int.random(in: 20_000..<60_000)
            let address = fixedPort == nil ? "127.0.0.1" : "127.0.0.\(Int.random(in: 2...254))"
            // A port another server holds would answer for nginx before nginx fails to bind it.
            if loopbackAccepts(port: port, address: address) { continue }
            try? FileManager.default.removeItem(atPath: folder + "/nginx.pid")
            let config = """
                \(getuid() == 0 ? "user root;" : "")
                worker_processes 1;
                pid \(folder)/nginx.pid;
                error_log \(folder)/error.log;
                events { worker_connections 64; }
                http {
                    log_format requests '$remote_addr - - [$time_local] "$request" $status $body_bytes_sent "$host" $connection';
                    access_log \(folder)/access.log requests;
                    client_body_temp_path \(folder)/body;
                    proxy_temp_path \(folder)/proxy;
                    fastcgi_temp_path \(folder)/fastcgi;
                    uwsgi_temp_path \(folder)/uwsgi;
                    scgi_temp_path \(folder)/scgi;
                    types { application/json json; }
                    \(gzip ? "gzip on; gzip_types application/json; gzip_min_length 256; gzip_static on;" : "")
                    \(tls.map { ca in """
                        server {
                            listen \(address):\(port) ssl http2; root \(folder)/www;
                            ssl_certificate \(ca.folder)/\(certificate).pem; ssl_certificate_key \(ca.folder)/\(certificate).key;
                            ssl_client_certificate \(ca.caFile); ssl_verify_client optional;
                            location /private/ { if ($ssl_client_verify != SUCCESS) { return 403; } }
                        }
                        """ } ?? "server { listen \(address):\(port); root \(folder)/www; }")
                }
                """
            try config.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
            process.arguments = [
                "-p", folder, "-e", folder + "/error.log", "-c", folder + "/nginx.conf", "-g", "daemon off;",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let nginx = Nginx(
                folder: folder, address: address, port: port, process: process, scheme: tls == nil ? "http" : "https")
            // nginx writes its pid file once it holds its listening socket.
            let pidFile = folder + "/nginx.pid"
            if try await eventually(
                timeout: .seconds(10),
                {
                    (FileManager.default.fileExists(atPath: pidFile) && loopbackAccepts(port: port, address: address))
                        || !process.isRunning
                }),
                process.isRunning
            {
                return nginx
            }
            process.terminate()
            process.waitUntilExit()
            if attempt == 4 { break }
        }
        let log = (try? String(contentsOfFile: folder + "/error.log", encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: folder)
        throw DidNotStart(log: log)
    }

    /// Writes a file to serve, with the given modification time.
    func write(_ name: String, _ text: String, modified: Date) throws {
        let path = root + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: path)
    }

    /// A request in the access log.
    struct Request: Sendable {
        var path: String
        var status: Int
        /// Body bytes sent.
        var bytes: Int
        /// The host asked for (`Host`, or the TLS server name).
        var host: String
        /// `HTTP/1.1` or `HTTP/2.0`.
        var protocolVersion: String
        /// The serial number of the connection it came on.
        var connection: Int
    }

    /// The requests logged so far, oldest first.
    func requests() -> [Request] {
        let log = (try? String(contentsOfFile: folder + "/access.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            // 127.0.0.1 - - [date] "GET /page1.json HTTP/1.1" 200 123 "127.0.0.1" 7
            let parts = line.split(separator: "\"", omittingEmptySubsequences: false)
            guard parts.count >= 5 else { return nil }
            let request = parts[1].split(separator: " ")
            let fields = parts[2].split(separator: " ")
            guard request.count >= 3, fields.count >= 2, let status = Int(fields[0]), let bytes = Int(fields[1]),
                let connection = Int(parts[4].trimmingCharacters(in: .whitespaces))
            else { return nil }
            return Request(
                path: String(request[1]), status: status, bytes: bytes, host: String(parts[3]),
                protocolVersion: String(request[2]), connection: connection)
        }
    }

    /// Stops nginx and removes its folder.
    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
