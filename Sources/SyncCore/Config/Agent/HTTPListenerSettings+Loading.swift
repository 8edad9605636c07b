extension HTTPListenerSettings {
    /// `http`: `{"listen": "127.0.0.1:9464", "control": false, "token": "${credential:http-token}"}`
    /// (docs/configuration.md#the-http-listener).
    static func load(_ value: JSONValue?, at path: String, in context: ConfigContext) -> HTTPListenerSettings? {
        let reader = context.reader
        guard let value, let fields = reader.object(value, at: path) else { return nil }
        defer { fields.finish(reader) }
        var settings: HTTPListenerSettings?
        if let value = fields.take("listen") {
            switch reader.string(value, at: fields.path("listen")).map(HTTPListenerSettings.parse(listen:)) {
            case .success(let parsed): settings = parsed
            case .failure(let problem): reader.report(fields.path("listen"), problem.message)
            case nil: break
            }
        } else {
            reader.report(fields.path("listen"), "is required: an address and a port, such as \"127.0.0.1:9464\"")
        }
        let control = fields.take("control").flatMap { reader.boolean($0, at: fields.path("control")) } ?? false
        var token: String?
        if let value = fields.take("token"), let raw = reader.string(value, at: fields.path("token")) {
            if !(raw.hasPrefix("${") && raw.hasSuffix("}")) {
                reader.report(
                    fields.path("token"),
                    "must come from a credential, a file or the environment, such as "
                        + "\"${credential:http-token}\": a token written in the configuration is read by "
                        + "whoever reads the file")
            } else if let text = context.substitute(raw, at: fields.path("token")) {
                token = text
                if !text.isEmpty { context.substitution.keepSecret(text, as: "[token]") }
            }
        }
        switch (control, token) {
        case (true, nil):
            reader.report(
                fields.path("token"),
                "is required with \"control\": true: the bearer token of the requests that change something, "
                    + "such as \"${credential:http-token}\"")
        case (true, let token?) where token.count < HTTPListenerSettings.minimumTokenLength:
            reader.report(
                fields.path("token"),
                "must be at least \(HTTPListenerSettings.minimumTokenLength) characters (e.g. from "
                    + "`openssl rand -hex 32`)")
        case (false, _?):
            reader.report(
                fields.path("token"), "has no use without \"control\": true (the listener is read-only then)")
        default:
            break
        }
        settings?.control = control
        settings?.token = token
        return settings
    }
}
