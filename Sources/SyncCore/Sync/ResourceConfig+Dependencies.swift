import Store

extension ResourceConfig {
    /// The values of this resource's `{resource:/pointer}` placeholders, read
    /// from each named resource's single record.
    func dependencyValues(in store: any SyncStore) async throws -> [URLTemplate.Dependency: String] {
        var values: [URLTemplate.Dependency: String] = [:]
        for dependency in url.dependencies {
            let records = try await store.records(of: dependency.resource, limit: 2)
            guard records.count == 1 else {
                throw DependencyError(
                    resource: self, dependency: dependency,
                    reason: records.isEmpty
                        ? "resource \"\(dependency.resource)\" has no record yet (refresh \(dependency.resource) first)"
                        : "resource \"\(dependency.resource)\" has more than one record, and a dependency must be one")
            }
            let document = try JSONDocument(validating: Array(records[0].data.utf8))
            guard let span = document.span(at: dependency.pointer),
                let value = document.string(at: span)
                    ?? (document.kind(of: span) == .number ? document.text(of: span) : nil)
            else {
                throw DependencyError(
                    resource: self, dependency: dependency,
                    reason:
                        "the record of \"\(dependency.resource)\" has no string or number at \"\(dependency.pointer)\"")
            }
            values[dependency] = value
        }
        return values
    }
}

/// A placeholder that cannot be filled, told as the other failures are.
struct DependencyError: Error {
    var message: String

    init(resource: ResourceConfig, dependency: URLTemplate.Dependency, reason: String) {
        message = "\(resource.name): \(resource.method.rawValue) \(resource.url.display) cannot be sent: \(reason)"
    }
}
