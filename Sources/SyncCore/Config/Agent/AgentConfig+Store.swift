import Logging
import Store

extension AgentConfig {
    /// Where the copy is, for messages: the database file's path, or the
    /// PostgreSQL store's URL without its password, and with any part that a
    /// `${…}` filled shown as its reference (docs/configuration.md#substitution-and-secrets).
    package var storeDescription: String {
        switch store {
        case .sqlite: database
        case .postgres(let location): redactor.redact(location.description)
        }
    }

    /// Opens the store the configuration names (docs/configuration.md#the-store).
    ///
    /// With `.readOnly`, nothing is created or migrated: a copy that does not
    /// exist yet throws ``StoreError/Kind/missing``.
    package func openStore(
        mode: SQLiteStore.OpenMode = .create, logger: Logger = Logger(label: "sync-agent")
    ) async throws(StoreError) -> any SyncStore {
        switch store {
        case .sqlite:
            return try SQLiteStore(path: database, mode: mode)
        case .postgres(let location):
            return try await PostgresStore(location, migrating: mode != .readOnly, logger: logger)
        }
    }
}
