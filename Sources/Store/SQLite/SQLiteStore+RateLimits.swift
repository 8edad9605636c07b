import Foundation
import GRDB

extension SQLiteStore {
    /// Implements ``SyncStore/rateLimitHolds(of:at:)``.
    public func rateLimitHolds(of scope: String, at now: Date) async throws(StoreError) -> [RateLimitHold] {
        // In the caller: one row or two found by key, read before a scope's first request.
        try await readInCaller { db in
            try Row.fetchAll(
                db, sql: "SELECT scope, kind, held_until, told_at FROM rate_limit_holds WHERE scope = ?",
                arguments: [scope]
            ).compactMap(Self.hold).filter { $0.until > now }
        }
    }

    /// Implements ``SyncStore/keep(_:at:)``.
    public func keep(_ hold: RateLimitHold, at now: Date) async throws(StoreError) {
        // What an API said must be kept even if the sync that heard it is cancelled.
        try await write(cancellable: false) { db in
            // Times are compared as times, not as text.
            for row in try Row.fetchAll(db, sql: "SELECT scope, kind, held_until, told_at FROM rate_limit_holds") {
                let scope: String = row["scope"]
                let kind: String = row["kind"]
                let until = (row["held_until"] as String?).flatMap(Timestamp.date(from:))
                if scope == hold.scope, kind == hold.kind.rawValue {
                    // A hold told later than this one stays.
                    if let told = (row["told_at"] as String?).flatMap(Timestamp.date(from:)), told > hold.toldAt {
                        return
                    }
                } else if let until, until > now {
                    continue
                }
                // Ended, unreadable, or replaced below. (A kind of a newer agent goes only once ended.)
                try db.execute(
                    sql: "DELETE FROM rate_limit_holds WHERE scope = ? AND kind = ?", arguments: [scope, kind])
            }
            try db.execute(
                sql: "INSERT INTO rate_limit_holds (scope, kind, held_until, told_at) VALUES (?, ?, ?, ?)",
                arguments: [
                    hold.scope, hold.kind.rawValue, Timestamp.string(from: hold.until),
                    Timestamp.string(from: hold.toldAt),
                ])
        }
    }

    /// The hold a row of `rate_limit_holds` keeps; `nil` for a kind this version does
    /// not know (a newer agent's), which it leaves alone, or a time it cannot read.
    private static func hold(_ row: Row) -> RateLimitHold? {
        guard let kind = (row["kind"] as String?).flatMap(RateLimitHold.Kind.init(rawValue:)),
            let until = (row["held_until"] as String?).flatMap(Timestamp.date(from:)),
            let told = (row["told_at"] as String?).flatMap(Timestamp.date(from:))
        else { return nil }
        return RateLimitHold(scope: row["scope"], kind: kind, until: until, toldAt: told)
    }
}
