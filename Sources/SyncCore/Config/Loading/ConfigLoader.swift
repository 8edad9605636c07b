import Foundation
import Store
import Streams

/// Loads and validates a configuration file (docs/configuration.md#configuration).
///
/// Validation reports every problem at once, each as `path: message`; a
/// configuration with any problem is refused whole, before anything (a
/// database, a socket) is created.
package enum ConfigLoader {
    /// The largest configuration file read: thousands of resources fit in far less.
    package static let maximumSize = 4 * 1024 * 1024

    /// The configuration path used when neither `--config` nor `$SYNC_AGENT_CONFIG` is given.
    package static let defaultPath = "/etc/sync-agent/config.json"

    /// The configuration path to use: `explicit`, else `$SYNC_AGENT_CONFIG`, else ``defaultPath``.
    package static func path(explicit: String?, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = environment["SYNC_AGENT_CONFIG"], !fromEnvironment.isEmpty { return fromEnvironment }
        return defaultPath
    }

    /// Reads, parses and validates the file at `path`; with `fillingReferences`
    /// false, `${…}` references are left unfilled (see ``Substitution``).
    package static func load(
        path: String, environment: [String: String], fillingReferences: Bool = true
    ) throws(ConfigError) -> AgentConfig {
        let file = URL(fileURLWithPath: path).standardizedFileURL.path
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        guard size <= maximumSize else {
            throw ConfigError(
                file: file,
                problems: [
                    ConfigProblem(
                        file,
                        "is \(size) bytes; a configuration may be at most "
                            + "\(ByteSizeText.format(maximumSize))")
                ])
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            let reason = FileManager.default.fileExists(atPath: file) ? "it cannot be read" : "no such file"
            throw ConfigError(file: file, problems: [ConfigProblem(file, "cannot read the configuration: \(reason)")])
        }
        return try decode(Array(data), file: file, environment: environment, fillingReferences: fillingReferences)
    }

    /// Parses and validates configuration text read from `file`.
    package static func decode(
        _ bytes: [UInt8], file: String, environment: [String: String], fillingReferences: Bool = true
    ) throws(ConfigError)
        -> AgentConfig
    {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: bytes)
        } catch {
            let (line, column) = error.location(in: bytes)
            throw ConfigError(file: file, problems: [ConfigProblem("\(file):\(line):\(column)", error.reason)])
        }
        let folder = (file as NSString).deletingLastPathComponent
        let context = ConfigContext(
            substitution: Substitution(environment: environment, folder: folder, fillsReferences: fillingReferences))
        let config = AgentConfig.load(root, bytes: bytes, file: file, folder: folder, in: context)
        guard context.reader.problems.isEmpty, let config else {
            throw ConfigError(file: file, problems: redacted(context.reader.problems, context.substitution.secrets))
        }
        return config
    }

    /// The problems with every secret shown as its reference: a message may quote a
    /// value that a reference filled (`the schema "…" must be a plain lowercase name`),
    /// and that value is a secret (docs/configuration.md#substitution-and-secrets).
    private static func redacted(_ problems: [ConfigProblem], _ secrets: [Redactor.Secret]) -> [ConfigProblem] {
        guard !secrets.isEmpty else { return problems }
        // A problem shows control characters as escapes: a secret holding one is found so.
        let shown = secrets.map { Redactor.Secret(value: ConfigProblem.printable($0.value), reference: $0.reference) }
        let redactor = Redactor(secrets: secrets + shown)
        return problems.map { ConfigProblem(redactor.redact($0.path), redactor.redact($0.message)) }
    }

    /// Whether `name` is a valid resource name: `[a-z0-9_-]{1,64}`.
    package static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D
            }
    }

    // The keys of each section, which config.example.json must all show (ConfigLoaderTests).
    static let settingsKeys = [
        "interval", "pollJitter", "timeout", "slowAfter", "retry", "maxPages", "maxResponseSize", "errorWhen", "auth",
        "tls",
        "rateLimit", "proxy",
    ]
    static let oauth2Keys = [
        "tokenUrl", "clientId", "clientSecret", "grant", "refreshToken", "scopes", "audience", "extraParams",
        "clientAuth",
    ]
    static let retryKeys = ["maxAttempts", "initialDelay", "maxDelay", "multiplier", "jitter", "on", "never"]
    static let resourceKeys = [
        "name", "url", "method", "headers", "query", "body", "items", "key", "pagination", "mode", "since", "deleted",
        "fullResyncEvery",
    ]
    static let sinceKeys = [
        "field", "fromBody", "token", "link", "param", "bodyField", "format", "timeZone", "initial", "lookback",
        "expiredWhen",
    ]
    static let styles = ["none", "page", "offset", "cursor", "link", "nextUrl"]
    static let paginationKeys = [
        "param", "sizeParam", "size", "start", "limitParam", "limit", "next", "cursorFromLastItem",
    ]
    /// Keys every style but `none` takes.
    static let pageEndKeys = ["hasMore", "stopWhen", "in", "total", "cap"]

    /// The longest Unix socket path Linux accepts (`sun_path` holds 108 bytes with the NUL).
    static let maximumSocketPathLength = 107
}
