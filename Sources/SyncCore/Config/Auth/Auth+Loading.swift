extension Auth {
    /// The top-level `auths`: each entry an `auth` that resources name instead of repeating it
    /// (docs/configuration.md#authentication), kept in the context's `authsByName`.
    static func loadNamed(_ fields: ObjectFields, in context: ConfigContext) {
        let reader = context.reader
        fields.takeEach(
            reader, named: ConfigLoader.isValidName,
            else: "must be named with 1 to 64 characters of a-z, 0-9, \"_\" and \"-\""
        ) { member, path in
            guard let object = reader.object(member.value, at: path) else { return }
            if let auth = load(object, name: member.name, in: context) { context.authsByName[member.name] = auth }
            object.finish(reader)
        }
    }

    /// The entry of the top-level `auths` called `name`, which `auth` names at
    /// `path`; `nil` (and a problem) when there is none.
    static func named(_ name: String, at path: String, in context: ConfigContext) -> Auth? {
        if let auth = context.authsByName[name] { return auth }
        let known = context.authsByName.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        context.reader.report(
            path, "names no entry of the top-level auths" + (known.isEmpty ? "" : " (there are \(known))"))
        return nil
    }

    /// `auth` (docs/configuration.md#authentication): `{"type": "basic",
    /// "username", "password"}`, `{"type": "bearer", "token"}` or `{"type": "oauth2", …}`;
    /// `name` is its name among the top-level `auths`.
    static func load(_ fields: ObjectFields, name: String?, in context: ConfigContext) -> Auth? {
        let reader = context.reader
        func required(_ name: String) -> String? {
            guard let value = fields.take(name) else {
                reader.report(fields.path(name), "is required")
                return nil
            }
            return reader.string(value, at: fields.path(name))
        }
        guard let type = required("type") else { return nil }
        switch type {
        case "basic":
            guard let raw = required("username"), let username = context.substitute(raw, at: fields.path("username"))
            else { return nil }
            if username.contains(":") { reader.report(fields.path("username"), "must not contain \":\"") }
            var password = ""
            if let value = fields.take("password"), let raw = reader.string(value, at: fields.path("password")) {
                password = context.substitute(raw, at: fields.path("password")) ?? ""
                context.substitution.keepSecret(password, as: "[password]")
            }
            let header = Auth.basic(username: username, password: password).header ?? ""
            context.substitution.keepSecret(header, as: "Basic [credentials]")
            let auth = Auth.basic(username: username, password: password)
            return auth
        case "bearer":
            guard let raw = required("token"), let token = context.substitute(raw, at: fields.path("token")) else {
                return nil
            }
            guard !token.isEmpty else {
                reader.report(fields.path("token"), "must not be empty")
                return nil
            }
            context.substitution.keepSecret(token, as: "[token]")
            return .bearer(token: token)
        case "oauth2":
            return OAuth2Settings.load(fields, name: name, in: context).map { .oauth2($0) }
        default:
            reader.report(fields.path("type"), "must be \"basic\", \"bearer\" or \"oauth2\"")
            return nil
        }
    }
}
