import Foundation

extension URLTemplate {
    /// A resource's `url` (docs/configuration.md#a-resource): an absolute http or
    /// https URL with a host, perhaps with placeholders
    /// (docs/configuration.md#dependent-resources); a credential written in
    /// its query is kept secret. (`user:password@` is taken out before: ``URLCredentials``.)
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
