import Foundation
import SyncCore
import Synchronization

extension FuzzTarget {
    /// The configuration loader (`ConfigLoader.decode`) on any bytes as a configuration
    /// file, in a folder of known secrets (``ConfigSandbox``).
    ///
    /// Any input gives a configuration, or a list of problems, each `path: message` on
    /// one line (no control character) with neither part empty (docs/configuration.md#configuration); never a
    /// crash, and quickly (libFuzzer's timeout is 10 s). No problem, and nothing a loaded
    /// configuration shows (the URL as written, the store, the listener), holds a secret
    /// of the sandbox or eight bytes of one, as written or percent-encoded, unless the
    /// input holds those bytes itself. A value made from a secret (a URL, a header, a
    /// query parameter, a body, a host) is scrubbed whole by the configuration's redactor
    /// (docs/configuration.md#substitution-and-secrets).
    ///
    /// Inputs whose `${file:…}` reaches outside the sandbox are skipped: what the
    /// machine's files hold is no input of the fuzzer's, and some (`/dev/stdin`, a FIFO)
    /// never end.
    static let config = FuzzTarget(
        name: "config",
        property: "any bytes give a configuration or one-line \"path: message\" problems, quickly; "
            + "no problem or display form holds a secret of the environment or of a secret file"
    ) { input throws(PropertyViolation) in
        let sandbox = ConfigSandbox.shared
        let strings = ConfigSandbox.strings(in: input)
        guard sandbox.staysInside(strings) else { return }
        let leaks = SecretLeaks(sandbox: sandbox, input: input, strings: strings)
        let config: AgentConfig
        do throws(ConfigError) {
            config = try ConfigLoader.decode(input, file: sandbox.file, environment: sandbox.environment)
        } catch {
            try require(!error.problems.isEmpty, "an error without problems: \(shown(input))")
            for problem in error.problems {
                try checkForm(problem, input)
                try leaks.check(problem.description, "the problem \"\(problem)\"")
            }
            try leaks.check(error.description, "the error's text")
            return
        }
        try checkLoaded(config, leaks)
    }

    /// A problem is `path: message` on one line, with neither part empty and no control character.
    private static func checkForm(_ problem: ConfigProblem, _ input: [UInt8]) throws(PropertyViolation) {
        try require(
            !problem.path.isEmpty && !problem.message.isEmpty,
            "a problem with an empty path or message (\(problem)): \(shown(input))")
        try require(
            problem.description == problem.path + ": " + problem.message,
            "a problem not shown as path: message (\(problem)): \(shown(input))")
        try require(
            !problem.description.unicodeScalars.contains {
                $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029
            },
            "a problem with a control character, such as a line break (\(shown(Array(problem.description.utf8)))): "
                + shown(input))
    }

    /// What a loaded configuration shows holds no secret; what it sends, its redactor scrubs.
    private static func checkLoaded(_ config: AgentConfig, _ leaks: SecretLeaks) throws(PropertyViolation) {
        try leaks.check(config.storeDescription, "the store's description")
        try leaks.check(config.database, "the database path")
        try leaks.check(config.socket, "the socket path")
        if let http = config.http { try leaks.check(http.url, "the listener's URL") }
        for resource in config.resources {
            try leaks.check(resource.name, "a resource's name")
            try leaks.check(resource.url.display, "the URL of \(resource.name) as shown")
            var sent = [resource.url.render(), resource.host, resource.rateLimitScope]
            sent += resource.headers.map { "\($0.name): \($0.value)" }
            sent += resource.query.map { "\($0.name)=\($0.value)" }
            if let body = resource.body { sent.append(body.text) }
            if let header = resource.settings.auth?.header { sent.append(header) }
            for text in sent {
                try leaks.checkScrubbed(text, by: config.redactor, "what \(resource.name) sends")
            }
        }
        try leaks.checkScrubbed(config.probeTarget.description, by: config.redactor, "the probe target")
    }
}

/// Finds the secrets of a ``ConfigSandbox`` in text the loader gives back.
private struct SecretLeaks {
    let sandbox: ConfigSandbox
    let input: [UInt8]
    /// The input's strings and their percent-decoded forms: a secret found in them is the input's own.
    let written: [String]
    /// Every eight bytes of the input and of `written`: a fragment found in them is no leak.
    let writtenWindows: Set<UInt64>

    init(sandbox: ConfigSandbox, input: [UInt8], strings: [String]) {
        self.sandbox = sandbox
        self.input = input
        written = strings + strings.compactMap { $0.removingPercentEncoding }
        var windows = ConfigSandbox.windows(of: input)
        for text in written { windows.formUnion(ConfigSandbox.windows(of: Array(text.utf8))) }
        writtenWindows = windows
    }

