import Store

/// Where the agent keeps its copy (docs/configuration.md#the-store).
package enum StoreChoice: Sendable, Hashable {
    /// The SQLite file at the configuration's `database`.
    case sqlite
    /// A schema of a PostgreSQL database, which a fleet of agents shares (docs/fleet.md).
    case postgres(PostgresLocation)
}
