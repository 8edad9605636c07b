#if canImport(Glibc)
import Glibc
#endif

/// Rows of text in aligned columns, for people. The last column is cut to the
/// terminal's width when writing to a terminal, never when piped.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []

    /// A table with a header line; with no header, only the rows are shown.
    init(_ header: String...) {
        self.header = header
    }

    mutating func add(_ row: [String]) {
        rows.append(row)
    }

    /// The table as lines; `width` limits each line when given.
    func render(width: Int? = nil) -> String {
        let all = header.isEmpty ? rows : [header] + rows
        var widths = Array(repeating: 0, count: all.map(\.count).max() ?? 0)
        for row in all {
            for (index, cell) in row.enumerated() where index < widths.count - 1 {
                widths[index] = max(widths[index], cell.count)
            }
        }
        return all.map { row in
            var line = ""
            for (index, cell) in row.enumerated() {
                if index == row.count - 1 {
                    line += cell
                } else {
                    line += cell + String(repeating: " ", count: widths[index] - cell.count + 2)
                }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            if let width, line.count > width, width > 1 {
                line = String(line.prefix(width - 1)) + "…"
            }
            return line
        }.joined(separator: "\n")
    }
}

/// What standard output is connected to.
enum Terminal {
    /// The width of the terminal on standard output, or `nil` when it is not one.
    static var width: Int? { width(of: STDOUT_FILENO) }

    /// The height of the terminal on standard output in lines, or `nil` when it is not one.
    static var height: Int? {
        size(of: STDOUT_FILENO).map { $0.ws_row > 0 ? Int($0.ws_row) : 24 }
    }

    /// Draws `text` over the whole screen on standard output: from the top
    /// left, each line erased to its end, then the rest of the screen, so a
    /// redraw replaces the last one without the flicker of clearing first.
    static func redraw(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        Console.out("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\n") + "\u{1B}[J", terminator: "")
        Console.flush()
    }

    /// The width of the terminal on standard error, or `nil` when it is not one.
    static var standardErrorWidth: Int? { width(of: STDERR_FILENO) }

    private static func width(of descriptor: Int32) -> Int? {
        size(of: descriptor).map { $0.ws_col > 0 ? Int($0.ws_col) : 80 }
    }

    /// The size of the terminal on `descriptor` (zeros when it cannot be
    /// read), or `nil` when it is not one.
    private static func size(of descriptor: Int32) -> winsize? {
        guard isatty(descriptor) == 1 else { return nil }
        var size = winsize()
        return ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 ? size : winsize()
    }
}
