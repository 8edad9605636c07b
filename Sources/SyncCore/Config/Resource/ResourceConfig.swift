import Foundation
import Store

/// Settings shared by the resources that have them; never changed.
private final class SettingsBox: Sendable {
    let value: SyncSettings

    init(_ value: SyncSettings) {
        self.value = value
    }
}

/// One resource to keep in sync.
package struct ResourceConfig: Sendable {
    /// The resource's name, `[a-z0-9_-]{1,64}`.
    package var name: String
    /// The URL of its first page.
    package var url: URLTemplate
    /// The HTTP method.
    package var method: HTTPMethod
    /// Request headers, in order.
    package var headers: [(name: String, value: String)]
    /// Query parameters added to every page's URL, in order.
    package var query: [(name: String, value: String)]
    /// The request body, for POST.
    package var body: RequestBody?
    /// Where the array of items is in each page.
    package var items: JSONPointer
    /// Where each item's key is.
    package var key: JSONPointer
    /// How to walk from page to page.
    package var pagination: Pagination {
        didSet { paginationText = Self.text(of: pagination) }
    }
    /// Timing, retry and limits.
    package var settings: SyncSettings {
        get { settingsBox.value }
        set { settingsBox = SettingsBox(newValue) }
    }
    /// `settings`, in a box that resources with the same settings share
    /// (``sharing(_:)``): 664 bytes a resource otherwise, twice (the
    /// configuration and the scheduler each hold the resource).
    private var settingsBox: SettingsBox
    /// How it asks only for what changed; `nil` for a snapshot resource (the default).
    package var incremental: IncrementalSettings?
    /// Which items say their record is deleted (`deleted`); `nil`: none.
    package var deleted: DeletedRule?
    /// Its typed table, when it declares `columns` (docs/configuration.md#typed-columns).
    package var table: TypedTable?
    /// `pagination` as text, for the fingerprint of its requests
    /// (docs/schema.md#fingerprints): made once, not at every sync.
    package private(set) var paginationText: String

    package init(
        name: String, url: URLTemplate, method: HTTPMethod, headers: [(name: String, value: String)],
        query: [(name: String, value: String)], body: RequestBody?, items: JSONPointer, key: JSONPointer,
        pagination: Pagination, settings: SyncSettings, incremental: IncrementalSettings?, deleted: DeletedRule? = nil
    ) {
        self.name = name
        self.url = url
        self.method = method
        self.headers = headers
        self.query = query
        self.body = body
        self.items = items
        self.key = key
        self.pagination = pagination
        settingsBox = SettingsBox(settings)
        self.incremental = incremental
        self.deleted = deleted
        paginationText = Self.text(of: pagination)
    }

    /// `pagination` as the fingerprints of requests have read it since they
    /// first did (``FingerprintText/pagination(_:)``).
    static func text(of pagination: Pagination) -> String {
        FingerprintText.pagination(pagination)
    }

    /// `resources` holding one copy of what many have alike: one box for each
    /// distinct `settings` (most resources have their `defaults`), one text
    /// for each distinct `pagination`.
    package static func sharing(_ resources: [ResourceConfig]) -> [ResourceConfig] {
        var boxes: [SyncSettings: SettingsBox] = [:]
        var texts: [Pagination: String] = [:]
        return resources.map { resource in
            var resource = resource
            if let shared = boxes[resource.settings] {
                resource.settingsBox = shared
            } else {
                boxes[resource.settings] = resource.settingsBox
            }
            if let shared = texts[resource.pagination] {
                resource.paginationText = shared
            } else {
                texts[resource.pagination] = resource.paginationText
            }
            return resource
        }
    }

    /// The resources whose record this one's URL reads.
    package var dependencies: [String] { url.dependencies.map(\.resource) }

    /// The scope of its request budget and rate limits: `rateLimit.scope`, else its URL's host.
    package var rateLimitScope: String {
        settings.rateLimit.scope ?? host
    }

    /// The host its URL names (`?` when it names none).
    package var host: String {
        URLComponents(string: url.render())?.host ?? "?"
    }
}

extension ResourceConfig: Equatable {
    /// Whether two resources are configured alike, secrets filled in included.
    package static func == (lhs: ResourceConfig, rhs: ResourceConfig) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url && lhs.method == rhs.method
            && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
            && lhs.query.elementsEqual(rhs.query) { $0 == $1 } && lhs.body == rhs.body && lhs.items == rhs.items
            && lhs.key == rhs.key && lhs.pagination == rhs.pagination
            && (lhs.settingsBox === rhs.settingsBox || lhs.settings == rhs.settings)
            && lhs.incremental == rhs.incremental && lhs.deleted == rhs.deleted
    }
}