    /// Fails if `text` holds eight bytes of a secret that the input does not hold.
    func check(_ text: String, _ what: @autoclosure () -> String) throws(PropertyViolation) {
        let windows = ConfigSandbox.windows(of: Array(text.utf8))
        guard !windows.isEmpty else { return }
        for fragment in sandbox.fragments
        where windows.contains(fragment.window) && !writtenWindows.contains(fragment.window) {
            throw PropertyViolation(
                "\(what()) holds \"\(fragment.text)\" of the secret \(fragment.secret) (\(shown(Array(text.utf8)))): "
                    + shown(input))
        }
    }

    /// Fails if `text` holds a secret, whole, that `redactor` leaves in it.
    func checkScrubbed(
        _ text: String, by redactor: Redactor, _ what: @autoclosure () -> String
    )
        throws(PropertyViolation)
    {
        let redacted = redactor.redact(text)
        for secret in sandbox.secrets {
            for form in secret.forms where redacted.contains(form) {
                guard !written.contains(where: { $0.contains(form) }) else { continue }
                throw PropertyViolation(
                    "\(what()) keeps the secret \(secret.name) once redacted (\(shown(Array(redacted.utf8)))): "
                        + shown(input))
            }
        }
    }
}

/// A folder of known secrets, made once per process, that a fuzzed configuration may
/// name: environment variables, systemd credentials (`$CREDENTIALS_DIRECTORY`) and
/// files, each with a value no message would hold by chance.
///
/// Thread-safety: an immutable `Sendable` value once made.
struct ConfigSandbox: Sendable {
    /// A secret: where it comes from, and the forms it may take in text.
    struct Secret: Sendable {
        var name: String
        /// As is, and percent-encoded the ways a URL or the agent encode it.
        var forms: [String]
        /// Whether no part of it may be shown; else (a URL whose secret is its
        /// password) it is only scrubbed whole from what is sent.
        var isSecretThroughout: Bool
    }

    /// Eight bytes of a form of a secret, as a number for quick lookups.
    struct Fragment: Sendable {
        var secret: String
        var text: String
        var window: UInt64
    }

    /// How many bytes of a secret make a recognisable part of it.
    static let fragmentLength = 8

    let folder: String
    /// The configuration file's path (it is never written: the loader decodes bytes).
    let file: String
    let environment: [String: String]
    let secrets: [Secret]
    let fragments: [Fragment]

    static let shared = ConfigSandbox()

    /// The environment's secrets, by variable.
    static let variables = [
        "API_TOKEN": "tok_7Qm2Vx9LpR4sZk8W",
        "CLIENT_SECRET": "cs-N3bH6yT1uJ5eF0aD",
        "DB_PASSWORD": "pw!Xk4#Rq8 z@Lm2/Yt%3A",
        "REFRESH_TOKEN": "rt.Fh8Kj2Mn5Bv1Cx7Z",
        "API_USER": "usr_Wd4Gs6Ha9Jl3Pq0E",
        "LISTENER_TOKEN": "lt_Zr5Yu8Io2Pa6Sd1F",
        "UNICODE_SECRET": "uni-Ŝëçrêt-ΣΚ9-ж7",
    ]

    /// URLs of the environment whose passwords are secrets: the rest of them may be shown.
    static let urlVariables = [
        "PROXY_URL": ("http://pxuser:Px9-Qw3Er7Ty@proxy.internal:3128", "Px9-Qw3Er7Ty"),
        "PG_URL": ("postgres://pg_Ua7Ys3Df5Gh@db.internal/sync?password=pgpw_Hj4Kl6Zx8Cv", "pgpw_Hj4Kl6Zx8Cv"),
        "https_proxy": ("http://envproxy:Ep4-Rt6Yu8Io@proxy.example:8080", "Ep4-Rt6Yu8Io"),
    ]

    /// The credentials (`${credential:NAME}`) and files (`${file:secrets/NAME}`), as written
    /// (the loader drops one trailing line break).
    static let files = [
        "credentials/api-token": "crd_Hp5Wq2Ns8Ry3Tv6M\n",
        "credentials/client-secret": "ccs_Lk7Jh3Gf9Ds2Aa4P\r\n",
        "credentials/db-password": "dbp:Qe1 Wr3/Ty5@Ui7&\n",
        "secrets/token": "file_Gk3Jd7Lb2Xc9Vn4Q\n",
        "secrets/password": "fpw%41-Mn6Bv8Cx0Z",
    ]

    /// Values that are no secrets: too short to be scrubbed, or no values at all.
    static let plainVariables = ["SHORT": "ab1", "EMPTY": "", "PAGE_SIZE": "50"]

