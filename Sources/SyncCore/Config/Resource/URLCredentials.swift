import Foundation

/// The `user:password@` written in a resource's `url`
/// (docs/configuration.md#credentials-in-the-url): HTTP Basic, as curl sends
/// it. It is taken out of the URL when the configuration is loaded, so that
/// neither the request line nor `Host` carries it, and becomes the resource's
/// `Authorization: Basic` header, the user and password percent-decoded, unless
/// `auth` or a header of the resource's own says otherwise (as in curl).
enum URLCredentials {
    /// `text` (a URL as written) without its userinfo, and the userinfo as
    /// written; `nil` when it has none.
    static func split(_ text: String) -> (url: String, userinfo: Substring)? {
        guard let separator = text.range(of: "://") else { return nil }
        let rest = text[separator.upperBound...]
        // The authority ends at the first "/", "?" or "#" outside a `${…}` reference
        // (`${file:/run/secrets/password}` holds a "/").
        var end = rest.endIndex
        var inReference = false
        var index = rest.startIndex
        while index < rest.endIndex {
            let character = rest[index]
            if inReference {
                if character == "}" { inReference = false }
            } else if character == "$", rest[index...].dropFirst().first == "{" {
                inReference = true
            } else if "/?#".contains(character) {
                end = index
                break
            }
            index = rest.index(after: index)
        }
        let authority = rest[..<end]
        guard let at = authority.lastIndex(of: "@") else { return nil }
        return (String(text[..<separator.upperBound] + text[authority.index(after: at)...]), authority[..<at])
    }

    /// The Basic credentials of `userinfo` (as written, at `path`): each part
    /// percent-decoded, then its `${…}` references filled; the password, as
    /// written and decoded, and the header made from it, kept secret.
    static func load(_ userinfo: Substring, at path: String, in context: ConfigContext) -> Auth? {
        let colon = userinfo.firstIndex(of: ":")
        let writtenUser = userinfo[..<(colon ?? userinfo.endIndex)]
        let writtenPassword = colon.map { userinfo[userinfo.index(after: $0)...] } ?? ""
        guard let username = context.substitute(decoded(writtenUser), at: path),
            let password = context.substitute(decoded(writtenPassword), at: path)
        else { return nil }
        guard !username.contains(":") else {
            context.reader.report(path, "the user of user:password@ must not contain \":\" (written %3A)")
            return nil
        }
        if !password.isEmpty, !writtenPassword.contains("${") {
            context.substitution.keepSecret(password, as: "[password]")
            // As written too: percent-encoded, perhaps otherwise than the redactor would.
            context.substitution.keepSecret(String(writtenPassword), as: "[password]")
        }
        let auth = Auth.basic(username: username, password: password)
        context.substitution.keepSecret(auth.header ?? "", as: "Basic [credentials]")
        return auth
    }

    /// The URL as written, to show: its userinfo with the password as
    /// `[password]`, unless it is only a `${…}` reference.
    static func display(url: String, userinfo: Substring) -> String {
        guard let colon = userinfo.firstIndex(of: ":") else { return url }
        let password = userinfo[userinfo.index(after: colon)...]
        let isReference =
            password.hasPrefix("${") && password.hasSuffix("}") && password.components(separatedBy: "${").count == 2
        let shown = userinfo[...colon] + (isReference ? password : "[password]")
        guard let separator = url.range(of: "://") else { return url }
        return String(url[..<separator.upperBound] + shown + "@" + url[separator.upperBound...])
    }

    private static func decoded(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }
}
