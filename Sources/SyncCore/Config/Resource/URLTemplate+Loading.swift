import Foundation

extension URLTemplate {
    /// A resource's `url` (docs/configuration.md#a-resource): an absolute http or
    /// https URL with a host, perhaps with placeholders
    /// (docs/configuration.md#dependent-resources); a password or credential
    /// written in it is kept secret.
    static func load(_ value: JSONValue?, at path: String, in context: ConfigContext) -> URLTemplate? {
        let reader = context.reader
        guard let value else {
            reader.report(path, "is required")
            return nil
        }
        guard let text = reader.string(value, at: path) else { return nil }
        let template: URLTemplate
        do {
            template = try URLTemplate.parse(text, substitution: &context.substitution)
        } catch {
            reader.report(path, error.message)
            return nil
        }
        // Check the URL's shape with every placeholder filled by a sample value.
        let sample = template.render(Dictionary(uniqueKeysWithValues: template.dependencies.map { ($0, "1") }))
        guard let components = URLComponents(string: sample), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else {
            reader.report(path, "must be an absolute http:// or https:// URL with a host")
            return nil
        }
        // Credentials written in the URL itself are secrets too (filled ones already are).
        // Only the password as written counts: a `${…}` elsewhere (the user name) fills no password.
        let authority = text.components(separatedBy: "://").dropFirst().first?.split(separator: "/").first ?? ""
        let userinfo = authority.lastIndex(of: "@").map { authority[..<$0] } ?? ""
        let writtenPassword = userinfo.firstIndex(of: ":").map { userinfo[userinfo.index(after: $0)...] } ?? ""
        if let password = components.password, !password.isEmpty, !writtenPassword.contains("${") {
            context.substitution.keepSecret(password, as: "[password]")
            // As written too: percent-encoded, perhaps otherwise than the redactor would.
            if let encoded = components.percentEncodedPassword {
                context.substitution.keepSecret(encoded, as: "[password]")
            }
        }
        let written = text.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        for pair in written.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, CredentialNames.isCredential(query: parts[0]), !parts[1].contains("${")
            else { continue }
            context.substitution.keepSecret(parts[1].removingPercentEncoding ?? parts[1], as: "[\(parts[0])]")
        }
        return template
    }
}
