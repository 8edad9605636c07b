import Foundation
import GRDB

extension SQLiteStore {
    /// Implements ``SyncStore/rotatedRefreshToken(for:configured:)``.
    public func rotatedRefreshToken(for auth: String, configured: String) async throws(StoreError) -> String? {
        try await read { db in
            try String.fetchOne(
                db, sql: "SELECT refresh_token FROM oauth2_refresh_tokens WHERE auth = ? AND configured = ?",
                arguments: [auth, configured])
        }
    }

    /// Implements ``SyncStore/saveRotatedRefreshToken(_:for:configured:at:)``.
    public func saveRotatedRefreshToken(
        _ token: String, for auth: String, configured: String, at date: Date
    ) async throws(StoreError) {
        // A token the server has issued must be kept even if the sync that asked for it is cancelled.
        try await write(cancellable: false) { db in
            try db.execute(
                sql: """
                    INSERT INTO oauth2_refresh_tokens (auth, configured, refresh_token, rotated_at)
                    VALUES (?, ?, ?, ?)
                    ON CONFLICT (auth) DO UPDATE SET
                        configured = excluded.configured, refresh_token = excluded.refresh_token,
                        rotated_at = excluded.rotated_at
                    """,
                arguments: [auth, configured, token, Timestamp.string(from: date)])
        }
    }
}
