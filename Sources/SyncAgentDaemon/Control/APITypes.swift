import Foundation
import SyncCore

/// The answer of `GET /v1/status` (docs/api.md#get-v1status): the agent, and
/// every resource in configuration order. `sync-agent status --json` prints
/// the same object, with `agent` null when no agent runs.
package struct StatusAnswer: Sendable, Hashable, Codable {
    package var agent: AgentInfo?
    package var resources: [ResourceStatus]

    package init(agent: AgentInfo?, resources: [ResourceStatus]) {
        self.agent = agent
        self.resources = resources
    }
}

/// The running agent, as `GET /v1/status` shows it.
package struct AgentInfo: Sendable, Hashable, Codable {
    /// The agent's version.
    package var version: String
    /// Its process ID.
    package var pid: Int
    /// When it started.
    package var startedAt: Date
    /// Whether the machine is online.
    package var online: Bool

    package init(version: String, pid: Int, startedAt: Date, online: Bool) {
        self.version = version
        self.pid = pid
        self.startedAt = startedAt
        self.online = online
    }
}

/// The answer of `POST /v1/refresh`, and what `refresh --json` prints.
package struct ResultsAnswer: Sendable, Hashable, Codable {
    package var results: [SyncResult]

    package init(results: [SyncResult]) {
        self.results = results
    }
}

/// An error answer (docs/api.md#errors): `{"error": {"code", "message"}}`,
/// and `problems` for an invalid configuration.
package struct ErrorAnswer: Sendable, Hashable, Codable {
    package struct Body: Sendable, Hashable, Codable {
        /// A stable code, such as `unknown_resource`.
        package var code: String
        /// One sentence for people.
        package var message: String
        /// Every problem of a configuration that cannot be loaded, as `path: message`.
        package var problems: [String]?
    }

    package var error: Body

    package init(code: String, message: String, problems: [String]? = nil) {
        error = Body(code: code, message: message, problems: problems)
    }
}
