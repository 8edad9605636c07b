import Foundation

/// One HTTP exchange made with `curl`, as any client of an API would make it: how tests
/// read the test upstream's imitations directly.
struct PlainHTTP: Sendable {
    var status: Int
    /// The headers, names lowercased.
    var headers: [String: String]
    var body: String

    /// The body as a JSON object (empty when it is not one).
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }

    /// `curl -X method url` with `headers` (`Name: value`) and a `body`, over loopback.
    static func request(
        _ url: String, method: String = "GET", headers: [String] = [], body: String? = nil
    ) throws -> PlainHTTP {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments =
            ["--silent", "--include", "--max-time", "30", "-X", method] + headers.flatMap { ["-H", $0] }
            + (body.map { ["--data-binary", $0] } ?? []) + [url]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { return PlainHTTP(status: 0, headers: [:], body: text) }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return PlainHTTP(status: status, headers: headers, body: String(text[split.upperBound...]))
    }

    /// `text` percent-encoded for a query value (only unreserved characters kept).
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "-._~").union(.alphanumerics))
            ?? text
    }

    /// The `rel="relation"` URL of a `Link` header.
    func link(_ relation: String) -> String? {
        for part in (headers["link"] ?? "").components(separatedBy: ", ") where part.hasSuffix("rel=\"\(relation)\"") {
            guard let open = part.firstIndex(of: "<"), let close = part.firstIndex(of: ">") else { continue }
            return String(part[part.index(after: open)..<close])
        }
        return nil
    }
}

/// Whether two JSON texts hold the same value (members in any order).
func sameJSON(_ left: String?, _ right: String?) -> Bool {
    func canonical(_ text: String?) -> Data? {
        guard let text,
            let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
        else { return nil }
        return try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
    }
    guard let left = canonical(left) else { return false }
    return left == canonical(right)
}

/// The JSON text of a value read from a JSON body.
func jsonText(_ value: Any?) -> String? {
    guard let value, let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
    else { return nil }
    return String(decoding: data, as: UTF8.self)
}
