import Foundation

/// The names ``ColumnInference`` gives the members it declares: the snake_case
/// of the members' names on the way, joined by `_` (`/customer/emailAddress`
/// is `customer_email_address`), made a name ``ColumnNames`` accepts, and
/// distinct within one table.
struct ColumnNaming {
    /// The names taken in the table so far.
    private var taken: Set<String> = []
    /// Whether the table is a nested list's, whose own columns are `key` and `position`.
    let inList: Bool

    init(inList: Bool) {
        self.inList = inList
    }

    /// A new name for the member at `tokens`, no longer than `maxLength`
    /// bytes, unless `isFree` refuses every one tried; `nil` when no valid
    /// name fits.
    mutating func name(
        for tokens: [String], maxLength: Int = ColumnNames.maxLength, isFree: (String) -> Bool = { _ in true }
    ) -> String? {
        guard maxLength > 0 else { return nil }
        var base = Self.base(of: tokens)
        // A keyword, or a column the table has already (its own, PostgreSQL's):
        // a trailing "_" keeps it readable.
        if ColumnNames.keywords.contains(base) || ColumnNames.systemColumns.contains(base)
            || (inList ? ColumnNames.childColumns : ColumnNames.tableColumns).contains(base)
        {
            base += "_"
        }
        for number in 1...1_000 {
            let suffix = number == 1 ? "" : "_\(number)"
            guard suffix.utf8.count < maxLength else { return nil }
            let candidate = Self.truncated(base, to: maxLength - suffix.utf8.count) + suffix
            guard !taken.contains(candidate), isFree(candidate),
                ColumnNames.columnProblem(candidate, inList: inList) == nil
            else { continue }
            taken.insert(candidate)
            return candidate
        }
        return nil
    }

    /// The snake_case name of the member at `tokens`, before it is made distinct.
    static func base(of tokens: [String]) -> String {
        let name = tokens.map(snakeCase).filter { !$0.isEmpty }.joined(separator: "_")
        guard let first = name.unicodeScalars.first else { return "column" }
        return first.isASCIIDigit ? "_" + name : name
    }

    /// `name` in snake_case, ASCII only: `emailAddress`, `Email-Address` and
    /// `email address` are `email_address`, `HTTPStatus` is `http_status`,
    /// `Größe` is `grosse`; other characters separate words.
    static func snakeCase(_ name: String) -> String {
        let folded = name.replacingOccurrences(of: "ß", with: "ss").folding(
            options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
        let scalars = Array(folded.unicodeScalars)
        var output = ""
        var separate = false
        for (index, scalar) in scalars.enumerated() {
            let upper = ("A"..."Z").contains(scalar)
            guard upper || scalar.isASCIILowercase || scalar.isASCIIDigit else {
                separate = true
                continue
            }
            if upper, index > 0 {
                let previous = scalars[index - 1]
                let next = index + 1 < scalars.count ? scalars[index + 1] : nil
                // fooBar, foo2Bar: a word starts; HTTPStatus: the last capital starts one.
                if previous.isASCIILowercase || previous.isASCIIDigit
                    || (("A"..."Z").contains(previous) && next.map(\.isASCIILowercase) == true)
                {
                    separate = true
                }
            }
            if separate, !output.isEmpty { output += "_" }
            separate = false
            output.unicodeScalars.append(upper ? Unicode.Scalar(scalar.value + 32)! : scalar)
        }
        return output
    }

    /// `name`'s first `length` bytes (its characters are ASCII), without a trailing `_`.
    private static func truncated(_ name: String, to length: Int) -> String {
        guard name.utf8.count > length else { return name }
        var cut = String(name.prefix(length))
        while cut.count > 1, cut.hasSuffix("_") { cut.removeLast() }
        return cut
    }
}
