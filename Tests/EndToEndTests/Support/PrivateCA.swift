import Foundation

/// A private certificate authority made with `openssl` in a temporary
/// folder, as a company makes one: its certificate, a server certificate for
/// 127.0.0.1 to 127.0.0.254 and a client certificate, each with its key; and
/// two server certificates that fail: `internal` (for `api.internal` only) and `expired`
/// (valid for a day in 2024), with the server's key.
final class PrivateCA: Sendable {
    let folder: String

    var caFile: String { folder + "/ca.pem" }
    var serverCertificate: String { folder + "/server.pem" }
    var serverKey: String { folder + "/server.key" }
    var clientCertificate: String { folder + "/client.pem" }
    var clientKey: String { folder + "/client.key" }

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    init() throws {
        folder = NSTemporaryDirectory() + "sync-agent-ca-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let key = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
        let script = """
            set -e
            cd '\(folder)'
            openssl req -x509 \(key) -keyout ca.key -out ca.pem -days 2 -subj '/CN=sync-agent test CA'
            openssl req \(key) -keyout server.key -out server.csr -subj '/CN=127.0.0.1'
            printf 'subjectAltName=IP:127.0.0.1,%s,DNS:localhost\\n' "$(seq -f 'IP:127.0.0.%g' -s , 2 254)" > server.ext
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 \
              -extfile server.ext
            openssl req \(key) -keyout client.key -out client.csr -subj '/CN=sync-agent'
            openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 2
            # The server's key, certified for another name only, and certified for a day in 2024.
            printf 'subjectAltName=DNS:api.internal\\n' > internal.ext
            openssl req -new -key server.key -out internal.csr -subj '/CN=api.internal'
            openssl x509 -req -in internal.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out internal.pem -days 2 \
              -extfile internal.ext
            cp server.key internal.key
            cp server.key expired.key
            mkdir issued && touch index.txt && echo 01 > serial
            printf '[ca]\\ndefault_ca=local\\n[local]\\ndatabase=index.txt\\nnew_certs_dir=issued\\nserial=serial\\n' > ca.cnf
            printf 'default_md=sha256\\npolicy=any\\n[any]\\ncommonName=supplied\\n' >> ca.cnf
            openssl ca -batch -config ca.cnf -cert ca.pem -keyfile ca.key -in server.csr -out expired.pem \
              -startdate 20240101000000Z -enddate 20240102000000Z -extfile server.ext 2>/dev/null
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(description: "openssl failed: " + String(decoding: problem, as: UTF8.self))
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }
}
