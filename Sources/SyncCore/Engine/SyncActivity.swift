import Foundation

/// What a running sync reports as it goes: the `progress`, `retry` and `slow`
/// events a refresh streams to its caller while it waits (SPEC §4), and how
/// it ended.
package enum SyncActivity: Sendable, Hashable {
    /// A page came in.
    case progress(SyncProgress)
    /// A request failed and will be tried again.
    case retry(resource: String, RetryNotice)
    /// The sync has taken longer than `slowAfter`.
    case slow(resource: String)
    /// The sync ended (not cancelled).
    case finished(SyncResult)

    /// The resource being synced.
    package var resource: String {
        switch self {
        case .progress(let progress): progress.resource
        case .retry(let resource, _), .slow(let resource): resource
        case .finished(let result): result.resource
        }
    }

    /// The event's name in the stream: `progress`, `retry` or `slow`.
    package var eventName: String {
        switch self {
        case .progress: "progress"
        case .retry: "retry"
        case .slow: "slow"
        case .finished: "result"
        }
    }

    /// The event's data.
    package var json: JSONValue {
        switch self {
        case .progress(let progress):
            [
                "resource": .string(progress.resource), "pages": .number(progress.pages),
                "items": .number(progress.items), "attempts": .number(progress.attempts),
            ]
        case .retry(let resource, let notice):
            [
                "resource": .string(resource), "attempt": .number(notice.attempt),
                "maxAttempts": .number(notice.maxAttempts),
                "delayMs": .number(Int((notice.delay.timeInterval * 1000).rounded())),
                "request": .string(notice.request), "cause": .string(notice.cause),
                "message": .string(notice.sentence),
            ]
        case .slow(let resource):
            ["resource": .string(resource), "message": .string(ResourceMachine.slowMessage)]
        case .finished(let result):
            result.json
        }
    }
}
