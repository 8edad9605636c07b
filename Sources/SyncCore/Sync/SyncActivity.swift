import Foundation

/// What a running sync reports as it goes: the `progress`, `retry` and `slow`
/// events a refresh streams to its caller while it waits
/// (docs/api.md#streamed-refresh), and how it ended.
package enum SyncActivity: Sendable, Hashable {
    /// What people are told of a slow sync (docs/api.md#resource).
    package static let slowMessage = "taking longer than expected"

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

    /// The event's name in the stream: `progress`, `retry`, `slow` or `result`.
    package var eventName: String {
        switch self {
        case .progress: "progress"
        case .retry: "retry"
        case .slow: "slow"
        case .finished: "result"
        }
    }

    /// The event's data, as the stream carries it.
    package var payload: any Encodable & Sendable {
        switch self {
        case .progress(let progress): progress
        case .retry(let resource, let notice): RetryReport(resource: resource, notice: notice)
        case .slow(let resource): SlowReport(resource: resource)
        case .finished(let result): result
        }
    }

    /// The event named `event` with this data; `nil` for an event of another name.
    package init?(event: String, data: Data, decoder: JSONDecoder) throws {
        switch event {
        case "progress": self = .progress(try decoder.decode(SyncProgress.self, from: data))
        case "retry":
            let report = try decoder.decode(RetryReport.self, from: data)
            self = .retry(resource: report.resource, report.notice)
        case "slow": self = .slow(resource: try decoder.decode(SlowReport.self, from: data).resource)
        case "result": self = .finished(try decoder.decode(SyncResult.self, from: data))
        default: return nil
        }
    }
}

/// The data of a `retry` event: the resource, the notice's fields, and its sentence.
package struct RetryReport: Sendable, Hashable, Codable {
    package var resource: String
    package var notice: RetryNotice

    private enum CodingKeys: String, CodingKey {
        case resource, attempt, maxAttempts, delayMs, request, cause, message, rateLimitedUntil
    }

    package init(resource: String, notice: RetryNotice) {
        self.resource = resource
        self.notice = notice
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        resource = try container.decode(String.self, forKey: .resource)
        notice = RetryNotice(
            request: try container.decode(String.self, forKey: .request),
            cause: try container.decode(String.self, forKey: .cause),
            attempt: try container.decode(Int.self, forKey: .attempt),
            maxAttempts: try container.decode(Int.self, forKey: .maxAttempts),
            delay: .milliseconds(try container.decode(Int.self, forKey: .delayMs)),
            rateLimitedUntil: try container.decodeIfPresent(Date.self, forKey: .rateLimitedUntil))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(resource, forKey: .resource)
        try container.encode(notice.attempt, forKey: .attempt)
        try container.encode(notice.maxAttempts, forKey: .maxAttempts)
        try container.encode(Int((notice.delay.seconds * 1000).rounded()), forKey: .delayMs)
        try container.encode(notice.request, forKey: .request)
        try container.encode(notice.cause, forKey: .cause)
        try container.encode(notice.sentence, forKey: .message)
        try container.encodeIfPresent(notice.rateLimitedUntil, forKey: .rateLimitedUntil)
    }
}

/// The data of a `slow` event: the resource and the message people see.
package struct SlowReport: Sendable, Hashable, Codable {
    package var resource: String
    package var message = SyncActivity.slowMessage

    package init(resource: String) {
        self.resource = resource
    }
}
