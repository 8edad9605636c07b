import Foundation
import GRDB

extension SyncStore {
    /// The refresh token the server last rotated to for the OAuth2 auth
    /// `auth`, if it was rotated from the one configured now: `configured`
    /// is a fingerprint of that one (a new one configured starts afresh).
    public func rotatedRefreshToken(for auth: String, configured: String) async throws(StoreError) -> String? {
        try await read { db in
            try String.fetchOne(
                db, sql: "SELECT refresh_token FROM oauth2_refresh_tokens WHERE auth = ? AND configured = ?",
                arguments: [auth, configured])
        }
    }

    /// Keeps `token`, the refresh token the server rotated to, for the OAuth2
    /// auth `auth` whose configured token has the fingerprint `configured`.
    public func saveRotatedRefreshToken(
        _ token: String, for auth: String, configured: String, at date: Date = Date()
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
