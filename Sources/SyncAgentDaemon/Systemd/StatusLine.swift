import Store
import SyncCore

/// The one-line summary systemd shows as the service's status (`STATUS=`):
/// `3 resources: 2 idle, 1 syncing (users: taking longer than expected)`,
/// `2 resources: 1 idle, 1 waiting (issues: rate limited until 10:42:07)`.
enum StatusLine {
    /// The summary of `statuses`.
    static func summary(_ statuses: [ResourceStatus]) -> String {
        let noun = statuses.count == 1 ? "resource" : "resources"
        let counts = ResourceState.allCases.compactMap { state -> String? in
            let count = statuses.count { $0.state == state }
            return count > 0 ? "\(count) \(state.rawValue)" : nil
        }
        var line = "\(statuses.count) \(noun): " + counts.joined(separator: ", ")
        let notes = statuses.compactMap { status -> String? in
            if status.state == .waiting, let message = status.message { return "\(status.name): \(message)" }
            if status.slow { return "\(status.name): \(ResourceMachine.slowMessage)" }
            if status.state == .failed { return "\(status.name): failed" }
            return nil
        }
        if !notes.isEmpty { line += " (" + notes.joined(separator: "; ") + ")" }
        return line
    }
}
