import Foundation

extension OAuth2Settings {
    /// `auth` of type `oauth2` (docs/configuration.md#oauth2); `name` is its name
    /// among the top-level `auths`, which names its tokens.
    static func load(_ fields: ObjectFields, name: String?, in context: ConfigContext) -> OAuth2Settings? {
        let reader = context.reader
        let problemsBefore = reader.problems.count
        func text(_ key: String, secret: String? = nil) -> String? {
            guard let value = fields.take(key), let raw = reader.string(value, at: fields.path(key)),
                let text = context.substitute(raw, at: fields.path(key))
            else { return nil }
            guard !text.isEmpty else {
                reader.report(fields.path(key), "must not be empty")
                return nil
            }
            if let secret { context.substitution.keepSecret(text, as: secret) }
            return text
        }
        let tokenURL = text("tokenUrl")
        if let tokenURL {
            let components = URLComponents(string: tokenURL)
            if !["http", "https"].contains(components?.scheme?.lowercased() ?? "") || components?.host ?? "" == "" {
                reader.report(fields.path("tokenUrl"), "must be an absolute http:// or https:// URL with a host")
            }
        } else if !fields.has("tokenUrl") {
            reader.report(fields.path("tokenUrl"), "is required: the token endpoint's URL")
        }
        let clientID = text("clientId")
        if clientID == nil, !fields.has("clientId") { reader.report(fields.path("clientId"), "is required") }
        let clientSecret = text("clientSecret", secret: "[client secret]")
        let grant =
            reader.choice(fields, "grant", else: "must be \"client_credentials\" or \"refresh_token\"")
            ?? OAuth2Settings.Grant.clientCredentials
        let refreshToken = text("refreshToken", secret: "[refresh token]")
        switch grant {
        case .refreshToken where refreshToken == nil && !fields.has("refreshToken"):
            reader.report(
                fields.path("refreshToken"), "is required with \"grant\": \"refresh_token\": the first one")
        case .clientCredentials where clientSecret == nil && !fields.has("clientSecret"):
            reader.report(
                fields.path("clientSecret"), "is required with \"grant\": \"client_credentials\"")
        case .clientCredentials where fields.has("refreshToken"):
            reader.report(fields.path("refreshToken"), "goes with \"grant\": \"refresh_token\" only")
        default: break
        }
        var scopes: [String] = []
        if let value = fields.take("scopes") {
            switch value {
            case .string(let text): scopes = text.split(separator: " ").map(String.init)
            case .array(let elements):
                for (index, element) in elements.enumerated() {
                    if let scope = reader.string(element, at: "\(fields.path("scopes"))[\(index)]") {
                        scopes.append(scope)
                    }
                }
            default: reader.report(fields.path("scopes"), "must be an array of strings, or one string")
            }
            if scopes.contains(where: { $0.isEmpty || $0.contains(" ") }) {
                reader.report(fields.path("scopes"), "must not hold empty scopes or spaces inside one")
            }
        }
        let audience = text("audience")
        var extraParams: [OAuth2Settings.Parameter] = []
        if let value = fields.take("extraParams"),
            let object = reader.object(value, at: fields.path("extraParams"))
        {
            object.takeEach(reader) { member, path in
                guard let raw = reader.string(member.value, at: path), let value = context.substitute(raw, at: path)
                else { return }
                extraParams.append(OAuth2Settings.Parameter(name: member.name, value: value))
            }
        }
        let clientAuth =
            reader.choice(fields, "clientAuth", else: "must be \"basic\" or \"body\"")
            ?? OAuth2Settings.ClientAuth.basic
        guard reader.problems.count == problemsBefore, let tokenURL, let clientID else { return nil }
        var settings = OAuth2Settings(
            identity: name.map { "auths.\($0)" } ?? "oauth2:" + FNV1a.hex(tokenURL + " " + clientID),
            tokenURL: tokenURL,
            clientID: clientID, clientSecret: clientSecret, grant: grant,
            refreshToken: grant == .refreshToken ? refreshToken : nil)
        settings.scopes = scopes
        settings.audience = audience
        settings.extraParams = extraParams
        settings.clientAuth = clientAuth
        return settings
    }
}
