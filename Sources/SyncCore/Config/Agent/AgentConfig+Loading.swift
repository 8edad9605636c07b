import Foundation

extension AgentConfig {
    /// The configuration in `root`, the JSON of `file` (`bytes`), its relative
    /// paths starting from `folder` (docs/configuration.md#configuration); `nil`
    /// when a problem leaves none. The top-level keys are read here, each
    /// section by its own type's `load`.
    static func load(
        _ root: JSONValue, bytes: [UInt8], file: String, folder: String, in context: ConfigContext
    ) -> AgentConfig? {
        let reader = context.reader
        guard let fields = reader.object(root, at: "") else { return nil }
        let environment = context.substitution.environment
        let database = path(
            fields, "database", folder: folder,
            default: directory("STATE_DIRECTORY", environment) ?? folder, name: "sync-agent.db", reader: reader)
        let socket = path(
            fields, "socket", folder: folder,
            default: directory("RUNTIME_DIRECTORY", environment) ?? folder, name: "sync-agent.sock", reader: reader)
        if socket.utf8.count > ConfigLoader.maximumSocketPathLength {
            reader.report(
                fields.path("socket"),
                "\(socket) is \(socket.utf8.count) bytes long; a Unix socket path must be at most "
                    + "\(ConfigLoader.maximumSocketPathLength)")
        }
        let socketMode =
            fields.take("socketMode").flatMap { mode($0, at: fields.path("socketMode"), reader: reader) } ?? 0o660
        let corruptDatabase =
            reader.choice(fields, "corruptDatabase", else: "must be \"rebuild\" or \"refuse\"")
            ?? AgentConfig.CorruptDatabase.rebuild
        if let value = fields.take("auths"), let object = reader.object(value, at: fields.path("auths")) {
            Auth.loadNamed(object, in: context)
        }
        var defaults = SyncSettings()
        defaults.proxy = ProxySettings.fromEnvironment(in: context)
        if let value = fields.take("defaults"), let object = reader.object(value, at: fields.path("defaults")) {
            defaults = SyncSettings.load(object, over: defaults, in: context)
            object.finish(reader)
        }
        let (store, leaseTime) = StoreChoice.load(fields.take("store"), at: fields.path("store"), in: context)
        let connectivity = Connectivity.load(fields.take("connectivity"), at: fields.path("connectivity"), in: context)
        let retention = ChangeRetention.load(fields.take("changes"), at: fields.path("changes"), in: context)
        var limits = SyncLimits()
        if let value = fields.take("maxConcurrentSyncs") {
            limits.total =
                reader.integer(value, at: fields.path("maxConcurrentSyncs"), in: 1...10_000) ?? limits.total
        }
        if let value = fields.take("maxConcurrentSyncsPerHost") {
            limits.perHost =
                reader.integer(value, at: fields.path("maxConcurrentSyncsPerHost"), in: 1...10_000)
                ?? limits.perHost
        }
        let http = HTTPListenerSettings.load(fields.take("http"), at: fields.path("http"), in: context)
        let logFormat = reader.choice(fields, "logFormat", else: "must be \"text\" or \"json\"") ?? LogFormat.text
        let resourcesValue = fields.take("resources")
        let resources = ResourceConfig.loadAll(
            resourcesValue, at: fields.path("resources"), defaults: defaults, in: context)
        fields.finish(reader)
        ResourceConfig.checkDependencies(
            resources, declared: ResourceConfig.declaredNames(resourcesValue), in: context)
        ResourceConfig.checkBudgets(resources, in: context)
        ColumnNames.checkClashes(resources, in: context)
        var config = AgentConfig(
            file: file, database: database, corruptDatabase: corruptDatabase, socket: socket,
            socketMode: socketMode,
            connectivity: connectivity, changeRetention: retention, syncLimits: limits,
            resources: ResourceConfig.sharing(resources.map(\.1)),
            redactor: Redactor(secrets: context.substitution.secrets),
            source: ConfigSource(
                bytes: bytes, environment: environment, fillingReferences: context.substitution.fillsReferences,
                secretFiles: context.substitution.files))
        config.store = store
        config.leaseTime = leaseTime
        config.http = http
        config.logFormat = logFormat
        config.storageRetry = defaults.retry
        return config
    }

    /// `$STATE_DIRECTORY` and `$RUNTIME_DIRECTORY` may list several folders; the first is ours.
    private static func directory(_ variable: String, _ environment: [String: String]) -> String? {
        guard let value = environment[variable], let first = value.split(separator: ":").first else { return nil }
        return String(first)
    }

    /// The absolute path member `key` names, relative to `folder`; else `name` in `base`.
    private static func path(
        _ fields: ObjectFields, _ key: String, folder: String, default base: String, name: String,
        reader: ConfigReader
    ) -> String {
        guard let value = fields.take(key), let text = reader.string(value, at: fields.path(key)) else {
            return (base as NSString).appendingPathComponent(name)
        }
        guard !text.isEmpty else {
            reader.report(fields.path(key), "must not be empty")
            return text
        }
        let absolute = text.hasPrefix("/") ? text : (folder as NSString).appendingPathComponent(text)
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }

    /// `socketMode`: an octal mode that gives others nothing and the owner read and write.
    private static func mode(_ value: JSONValue, at path: String, reader: ConfigReader) -> UInt32? {
        guard let text = reader.string(value, at: path) else { return nil }
        guard (3...4).contains(text.count), let mode = UInt32(text, radix: 8), mode <= 0o777 else {
            reader.report(path, "must be an octal mode such as \"0660\" or \"0600\"")
            return nil
        }
        guard mode & 0o007 == 0 else {
            reader.report(
                path,
                "must not give others any access (the socket is never world-accessible); use \"0660\" or \"0600\"")
            return nil
        }
        guard mode & 0o600 == 0o600 else {
            reader.report(path, "must let the owner read and write (e.g. \"0660\" or \"0600\")")
            return nil
        }
        return mode
    }
}
