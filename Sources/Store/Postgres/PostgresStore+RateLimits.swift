import Foundation
import PostgresNIO

extension PostgresStore {
    /// Implements ``SyncStore/rateLimitHolds(of:at:)``.
    public func rateLimitHolds(of scope: String, at now: Date) async throws(StoreError) -> [RateLimitHold] {
        let logger = logger
        let at = Timestamp.string(from: now)
        return try await read { connection in
            try await connection.rows(
                """
                SELECT kind, \(unescaped: iso("held_until")), \(unescaped: iso("told_at")) FROM rate_limit_holds
                WHERE scope = \(scope) AND held_until > \(at)::timestamptz
                """, logger
            ).compactMap { row in
                // A kind of a newer agent is left alone.
                guard let kind = try row.get("kind", as: String.self).flatMap(RateLimitHold.Kind.init(rawValue:)),
                    let until = try row.date("held_until"), let told = try row.date("told_at")
                else { return nil }
                return RateLimitHold(scope: scope, kind: kind, until: until, toldAt: told)
            }
        }
    }

    /// Implements ``SyncStore/keep(_:at:)``.
    public func keep(_ hold: RateLimitHold, at now: Date) async throws(StoreError) {
        let logger = logger
        let (until, told, at) = (
            Timestamp.string(from: hold.until), Timestamp.string(from: hold.toldAt), Timestamp.string(from: now)
        )
        // What an API said must be kept even if the sync that heard it is cancelled.
        try await transaction(cancellable: false) { connection in
            try await connection.query(
                "DELETE FROM rate_limit_holds WHERE held_until <= \(at)::timestamptz", logger: logger)
            // A hold told later than this one stays.
            try await connection.query(
                """
                INSERT INTO rate_limit_holds (scope, kind, held_until, told_at)
                VALUES (\(hold.scope), \(hold.kind.rawValue), \(until)::timestamptz, \(told)::timestamptz)
                ON CONFLICT (scope, kind) DO UPDATE SET held_until = excluded.held_until, told_at = excluded.told_at
                    WHERE rate_limit_holds.told_at <= excluded.told_at
                """, logger: logger)
        }
    }
}
