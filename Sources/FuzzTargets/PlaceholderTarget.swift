import Foundation
import Store
import SyncCore

extension FuzzTarget {
    /// The placeholders of the request model (docs/configuration.md#placeholders): the
    /// value an incremental sync sends, and the values of dependent resources, land in
    /// the URL's path and query, a header and strings of a JSON body.
    static let placeholders = FuzzTarget(
        name: "placeholders",
        property: "whatever the value (a token, another resource's field), it lands only where its "
            + "placeholder is, encoded for the place: percent-encoded in the URL, JSON-escaped in the body, "
            + "without control characters in a header; it never adds a parameter, a path segment, a header "
            + "line or a JSON member"
    ) { input throws(PropertyViolation) in
        var draw = FuzzInput(input)
        // Templates of text pieces and placeholders; the URL's text is unreserved characters.
        let textPieces = ["a", "Z", "0", " ", "\"", "'", "&", "=", "?", "#", "/", "%", "\\", ":", ";", ",", "é", "{{"]
        let urlPieces = ["a", "Z", "0", "-", ".", "_", "~"]
        func template(_ pieces: [String]) -> (text: String, parts: [String?]) {
            var parts: [String?] = []
            for _ in 0..<draw.int(in: 0...6) {
                parts.append(draw.int(in: 0...3) == 0 ? nil : draw.pick(pieces))
            }
            if !parts.contains(where: { $0 == nil }) { parts.insert(nil, at: draw.int(in: 0...parts.count)) }
            return (parts.map { $0 ?? "{since}" }.joined(), parts)
        }
        func rendered(_ parts: [String?], _ value: String) -> String {
            parts.map { $0.map { $0 == "{{" ? "{" : $0 } ?? value }.joined()
        }
        let path = template(urlPieces)
        let query = template(textPieces)
        let header = template(textPieces)
        let body = template(textPieces)
        let dependencyPointer = "/" + draw.text(upTo: 3, from: ["a", "~0", "~1", "é"])
        let dependencyValue = draw.anyText(upTo: 24)
        let token = draw.anyText(upTo: 40)

        let config = JSONValue.object([
            .init(
                "resources",
                .array([
                    .object([.init("name", "user"), .init("url", "https://api.example/user"), .init("key", "/id")]),
                    .object([
                        .init("name", "items"),
                        .init("url", .string("https://api.example/p/\(path.text)/{user:\(dependencyPointer)}/x")),
                        .init("method", "POST"), .init("key", "/id"),
                        .init("query", .object([.init("q", .string(query.text))])),
                        .init("headers", .object([.init("X-Since", .string(header.text))])),
                        .init("body", .object([.init("s", .string(body.text)), .init("n", .array([1]))])),
                        .init("mode", "incremental"),
                        .init("since", .object([.init("token", "/next")])),
                    ]),
                ]))
        ])
        let resource: ResourceConfig
        do {
            let loaded = try ConfigLoader.decode(
                Array(config.serialized().utf8), file: "/fuzz/config.json", environment: [:])
            resource = loaded.resources[1]
        } catch {
            throw PropertyViolation("the configuration does not load: \(error)\n\(config.serialized(pretty: true))")
        }
        let dependency = resource.url.dependencies[0]
        let request = resource.firstRequest(since: .token(token), dependencyValues: [dependency: dependencyValue])
        let show = "token \(shown(Array(token.utf8))), field \(shown(Array(dependencyValue.utf8)))"

        // The URL: the same host, four path segments, one parameter, no fragment; each
        // value percent-encoded and decoding to what the template says.
        guard let url = URLComponents(string: request.url) else {
            throw PropertyViolation("\(show): \(request.url) is no URL")
        }
        try require(url.host == "api.example" && url.fragment == nil, "\(show): the URL is \(request.url)")
        let segments = url.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
        try require(
            segments.count == 5 && segments[1] == "p" && segments[4] == "x",
            "\(show): the path of \(request.url) has other segments")
        try require(
            decoded(segments[2]) == rendered(path.parts, token), "\(show): the path says \(segments[2])")
        try require(
            decoded(segments[3]) == dependencyValue, "\(show): the field lands as \(segments[3])")
        let items = url.percentEncodedQueryItems ?? []
        try require(
            items.count == 1 && items[0].name == "q" && decoded(items[0].value ?? "") == rendered(query.parts, token),
            "\(show): the query of \(request.url) is \(items)")

        let sent = request.headers.first { $0.name == "X-Since" }?.value
        let expected = String(
            rendered(header.parts, token).unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
        try require(
            request.headers.count == 1 && sent == expected, "\(show): the header is \(String(describing: sent))")

        let wanted = JSONValue.object([.init("s", .string(rendered(body.parts, token))), .init("n", .array([1]))])
        let bodyValue = request.body.flatMap { try? JSONValue(parsing: Array($0.utf8)) }
        try require(bodyValue == wanted, "\(show): the body is \(request.body ?? "none")")
    }

    /// A percent-encoded text decoded, or `nil` if a byte outside the unreserved
    /// characters is not encoded.
    private static func decoded(_ encoded: some StringProtocol) -> String? {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~%".utf8)
        guard encoded.utf8.allSatisfy(unreserved.contains) else { return nil }
        return String(encoded).removingPercentEncoding
    }
}
