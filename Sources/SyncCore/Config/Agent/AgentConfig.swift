import Foundation
import Store
import Streams

/// A loaded, validated configuration (docs/configuration.md#configuration):
/// every path absolute, every default applied, every `${…}` substituted.
package struct AgentConfig: Sendable {
    /// The configuration file's absolute path.
    package var file: String
    /// The database file's absolute path.
    package var database: String
    /// What the agent does with a database that is corrupt at start.
    package var corruptDatabase: CorruptDatabase
    /// Where the copy is kept: the SQLite file `database`, or a PostgreSQL schema.
    package var store = StoreChoice.sqlite
    /// How long a fleet's lease on a resource lasts without renewal (docs/fleet.md#leases).
    package var leaseTime = PostgresLeases.defaultLeaseTime
    /// The status socket's absolute path.
    package var socket: String
    /// The socket file's permission bits, such as `0o660`.
    package var socketMode: UInt32
    /// How the agent tells whether the machine is online.
    package var connectivity: Connectivity
    /// How long the change feed keeps its changes.
    package var changeRetention = ChangeRetention()
    /// How many syncs the agent's polls run at once.
    package var syncLimits = SyncLimits()
    /// The backoff of `defaults.retry`: how long `run` waits before it opens
    /// the database again after a storage condition.
    package var storageRetry = RetryPolicy()
    /// The TCP listener for monitoring, if any (docs/observability.md#the-http-listener).
    package var http: HTTPListenerSettings?
    /// How log lines are written.
    package var logFormat = LogFormat.text
    /// The resources, in the order of the file.
    package var resources: [ResourceConfig] {
        didSet { positions = Self.positions(of: resources) }
    }
    /// Scrubs the substituted values out of any text shown to people.
    package var redactor: Redactor
    /// What it was decoded from, to fill its secrets anew when their files change.
    package var source: ConfigSource
    /// Each resource's index in `resources`, by name: a sync looks its resource up by name.
    private var positions: [String: Int]

    package init(
        file: String, database: String, corruptDatabase: CorruptDatabase, socket: String, socketMode: UInt32,
        connectivity: Connectivity, changeRetention: ChangeRetention, syncLimits: SyncLimits,
        resources: [ResourceConfig], redactor: Redactor, source: ConfigSource
    ) {
        self.file = file
        self.database = database
        self.corruptDatabase = corruptDatabase
        self.socket = socket
        self.socketMode = socketMode
        self.connectivity = connectivity
        self.changeRetention = changeRetention
        self.syncLimits = syncLimits
        self.resources = resources
        self.redactor = redactor
        self.source = source
        positions = Self.positions(of: resources)
    }

    /// The resource called `name`.
    package func resource(named name: String) -> ResourceConfig? {
        positions[name].map { resources[$0] }
    }

    private static func positions(of resources: [ResourceConfig]) -> [String: Int] {
        Dictionary(resources.enumerated().map { ($1.name, $0) }) { first, _ in first }
    }
}

extension AgentConfig {
    /// What the agent does at start with a database that is corrupt
    /// (docs/configuration.md#a-corrupt-database).
    package enum CorruptDatabase: String, Sendable {
        /// Move it aside to `NAME.corrupt-TIMESTAMP` and sync everything again into a new one.
        case rebuild
        /// Stop with an error naming it.
        case refuse
    }
}

extension AgentConfig {
    /// What the connectivity probe connects to: `connectivity.probe`, else the
    /// first resource's proxy, else its host and port (443 for https, 80 for http).
    package var probeTarget: ProbeTarget {
        if let probe = connectivity.probe { return probe }
        guard let first = resources.first,
            let components = URLComponents(string: first.url.render()), let host = components.host
        else { return ProbeTarget(host: "localhost", port: 80) }
        if let proxy = first.settings.proxy.server(for: first.url.render()) {
            return ProbeTarget(host: proxy.host, port: proxy.port)
        }
        return ProbeTarget(host: host, port: components.port ?? (components.scheme == "https" ? 443 : 80))
    }
}
