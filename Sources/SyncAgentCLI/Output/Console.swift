import Foundation

/// Writing to the standard streams.
enum Console {
    /// Writes a line (or, with `terminator: ""`, text as is) to standard output.
    static func out(_ text: String, terminator: String = "\n") {
        print(text, terminator: terminator)
    }

    /// Sends what standard output holds on its way, for output followed as it comes.
    static func flush() {
        fflush(nil)
    }

    /// Writes a line to standard error.
    static func error(_ text: String) {
        errorText(text + "\n")
    }

    /// Writes text to standard error as is.
    static func errorText(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