    private init() {
        folder = TemporaryFolder.make("sync-agent-fuzz-config")
        file = folder + "/config.json"
        for (path, content) in Self.files {
            let url = URL(fileURLWithPath: folder + "/" + path)
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(content.utf8).write(to: url)
        }
        try? Data([0xFF, 0xFE, 0x00, 0x41]).write(to: URL(fileURLWithPath: folder + "/secrets/not-utf8"))
        try? Data().write(to: URL(fileURLWithPath: folder + "/secrets/empty"))
        var environment = Self.variables.merging(Self.plainVariables) { first, _ in first }
        for (name, (url, _)) in Self.urlVariables { environment[name] = url }
        environment["CREDENTIALS_DIRECTORY"] = folder + "/credentials"
        self.environment = environment
        var secrets: [Secret] = []
        func add(_ name: String, _ value: String, throughout: Bool = true) {
            secrets.append(Secret(name: name, forms: Self.forms(of: value), isSecretThroughout: throughout))
        }
        for (name, value) in Self.variables { add("$" + name, value) }
        for (name, (url, password)) in Self.urlVariables {
            add("$" + name, url, throughout: false)
            add("the password of $" + name, password)
        }
        for (path, content) in Self.files {
            var value = content
            if value.hasSuffix("\r\n") || value.hasSuffix("\n") { value.removeLast() }
            add(path, value)
        }
        self.secrets = secrets.sorted { $0.name < $1.name }
        var fragments: [Fragment] = []
        for secret in self.secrets where secret.isSecretThroughout {
            for form in secret.forms {
                let bytes = Array(form.utf8)
                guard bytes.count >= Self.fragmentLength else { continue }
                for start in 0...(bytes.count - Self.fragmentLength) {
                    let text = String(decoding: bytes[start..<start + Self.fragmentLength], as: UTF8.self)
                    fragments.append(Fragment(secret: secret.name, text: text, window: Self.window(bytes, at: start)))
                }
            }
        }
        self.fragments = fragments
    }

    /// A value as is and in the percent-encodings text may show it in.
    private static func forms(of value: String) -> [String] {
        let sets: [CharacterSet] = [
            .urlQueryAllowed, .urlPathAllowed, .urlUserAllowed, .urlPasswordAllowed, .urlHostAllowed,
            .alphanumerics,
        ]
        var forms = [value, PercentEncoding.encode(value)]
        for set in sets {
            if let form = value.addingPercentEncoding(withAllowedCharacters: set), !forms.contains(form) {
                forms.append(form)
            }
        }
        return forms
    }

    /// Every eight bytes of `bytes`, each as one number.
    static func windows(of bytes: [UInt8]) -> Set<UInt64> {
        guard bytes.count >= fragmentLength else { return [] }
        var windows = Set<UInt64>(minimumCapacity: bytes.count)
        var value: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            value = value << 8 | UInt64(byte)
            if index >= fragmentLength - 1 { windows.insert(value) }
        }
        return windows
    }

    /// Eight bytes of `bytes` from `start`, as one number.
    static func window(_ bytes: [UInt8], at start: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in start..<start + fragmentLength { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    /// Every string of the input when it is JSON, member names included; none otherwise.
    static func strings(in input: [UInt8]) -> [String] {
        guard let root = try? JSONValue(parsing: input) else { return [] }
        var strings: [String] = []
        func walk(_ value: JSONValue) {
            switch value {
            case .string(let text): strings.append(text)
            case .array(let elements): elements.forEach(walk)
            case .object(let members):
                for member in members {
                    strings.append(member.name)
                    walk(member.value)
                }
            case .null, .bool, .number: break
            }
        }
        walk(root)
        return strings
    }

    /// Whether every `${file:PATH}` the strings may name (as written or percent-decoded,
    /// as a URL's `user:password@` is read) is a file of the sandbox.
    func staysInside(_ strings: [String]) -> Bool {
        for text in strings + strings.compactMap({ $0.removingPercentEncoding }) {
            var rest = Substring(text)
            while let start = rest.range(of: "${") {
                rest = rest[start.upperBound...]
                let reference = rest.prefix { $0 != "}" }
                guard reference.hasPrefix("file:") else { continue }
                let path = String(reference.dropFirst("file:".count))
                let absolute = path.hasPrefix("/") ? path : folder + "/" + path
                let parts = absolute.split(separator: "/")
                guard absolute.hasPrefix(folder + "/"), !parts.contains(".."), !parts.contains(".") else {
                    return false
                }
            }
        }
        return true
    }
}

/// The temporary folders of the targets, removed when the process exits.
enum TemporaryFolder {
    private static let made = Mutex<[String]>([])

    /// A new folder in `/tmp` (short enough for a Unix socket's path), named `PREFIX-XXXXXX`.
    static func make(_ prefix: String) -> String {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            fatalError("cannot create a folder in /tmp: errno \(errno)")
        }
        let folder = String(cString: made)
        let first = Self.made.withLock { folders in
            folders.append(folder)
            return folders.count == 1
        }
        if first { atexit(removeAll) }
        return folder
    }

    private static let removeAll: @convention(c) () -> Void = {
        for folder in TemporaryFolder.made.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: folder) }
    }
}
