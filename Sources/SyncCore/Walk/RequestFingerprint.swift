import Store

/// The fingerprints that tie what a sync keeps to the request it came from:
/// validators are sent back, and a walk resumed, only with the request they
/// were received for. Their texts are what the database holds: a change to
/// one makes every stored page and cursor start afresh.
enum RequestFingerprint {
    /// A fingerprint of a resource's first request and of how its answer is
    /// read: the method, URL, body and headers (secrets as their `${…}`
    /// references) and the items, key and pagination settings.
    static func first(
        of resource: ResourceConfig, first: PageRequest, body: RequestBody?, redactor: Redactor
    ) -> String {
        var parts = [
            resource.method.rawValue, first.url, body?.text ?? "",
            resource.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n"),
            resource.items.description, resource.key.description, resource.paginationText,
        ]
        // A token or link kept belongs to where it came from (a time, to any of them, as before).
        if let kept = resource.incremental.flatMap({ FingerprintText.kept($0.source) }) { parts.append(kept) }
        return FNV1a.hex(redactor.redact(parts.joined(separator: "\u{1F}")))
    }

    /// The fingerprint of `resource`'s first request, its URL filled with
    /// `dependencyValues`, sending no `since` value.
    static func first(
        of resource: ResourceConfig, dependencyValues: [URLTemplate.Dependency: String], redactor: Redactor
    ) -> String {
        RequestTemplate(resource: resource, dependencyValues: dependencyValues, since: nil)
            .fingerprint(redactor: redactor)
    }

    /// A fingerprint of one page's request: its method, URL and body, secrets as their references.
    static func page(_ request: PageRequest, method: HTTPMethod, redactor: Redactor) -> String {
        FNV1a.hex(redactor.redact([method.rawValue, request.url, request.body ?? ""].joined(separator: "\u{1F}")))
    }
}
