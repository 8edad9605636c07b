extension AgentConfig {
    /// What a reload to `new` would change that only a restart can
    /// (docs/systemd.md#reloading): the database, the socket, the HTTP listener, connectivity.
    package func restartOnlyChanges(to new: AgentConfig) -> [ConfigProblem] {
        var problems: [ConfigProblem] = []
        func check(_ key: String, _ changed: Bool) {
            if changed { problems.append(ConfigProblem(key, "changed; this takes a restart, not a reload")) }
        }
        check("database", database != new.database)
        check("store", store != new.store)
        check("store.leaseTime", leaseTime != new.leaseTime)
        check("socket", socket != new.socket)
        check("socketMode", socketMode != new.socketMode)
        // A new token takes effect at once: it is read for each request.
        check("http.listen", http?.listen != new.http?.listen)
        check("http.control", (http?.control ?? false) != (new.http?.control ?? false))
        check("connectivity", connectivity != new.connectivity)
        return problems
    }
}
