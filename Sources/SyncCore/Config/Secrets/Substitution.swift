import Foundation

/// Fills `${…}` references in configuration values
/// (docs/configuration.md#substitution-and-secrets):
///
/// - `${NAME}`: the environment variable `NAME`;
/// - `${credential:NAME}`: the file `$CREDENTIALS_DIRECTORY/NAME` (systemd's `LoadCredential=`);
/// - `${file:PATH}`: the file at `PATH` (relative to the configuration's folder).
///
/// Files lose one trailing line break. `$${` stands for a literal `${`. Every
/// value filled in counts as a secret: it is remembered so that ``Redactor``
/// can scrub it from anything shown to people. Every file read is stamped
/// (``SecretFiles``), so that a change to one can be noticed without reading it.
struct Substitution {
    /// The process environment (or a test's).
    var environment: [String: String]
    /// The folder relative `${file:…}` paths start from.
    var folder: String
    /// Whether references are filled. Commands that only talk to the agent
    /// or read the database need no secrets: for them every reference
    /// becomes ``unfilled``, so a missing credential is no error.
    var fillsReferences: Bool
    /// The values filled in so far, with the reference that produced each.
    private(set) var secrets: [Redactor.Secret] = []
    /// The files read so far, each stamped before its read.
    private(set) var files = SecretFiles()

    /// Keeps `value` secret too, shown as `reference`: a value made from
    /// secrets (an `Authorization` header), or one written in the file.
    /// Two values kept under one name get references of their own (`[token]`,
    /// `[token 2]`), so that a sealed request puts back the right one.
    mutating func keepSecret(_ value: String, as reference: String) {
        // A value kept already keeps the reference it has.
        guard !secrets.contains(where: { $0.value == value }) else { return }
        var numbered = reference
        var number = 1
        while let kept = secrets.first(where: { $0.reference == numbered }), kept.value != value {
            number += 1
            numbered = reference.hasSuffix("]") ? "\(reference.dropLast()) \(number)]" : "\(reference) \(number)"
        }
        secrets.append(Redactor.Secret(value: value, reference: numbered))
    }

    /// What a reference becomes when references are not filled: a word
    /// that fits a URL's host, path or query as well as a header.
    static let unfilled = "unfilled"

    init(environment: [String: String], folder: String, fillsReferences: Bool = true) {
        self.environment = environment
        self.folder = folder
        self.fillsReferences = fillsReferences
    }

    /// A reference that cannot be filled.
    struct Problem: Error {
        var message: String
    }

