import Foundation
import Store
import SyncCore

/// Reading the status API's JSON back into values, for the commands that ask
/// a running agent (`refresh`, `status`). A field that is missing or of the
/// wrong type makes the whole object unreadable: the agent and the command
/// come from one build, so that means a bug, not an old agent to tolerate.
extension JSONValue {
    package var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    package var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    var arrayValue: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// A timestamp field: `null` is `.some(nil)`, a malformed one `nil`.
    fileprivate var timestamp: Date?? {
        if self == .null { return .some(nil) }
        return stringValue.flatMap(Timestamp.date(from:)).map { .some($0) }
    }
}

extension StoredError {
    /// An error object `{"kind", "message", "status"}`.
    init?(json: JSONValue) {
        guard let kind = json["kind"]?.stringValue, let message = json["message"]?.stringValue else { return nil }
        self.init(kind: kind, message: message, status: json["status"]?.intValue)
    }
}

extension SyncResult {
    /// A Result object of SPEC §4.
    init?(json: JSONValue) {
        guard let resource = json["resource"]?.stringValue,
            let outcome = json["outcome"]?.stringValue.flatMap(SyncOutcome.init(rawValue:)),
            let joined = json["joined"]?.boolValue, let pages = json["pages"]?.intValue,
            let items = json["items"]?.intValue, let attempts = json["attempts"]?.intValue,
            let duration = json["durationMs"]?.intValue
        else { return nil }
        let changes = json["changes"]
        self.init(
            resource: resource, outcome: outcome, joined: joined, pages: pages, items: items, attempts: attempts,
            durationMilliseconds: duration, error: json["error"].flatMap(StoredError.init(json:)),
            changes: SnapshotChanges(
                added: changes?["added"]?.intValue ?? 0, changed: changes?["changed"]?.intValue ?? 0,
                removed: changes?["removed"]?.intValue ?? 0))
    }
}

extension ResourceStatus {
    /// A Resource object of SPEC §4.
    init?(json: JSONValue) {
        guard let name = json["name"]?.stringValue,
            let state = json["state"]?.stringValue.flatMap(ResourceState.init(rawValue:)),
            let slow = json["slow"]?.boolValue, let attempt = json["attempt"]?.intValue,
            let items = json["items"]?.intValue,
            let lastSuccessAt = json["lastSuccessAt"]?.timestamp,
            let lastAttemptAt = json["lastAttemptAt"]?.timestamp,
            let nextSyncAt = json["nextSyncAt"]?.timestamp
        else { return nil }
        self.init(name: name, row: nil)
        self.state = state
        self.slow = slow
        self.message = json["message"]?.stringValue
        self.lastSuccessAt = lastSuccessAt
        self.lastAttemptAt = lastAttemptAt
        self.nextSyncAt = nextSyncAt
        self.attempt = attempt
        self.items = items
        self.lastError = json["lastError"].flatMap(StoredError.init(json:))
    }
}

package extension SyncActivity {
    /// A `progress`, `retry` or `slow` event of a refresh; `nil` for any other.
    init?(event: String, json: JSONValue) {
        guard let resource = json["resource"]?.stringValue else { return nil }
        switch event {
        case "progress":
            guard let pages = json["pages"]?.intValue, let items = json["items"]?.intValue,
                let attempts = json["attempts"]?.intValue
            else { return nil }
            self = .progress(SyncProgress(resource: resource, pages: pages, items: items, attempts: attempts))
        case "retry":
            guard let attempt = json["attempt"]?.intValue, let maxAttempts = json["maxAttempts"]?.intValue,
                let delay = json["delayMs"]?.intValue, let request = json["request"]?.stringValue,
                let cause = json["cause"]?.stringValue
            else { return nil }
            self = .retry(
                resource: resource,
                RetryNotice(
                    request: request, cause: cause, attempt: attempt, maxAttempts: maxAttempts,
                    delay: .milliseconds(delay)))
        case "slow":
            self = .slow(resource: resource)
        default:
            return nil
        }
    }
}
