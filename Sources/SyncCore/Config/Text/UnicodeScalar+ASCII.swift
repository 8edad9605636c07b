extension Unicode.Scalar {
    /// Whether this is an ASCII letter or digit.
    var isASCIILetterOrDigit: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self) || ("0"..."9").contains(self)
    }

    /// Whether this is an ASCII letter.
    var isASCIILetter: Bool {
        ("a"..."z").contains(self) || ("A"..."Z").contains(self)
    }
}

extension Unicode.Scalar {
    /// Whether this is an ASCII lower-case letter.
    var isASCIILowercase: Bool { ("a"..."z").contains(self) }

    /// Whether this is an ASCII digit.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
