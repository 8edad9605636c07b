/// How far a running sync has come, reported after each page.
public struct SyncProgress: Sendable, Hashable {
    /// The resource being synced.
    public var resource: String
    /// Pages received so far.
    public var pages: Int
    /// Items received so far.
    public var items: Int

    /// Creates a progress report.
    public init(resource: String, pages: Int, items: Int) {
        self.resource = resource
        self.pages = pages
        self.items = items
    }
}
