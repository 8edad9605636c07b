import Foundation
import Store

/// A resource's request as a value: the planner of its pages, its body and
/// its headers, with its dependencies' values and, for an incremental
/// resource, the `since` value where its placeholders, its `since.param` or
/// its `since.bodyField` say (docs/configuration.md#placeholders).
struct RequestTemplate: Sendable {
    let resource: ResourceConfig
    let planner: PagePlanner
    /// The resource's body, with the `since` value of an incremental resource.
    let body: RequestBody?
    /// The resource's headers, with the `since` value of an incremental resource.
    let headers: [(name: String, value: String)]

    /// The request of `resource`, its URL filled with `dependencyValues`,
    /// sending `since`; without it, a query parameter that is only `{since}`
    /// is left out.
    init(resource: ResourceConfig, dependencyValues: [URLTemplate.Dependency: String], since: SentValue?) {
        self.resource = resource
        // Only the values written with placeholders are templates: a secret with a brace is sent as it is.
        let templated = resource.incremental?.templated ?? IncrementalSettings.Templated()
        var query: [(name: String, value: String)] = []
        for (name, value) in resource.query {
            guard templated.query.contains(name), let template = try? TextTemplate.parse(value) else {
                query.append((name, value))
                continue
            }
            if since == nil, template.onlySince != nil { continue }
            query.append((name, template.render(since)))
        }
        var body = resource.body
        if let current = body, !templated.body.isEmpty {
            if let json = current.json {
                let filled = json.mappingStrings(at: "body") { text, path in
                    guard templated.body.contains(path), let template = try? TextTemplate.parse(text) else {
                        return .string(text)
                    }
                    // A body string that is one Unix time is sent as a number.
                    if let format = template.onlySince, let since { return since.json(format) }
                    return .string(template.render(since))
                }
                body = RequestBody(text: filled.serialized(), contentType: current.contentType)
            } else {
                body = RequestBody(text: TextTemplate.fill(current.text, with: since), contentType: current.contentType)
            }
        }
        if let since, let placement = resource.incremental?.placement {
            switch placement {
            case .query(let name):
                query.removeAll { $0.name == name }
                query.append((name, since.text()))
            case .body(let pointer):
                let object = body?.json ?? .object([])
                body = RequestBody(
                    text: object.setting(since.json(), at: pointer).serialized(),
                    contentType: body?.contentType ?? RequestBody.jsonType)
            }
        }
        headers = resource.headers.map { header in
            guard templated.headers.contains(header.name) else { return header }
            return (header.name, TextTemplate.fill(header.value, with: since, encode: Self.headerSafe))
        }
        planner = PagePlanner(
            pagination: resource.pagination, baseURL: resource.url.render(dependencyValues, since: since),
            query: query, maxPages: resource.settings.maxPages, body: body)
        self.body = body
    }

    /// The body `request` sends: the one pagination wrote into it (`in: body`), else the template's.
    func body(of request: PageRequest) -> RequestBody? {
        request.body.map { RequestBody(text: $0, contentType: RequestBody.jsonType) } ?? body
    }

    /// The fingerprint of the first request and of how its answer is read
    /// (``RequestFingerprint/first(of:first:body:redactor:)``).
    func fingerprint(redactor: Redactor) -> String {
        RequestFingerprint.first(of: resource, first: planner.first(), body: body, redactor: redactor)
    }

    /// `text` without the control characters a header value cannot hold.
    private static func headerSafe(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
    }
}

extension ResourceConfig {
    /// The first request a sync of this resource sends when `kept` is the value an
    /// incremental sync kept: its URL, headers and body, each value where the
    /// placeholders put it (docs/configuration.md#placeholders).
    package func firstRequest(
        since kept: SinceState?, dependencyValues: [URLTemplate.Dependency: String] = [:]
    ) -> (url: String, headers: [(name: String, value: String)], body: String?) {
        let template = RequestTemplate(
            resource: self, dependencyValues: dependencyValues, since: incremental?.value(toSend: kept))
        return (template.planner.first().url, template.headers, template.body?.text)
    }
}
