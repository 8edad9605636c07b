extension Connectivity {
    /// `connectivity` (docs/configuration.md#connectivity): the `probe` and the
    /// `maxProbeInterval`, else the defaults.
    static func load(_ value: JSONValue?, at path: String, in context: ConfigContext) -> Connectivity {
        let reader = context.reader
        var connectivity = Connectivity(probe: nil, maxProbeInterval: .seconds(30))
        guard let value, let fields = reader.object(value, at: path) else { return connectivity }
        if let value = fields.take("probe"), let text = reader.string(value, at: fields.path("probe")) {
            connectivity.probe = ProbeTarget.parse(text)
            if connectivity.probe == nil {
                reader.report(
                    fields.path("probe"), "must look like \"tcp://host:port\", e.g. \"tcp://api.example.com:443\"")
            }
        }
        if let value = fields.take("maxProbeInterval"),
            let interval = reader.duration(value, at: fields.path("maxProbeInterval"), atLeast: .seconds(1))
        {
            connectivity.maxProbeInterval = interval
        }
        fields.finish(reader)
        return connectivity
    }
}

extension ProbeTarget {
    /// The target `tcp://host:port` names (`tcp://[::1]:443` for an IPv6 address).
    static func parse(_ text: String) -> ProbeTarget? {
        guard text.hasPrefix("tcp://") else { return nil }
        let rest = text.dropFirst("tcp://".count)
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
            (1...65535).contains(port)
        else { return nil }
        var host = String(rest[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains("/") else { return nil }
        return ProbeTarget(host: host, port: port)
    }
}
