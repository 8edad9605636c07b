import Foundation

extension TLSSettings {
    /// `tls` (docs/configuration.md#tls): `base` with the `caFile`,
    /// `clientCertificate`, `clientKey`, `serverName` and `minimumVersion` that
    /// `fields` sets; each file must be readable.
    static func load(_ fields: ObjectFields, over base: TLSSettings, in context: ConfigContext) -> TLSSettings {
        let reader = context.reader
        var tls = base
        func file(_ name: String) -> String? {
            guard let value = fields.take(name), let text = reader.string(value, at: fields.path(name)) else {
                return nil
            }
            let path = text.hasPrefix("/") ? text : context.substitution.folder + "/" + text
            // Commands that only talk to the agent need not read the agent's files.
            guard !context.substitution.fillsReferences || FileManager.default.isReadableFile(atPath: path) else {
                reader.report(fields.path(name), "\(path) cannot be read")
                return nil
            }
            return path
        }
        if let path = file("caFile") { tls.caFile = path }
        if let path = file("clientCertificate") { tls.clientCertificate = path }
        if let path = file("clientKey") { tls.clientKey = path }
        if (tls.clientCertificate == nil) != (tls.clientKey == nil) {
            reader.report(fields.path("clientCertificate"), "and clientKey go together: set both or neither")
        }
        if let value = fields.take("serverName"), let name = reader.string(value, at: fields.path("serverName")) {
            let allowed = name.unicodeScalars.allSatisfy { $0.isASCIILetterOrDigit || $0 == "-" || $0 == "." }
            if allowed, !name.isEmpty, name.first != ".", name.last != "." {
                tls.serverName = name.lowercased()
            } else {
                reader.report(fields.path("serverName"), "must be a host name such as \"api.internal\"")
            }
        }
        if let value = fields.take("minimumVersion"),
            let text = reader.string(value, at: fields.path("minimumVersion"))
        {
            if ["1.2", "1.3"].contains(text) {
                tls.minimumVersion = text
            } else {
                reader.report(fields.path("minimumVersion"), "must be \"1.2\" or \"1.3\"")
            }
        }
        return tls
    }
}
