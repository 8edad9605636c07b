/// The metadata keys of the agent's log lines.
package enum LogKey {
    package static let resource = "resource"
    static let page = "page"
    static let items = "items"
    static let attempt = "attempt"
    static let syncID = "sync.id"
}
