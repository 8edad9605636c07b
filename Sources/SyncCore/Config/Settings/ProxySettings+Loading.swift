import Foundation

extension ProxySettings {
    /// `proxy` (docs/configuration.md#proxies): `base` with the proxy `value`
    /// names, `""` for none; `base` when it names none that can be used.
    static func load(
        _ value: JSONValue, at path: String, over base: ProxySettings, in context: ConfigContext
    ) -> ProxySettings {
        guard let text = context.reader.string(value, at: path), let filled = context.substitute(text, at: path) else {
            return base
        }
        // "" means no proxy, as `curl -x ""`; NO_PROXY applies to a configured proxy too, as in curl.
        do {
            let server = try filled.isEmpty ? nil : ProxyServer.load(filled, in: context)
            return ProxySettings(server: server, noProxy: base.noProxy)
        } catch {
            context.reader.report(path, error.message)
            return base
        }
    }

    /// The proxies the environment names, as curl reads them (docs/configuration.md#proxies):
    /// for http URLs `http_proxy` (or `HTTP_PROXY`), for https URLs `https_proxy` (or
    /// `HTTPS_PROXY`), else `all_proxy` (or `ALL_PROXY`); `no_proxy` (or `NO_PROXY`).
    static func fromEnvironment(in context: ConfigContext) -> ProxySettings {
        let environment = context.substitution.environment
        var settings = ProxySettings()
        var reported: Set<String> = []
        settings.noProxy = NoProxy(ProxySettings.variable(ProxySettings.noProxyVariables, in: environment)?.1 ?? "")
        for (names, secure) in [(ProxySettings.httpVariables, false), (ProxySettings.httpsVariables, true)] {
            guard let (name, value) = ProxySettings.variable(names + ProxySettings.allVariables, in: environment)
            else { continue }
            do {
                let server = try ProxyServer.load(value, in: context)
                if secure { settings.https = server } else { settings.http = server }
            } catch {
                // Commands that send no request need not understand the environment's proxies.
                if context.substitution.fillsReferences, reported.insert(name).inserted {
                    context.reader.report("$\(name)", error.message)
                }
            }
        }
        return settings
    }
}

extension ProxyServer {
    /// The proxy in `text`, its password kept secret (docs/configuration.md#proxies).
    static func load(_ text: String, in context: ConfigContext) throws(ProxyServer.Problem) -> ProxyServer {
        let server = try ProxyServer(parsing: text)
        if let password = server.password, !password.isEmpty {
            context.substitution.keepSecret(password, as: "[proxy password]")
            // As written: percent-encoded, perhaps otherwise than the redactor would.
            if let written = URLComponents(string: text.contains("://") ? text : "http://" + text)?
                .percentEncodedPassword
            {
                context.substitution.keepSecret(written, as: "[proxy password]")
            }
        }
        return server
    }
}