    /// The text with every reference filled in.
    mutating func apply(_ text: String) throws(Problem) -> String {
        guard text.contains("$") else { return text }
        var output = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            output += rest[..<dollar]
            let afterDollar = rest[rest.index(after: dollar)...]
            if afterDollar.hasPrefix("${") {
                output += "${"
                rest = afterDollar.dropFirst(2)
            } else if afterDollar.hasPrefix("{") {
                guard let close = afterDollar.firstIndex(of: "}") else {
                    throw Problem(
                        message: "unterminated \"${\": close it with \"}\" (write \"$${\" for a literal \"${\")")
                }
                let reference = String(afterDollar[afterDollar.index(after: afterDollar.startIndex)..<close])
                let value = fillsReferences ? try resolve(reference) : Self.unfilled
                if fillsReferences, !value.isEmpty {
                    secrets.append(Redactor.Secret(value: value, reference: "${\(reference)}"))
                }
                output += value
                rest = afterDollar[afterDollar.index(after: close)...]
            } else {
                output += "$"
                rest = afterDollar
            }
        }
        return output + rest
    }

    private mutating func resolve(_ reference: String) throws(Problem) -> String {
        if reference.hasPrefix("credential:") {
            let name = String(reference.dropFirst("credential:".count))
            guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
                throw Problem(message: "\"${\(reference)}\" needs a credential name without \"/\"")
            }
            guard let directory = environment["CREDENTIALS_DIRECTORY"], !directory.isEmpty else {
                throw Problem(
                    message: "credential \"\(name)\" not found: $CREDENTIALS_DIRECTORY is not set "
                        + "(systemd sets it for units with LoadCredential=)")
            }
            return try read((directory as NSString).appendingPathComponent(name), what: "credential \"\(name)\"")
        }
        if reference.hasPrefix("file:") {
            let path = String(reference.dropFirst("file:".count))
            guard !path.isEmpty else { throw Problem(message: "\"${file:}\" needs a path") }
            let absolute = path.hasPrefix("/") ? path : (folder as NSString).appendingPathComponent(path)
            return try read(absolute, what: "file \(absolute)")
        }
        guard Self.isVariableName(reference) else {
            throw Problem(
                message: "unknown reference \"${\(reference)}\": use ${NAME}, ${credential:NAME} or ${file:PATH}")
        }
        guard let value = environment[reference] else {
            throw Problem(message: "environment variable \(reference) is not set")
        }
        return value
    }

    /// The largest file a reference reads: a secret is far smaller.
    static let maximumFileSize = 1024 * 1024

    private mutating func read(_ path: String, what: String) throws(Problem) -> String {
        files.record(path)
        // Only a regular file of a sane size is read: `/dev/zero` would never end,
        // nor would a FIFO without a writer, or `/dev/stdin` of a terminal.
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else {
                throw Problem(message: "cannot read \(what): it is not a regular file")
            }
            guard info.st_size <= Self.maximumFileSize else {
                throw Problem(
                    message: "cannot read \(what): it is \(info.st_size) bytes; a secret file may be at most "
                        + ByteSizeText.format(Self.maximumFileSize))
            }
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "it does not exist"
            throw Problem(message: "cannot read \(what): \(reason)")
        }
        guard var text = String(data: data, encoding: .utf8) else {
            throw Problem(message: "\(what) is not UTF-8 text")
        }
        if text.hasSuffix("\r\n") {
            text.removeLast()
        } else if text.hasSuffix("\n") {
            text.removeLast()
        }
        return text
    }

    static func isVariableName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first.isASCIILetter
        else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || $0.isASCIILetterOrDigit }
    }
}

