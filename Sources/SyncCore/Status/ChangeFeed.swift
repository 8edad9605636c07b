import Foundation
import Logging
import Store

/// The change feed as readers see it (docs/api.md#the-change-feed-get-v1changes): what
/// `GET /v1/changes` answers and `sync-agent changes --json` prints.
package enum ChangeFeed {
    /// The changes a request returns when it does not say.
    package static let defaultLimit = 1000
    /// The most changes one request returns.
    package static let maxLimit = 10_000

    /// A reader's request that cannot be answered.
    package struct Problem: Error, Sendable {
        package var message: String
    }

    /// `after` and `limit` as a request gives them (absent: from the start, ``defaultLimit``).
    ///
    /// - Throws: ``Problem``.
    package static func parse(after: String?, limit: String?) throws -> (after: Int64, limit: Int) {
        var seq: Int64 = 0
        if let after {
            guard let value = Int64(after), value >= 0 else {
                throw Problem(message: "after must be a seq: a whole number, 0 or more (got \"\(after)\")")
            }
            seq = value
        }
        var count = defaultLimit
        if let limit {
            guard let value = Int(limit), (1...maxLimit).contains(value) else {
                throw Problem(message: "limit must be between 1 and \(maxLimit) (got \"\(limit)\")")
            }
            count = value
        }
        return (seq, count)
    }

    /// One change: `{"seq", "resource", "key", "op", "syncRun", "at"}`.
    package static func json(_ change: ChangeRow) -> JSONValue {
        [
            "seq": .number(Int(change.seq)),
            "resource": .string(change.resource),
            "key": .string(change.key),
            "op": .string(change.op.rawValue),
            "syncRun": change.syncRun.map { .number(Int($0)) } ?? .null,
            "at": JSONValue(encoding: change.at),
        ]
    }

    /// A part of the feed: `{"changes": [...], "next": SEQ, "missed": BOOL}`.
    package static func json(_ page: ChangePage) -> JSONValue {
        [
            "changes": .array(page.changes.map(json)),
            "next": .number(Int(page.next)),
            "missed": .bool(page.missed),
        ]
    }
}

extension SyncStore {
    /// Prunes the change feed to `retention` (docs/configuration.md#the-change-feed),
    /// a batch per transaction so that syncs are never held up for long. A
    /// failure is left for the next time: the feed only grows meanwhile.
    package func pruneChanges(as retention: ChangeRetention, now: Date, logger: Logger) async {
        let before = now.addingTimeInterval(-retention.keep.seconds)
        let batch = 5000
        var pruned = 0
        while !Task.isCancelled {
            do {
                let count = try await pruneChanges(before: before, keepingAtMost: retention.maxRows, batch: batch)
                pruned += count
                if count < batch { break }
                await Task.yield()
            } catch {
                logger.debug("the change feed is not pruned this time: \(error.message)")
                break
            }
        }
        if pruned > 0 { logger.info("pruned \(pruned) changes from the change feed") }
    }
}
