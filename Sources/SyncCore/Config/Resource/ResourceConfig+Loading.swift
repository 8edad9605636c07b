import Foundation
import Store

extension ResourceConfig {
    /// `resources` (docs/configuration.md#a-resource): each resource with its
    /// path (`resources[2]`), its settings over `defaults`; those with problems
    /// are left out. A name used twice is a problem of the second.
    static func loadAll(
        _ value: JSONValue?, at path: String, defaults: SyncSettings, in context: ConfigContext
    ) -> [(String, ResourceConfig)] {
        let reader = context.reader
        guard let value else {
            reader.report(path, "is required: list the resources to sync")
            return []
        }
        guard case .array(let elements) = value else {
            reader.report(path, "must be an array of resources, not \(value.kindDescription)")
            return []
        }
        guard !elements.isEmpty else {
            reader.report(path, "must list at least one resource")
            return []
        }
        var resources: [(String, ResourceConfig)] = []
        var firstPathByName: [String: String] = [:]
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            let resource = load(element, at: elementPath, defaults: defaults, in: context)
            // Names are compared even when a resource has other problems, so all are reported at once.
            if case .string(let name) = element["name"], ConfigLoader.isValidName(name) {
                if let first = firstPathByName[name] {
                    reader.report("\(elementPath).name", "\"\(name)\" is already the name of \(first)")
                    continue
                }
                firstPathByName[name] = elementPath
            }
            if let resource { resources.append((elementPath, resource)) }
        }
        return resources
    }

    /// The resource in `value`, its settings over `defaults`; `nil` when it has a problem.
    static func load(
        _ value: JSONValue, at path: String, defaults: SyncSettings, in context: ConfigContext
    ) -> ResourceConfig? {
        let reader = context.reader
        guard let fields = reader.object(value, at: path) else { return nil }
        let problemsBefore = reader.problems.count
        var name: String?
        if let value = fields.take("name") {
            if let text = reader.string(value, at: fields.path("name")) {
                if ConfigLoader.isValidName(text) {
                    name = text
                } else {
                    reader.report(
                        fields.path("name"),
                        "must be 1 to 64 characters of a-z, 0-9, \"_\" and \"-\", e.g. \"users\"")
                }
            }
        } else {
            reader.report(fields.path("name"), "is required")
        }
        // `user:password@` in the URL is Basic auth, taken out of the URL (URLCredentials).
        var urlValue = fields.take("url")
        var urlCredentials: Auth?
        var written: (url: String, userinfo: Substring)?
        if case .string(let text)? = urlValue, let split = URLCredentials.split(text) {
            urlValue = .string(split.url)
            written = split
            urlCredentials = URLCredentials.load(split.userinfo, at: fields.path("url"), in: context)
        }
        var url = URLTemplate.load(urlValue, at: fields.path("url"), in: context)
        if let written, let shown = url?.display {
            url?.display = URLCredentials.display(url: shown, userinfo: written.userinfo)
        } else if let filled = url?.render(), URLComponents(string: filled)?.user != nil {
            reader.report(
                fields.path("url"),
                "has a user:password@ that a ${…} reference fills, which is not sent: write user:password@ in url "
                    + "itself (each part may be a reference) or use auth")
        }
        var method = HTTPMethod.get
        if let value = fields.take("method"), let text = reader.string(value, at: fields.path("method")) {
            if let parsed = HTTPMethod(rawValue: text.uppercased()) {
                method = parsed
            } else {
                reader.report(fields.path("method"), "must be GET or POST")
            }
        }
        var headers = requestHeaders(fields, in: context)
        let query = queryParameters(fields, in: context)
        let body = RequestBody.load(fields.take("body"), at: fields.path("body"), method: method, in: context)
        let items = fields.take("items").flatMap { reader.pointer($0, at: fields.path("items")) } ?? .root
        var key: JSONPointer?
        if let value = fields.take("key") {
            key = reader.pointer(value, at: fields.path("key"))
        } else {
            reader.report(fields.path("key"), "is required: a JSON pointer to each item's key, e.g. \"/id\"")
        }
        let pagination = Pagination.load(fields.take("pagination"), at: fields.path("pagination"), in: context)
        if pagination?.placement == .body {
            var bodyIsObject = false
            if case .object = fields.members.last(where: { $0.name == "body" })?.value { bodyIsObject = true }
            if method != .post {
                reader.report("\(fields.path("pagination")).in", "\"body\" needs \"method\": \"POST\"")
            } else if body != nil, !bodyIsObject {
                reader.report(
                    fields.path("body"), "must be a JSON object when the pagination is sent in the body")
            }
        }
        let placeholders = placeholderUse(url: url, in: fields, reader)
        let incremental = IncrementalSettings.load(
            fields, method: method, placeholders: placeholders, in: context)
        var windowed = false
        switch (incremental ?? nil)?.source {
        case .field?: windowed = true
        case .link? where pagination.map({ !["none", "link", "nextUrl"].contains($0.styleName) }) ?? false:
            // Pages after a kept link must be its own: the style would build them from `url`.
            reader.report(
                "\(fields.path("since")).link",
                "needs pagination by \"nextUrl\" or \"link\" (or none): the pages after the kept URL are the "
                    + "ones it leads to")
        default: break
        }
        if pagination?.cap != nil, !windowed {
            reader.report(
                "\(fields.path("pagination")).cap",
                "needs \"mode\": \"incremental\" and since.field, with the request sorted by that field: "
                    + "the walk asks again from the largest value seen")
        }
        let deleted = fields.take("deleted").flatMap { DeletedRule.load($0, at: fields.path("deleted"), in: context) }
        let table = fields.take("columns").flatMap {
            TypedTable.load($0, at: fields.path("columns"), resource: name, in: context)
        }
        let settings = SyncSettings.load(fields, over: defaults, in: context)
        if let auth = settings.auth {
            if headers.contains(where: { $0.name.lowercased() == "authorization" }) {
                reader.report(
                    fields.path("headers"), "sets Authorization, and so does auth (here or in defaults): keep one")
            } else if let header = auth.header {
                headers.append(("Authorization", header))
            }
        }
        // As in curl, `auth` (like `-u`) and an Authorization header of the resource's own come first.
        if let header = urlCredentials?.header, settings.auth == nil,
            !headers.contains(where: { $0.name.lowercased() == "authorization" })
        {
            headers.append(("Authorization", header))
        }
        fields.finish(reader)
        guard reader.problems.count == problemsBefore, let name, let url, let key, let pagination else {
            return nil
        }
        var resource = ResourceConfig(
            name: name, url: url, method: method, headers: headers, query: query, body: body, items: items,
            key: key, pagination: pagination, settings: settings, incremental: incremental ?? nil, deleted: deleted)
        resource.table = table
        return resource
    }

    /// Where the request holds `{since}` placeholders (docs/configuration.md#placeholders),
    /// read from the values as the configuration wrote them, so that no secret
    /// a `${…}` reference fills is read as one. Only an incremental resource's
    /// values are templates; a snapshot resource sends its values as written,
    /// and a `{since}` in them is a problem.
    private static func placeholderUse(
        url: URLTemplate?, in fields: ObjectFields, _ reader: ConfigReader
    ) -> PlaceholderUse {
        var use = PlaceholderUse()
        if let url, url.hasSince {
            use.paths.append(fields.path("url"))
            if !url.formats.isEmpty { use.formatPaths.append(fields.path("url")) }
        }
        func written(_ key: String) -> JSONValue? {
            fields.members.last(where: { $0.name == key })?.value
        }
        let incremental = written("mode") == .string("incremental")
        func check(_ text: String, at path: String) -> Bool {
            guard incremental else {
                if text.contains("{since}") || text.contains("{since:") { use.paths.append(path) }
                return false
            }
            do {
                let template = try TextTemplate.parse(text)
                if template.hasSince { use.paths.append(path) }
                if !template.formats.isEmpty { use.formatPaths.append(path) }
            } catch {
                reader.report(path, error.message)
            }
            return TextTemplate.isTemplate(text)
        }
        for key in ["query", "headers"] {
            guard case .object(let members)? = written(key) else { continue }
            for member in members {
                guard case .string(let text) = member.value,
                    check(text, at: ObjectFields.path(fields.path(key), member.name))
                else { continue }
                if key == "query" {
                    use.templated.query.insert(member.name)
                } else {
                    use.templated.headers.insert(member.name)
                }
            }
        }
        // Body strings are kept by their path from "body", which is how the fetch walks them.
        written("body")?.forEachString(at: "body") { text, path in
            if check(text, at: fields.path("body") + path.dropFirst("body".count)) { use.templated.body.insert(path) }
        }
        return use
    }

    /// `headers`: each name a token, each value free of line breaks; a
    /// credential written in the file is kept secret.
    private static func requestHeaders(
        _ fields: ObjectFields, in context: ConfigContext
    ) -> [(name: String, value: String)] {
        let reader = context.reader
        guard let value = fields.take("headers"), let object = reader.object(value, at: fields.path("headers"))
        else {
            return []
        }
        var headers: [(name: String, value: String)] = []
        object.takeEach(reader, named: isToken, else: "is not a valid header name") { member, path in
            guard let raw = reader.string(member.value, at: path), let text = context.substitute(raw, at: path) else {
                return
            }
            guard !text.contains("\r"), !text.contains("\n") else {
                reader.report(path, "must not contain line breaks")
                return
            }
            if CredentialNames.isCredential(header: member.name), !raw.contains("${") {
                // A credential written in the file is never shown either; nor is the
                // token of an `Authorization: Bearer TOKEN` without its scheme.
                if CredentialNames.hasScheme(header: member.name), let space = text.firstIndex(of: " ") {
                    context.substitution.keepSecret(String(text[text.index(after: space)...]), as: "[\(member.name)]")
                    context.substitution.keepSecret(text, as: "\(text[..<space]) [\(member.name)]")
                } else {
                    context.substitution.keepSecret(text, as: "[\(member.name)]")
                }
            }
            headers.append((member.name, text))
        }
        return headers
    }

    /// `query`: strings, numbers and booleans; a credential written in the file is kept secret.
    private static func queryParameters(
        _ fields: ObjectFields, in context: ConfigContext
    ) -> [(name: String, value: String)] {
        let reader = context.reader
        guard let value = fields.take("query"), let object = reader.object(value, at: fields.path("query")) else {
            return []
        }
        var query: [(name: String, value: String)] = []
        object.takeEach(reader) { member, path in
            let raw: String
            switch member.value {
            case .string(let text): raw = text
            case .number(let text): raw = text
            case .bool(let flag): raw = flag ? "true" : "false"
            default:
                reader.report(path, "must be a string, a number or a boolean, not \(member.value.kindDescription)")
                return
            }
            guard let text = context.substitute(raw, at: path) else { return }
            if CredentialNames.isCredential(query: member.name), !raw.contains("${") {
                context.substitution.keepSecret(text, as: "[\(member.name)]")
            }
            query.append((member.name, text))
        }
        return query
    }

    /// Whether `name` is an HTTP token (RFC 9110), as a header name must be.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy {
                ($0.isASCIILetterOrDigit || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0))
            }
    }
}