/// Scrubs secret values (what `${…}` filled in) out of text shown to people:
/// each is replaced by the reference that produced it, such as
/// `${credential:api-token}`, in its plain and its percent-encoded forms
/// (values reach URLs).
///
/// Values shorter than ``minimumLength`` characters are left alone: they are
/// no secrets worth the name, and scrubbing them would garble messages (a
/// page size of `50` would turn "answered 503" into "answered ${SIZE}3").
///
/// Thread-safety: a `Sendable` value.
package struct Redactor: Sendable {
    /// A secret value and the reference shown instead of it.
    package struct Secret: Sendable, Hashable {
        /// The value.
        package var value: String
        /// What is shown instead, such as `${API_TOKEN}`.
        package var reference: String
    }

    /// The shortest value scrubbed.
    package static let minimumLength = 4

    /// The secrets of this generation: what ``unseal(_:)`` puts back.
    private let secrets: [Secret]
    /// Each form of a value scrubbed (this generation's and the previous one's),
    /// the reference shown instead, and the index in `forms` of the form of the
    /// same encoding that ``seal(_:)`` marks; longest first.
    private let replacements: [(value: String, reference: String, form: Int)]
    /// Per reference, the forms of this generation's value (as is, then encoded), for ``unseal(_:)``.
    private let forms: [String: [String]]

    /// A redactor that changes nothing.
    package static let none = Redactor(secrets: [])

    /// Creates a redactor for these secrets.
    package init(secrets: [Secret]) {
        self.init(secrets: secrets, previous: [])
    }

    private init(secrets: [Secret], previous: [Secret]) {
        let secrets = Array(Set(secrets).filter { $0.value.count >= Self.minimumLength })
        var forms: [String: [String]] = [:]
        for secret in secrets {
            var valueForms: [String] = []
            for form in Self.encodings(of: secret.value) where !valueForms.contains(form) { valueForms.append(form) }
            forms[secret.reference] = valueForms
        }
        var pairs: [(value: String, reference: String, form: Int)] = []
        var seen = Set<String>()
        for (secret, isCurrent) in secrets.map({ ($0, true) }) + previous.map({ ($0, false) })
        where secret.value.count >= Self.minimumLength {
            // A previous value is marked in the form its reference's value has now.
            let current = isCurrent ? secret : secrets.first { $0.reference == secret.reference }
            let currentEncodings = current.map { Self.encodings(of: $0.value) }
            let valueForms = forms[secret.reference] ?? []
            for (index, form) in Self.encodings(of: secret.value).enumerated() where !seen.contains(form) {
                seen.insert(form)
                let mark = currentEncodings.flatMap { valueForms.firstIndex(of: $0[index]) } ?? index
                pairs.append((form, secret.reference, mark))
            }
        }
        // Longest first, so a secret that contains another is replaced whole.
        replacements = pairs.sorted { $0.value.count > $1.value.count }
        self.secrets = secrets
        self.forms = forms
    }

    /// A redactor for this one's secrets that scrubs `previous`'s too (but
    /// not those `previous` kept from the generation before it): what a
    /// configuration whose secrets were read again uses while syncs started
    /// with the previous values may still report them
    /// (docs/configuration.md#substitution-and-secrets). ``unseal(_:)`` puts
    /// this one's values back, in the form the sealed value had. The same
    /// values read again are no new generation: `previous` is kept as it is.
    package func following(_ previous: Redactor) -> Redactor {
        guard Set(secrets) != Set(previous.secrets) else { return previous }
        return Redactor(secrets: secrets, previous: previous.secrets)
    }

    /// The text with every secret replaced by a mark that names its reference
    /// and the form it had (as is, or percent-encoded), so that ``unseal(_:)``
    /// restores it exactly: how a request is kept in the database without
    /// its secrets.
    package func seal(_ text: String) -> String {
        var result = text
        for (value, reference, form) in replacements where result.contains(value) {
            result = result.replacingOccurrences(of: value, with: "${sealed|\(reference)|\(form)}")
        }
        return result
    }

    /// Sealed text with its secrets put back; `nil` when a secret it names is
    /// no longer configured.
    package func unseal(_ text: String) -> String? {
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${sealed|") {
            result += rest[..<start.lowerBound]
            var after = rest[start.upperBound...]
            // The mark ends at the first "|<digits>}": the reference itself may hold "}".
            var found: (reference: Substring, form: Int, end: Substring.Index)?
            var search = after.startIndex
            while found == nil, let bar = after[search...].firstIndex(of: "|") {
                let digits = after[after.index(after: bar)...].prefix { $0.isASCII && $0.isNumber }
                if !digits.isEmpty, digits.endIndex < after.endIndex, after[digits.endIndex] == "}",
                    let form = Int(digits)
                {
                    found = (after[..<bar], form, digits.endIndex)
                }
                search = after.index(after: bar)
            }
            guard let found, let values = forms[String(found.reference)], values.indices.contains(found.form) else {
                return nil
            }
            result += values[found.form]
            after = after[after.index(after: found.end)...]
            rest = after
        }
        return result + rest
    }

    /// The text with every secret replaced by its reference.
    package func redact(_ text: String) -> String {
        var result = text
        for (value, reference, _) in replacements where result.contains(value) {
            result = result.replacingOccurrences(of: value, with: reference)
        }
        return result
    }

    /// The forms a value takes: as is, and in a URL as the agent encodes query
    /// values and placeholders and as Foundation leaves a URL the configuration
    /// wrote; always in this order, so that the forms of two values match.
    private static func encodings(of value: String) -> [String] {
        [
            value,
            PercentEncoding.encode(value),
            value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? value,
            value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? value,
        ]
    }
}
