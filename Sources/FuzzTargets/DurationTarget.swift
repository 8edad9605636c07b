import SyncCore

extension FuzzTarget {
    /// The configuration's durations (`"1m30s"`, `"1.5s"`, `"500ms"`) and sizes (`"32MiB"`).
    static let durations = FuzzTarget(
        name: "durations",
        property: "any text gives no duration or one from 0 to 365 days, and no size or one of 0 bytes "
            + "or more; a duration written by format(_:), or as whole units, reads back exactly; a size "
            + "of whole units reads back as their bytes"
    ) { input throws(PropertyViolation) in
        let raw = String(decoding: input, as: UTF8.self)
        if let duration = DurationText.parse(raw) {
            try require(
                duration >= .zero && duration <= DurationText.maximum, "\(shown(input)) reads as \(duration)")
        }
        if let size = ByteSizeText.parse(raw) {
            try require(size >= 0, "\(shown(input)) reads as \(size) bytes")
        }

        var draw = FuzzInput(input)
        let milliseconds = Int64(draw.int(in: 0...(365 * 86_400_000)))
        let duration = Duration.milliseconds(milliseconds)
        let formatted = DurationText.format(duration)
        try require(
            DurationText.parse(formatted) == duration,
            "\(duration) is written \(formatted), which reads \(String(describing: DurationText.parse(formatted)))")

        let units: [(String, Int64)] = [("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1)]
        var text = ""
        var total: Int64 = 0
        for _ in 0..<draw.int(in: 1...4) {
            let (unit, size) = draw.pick(units)
            let count = Int64(draw.int(in: 0...400))
            text += "\(count)\(unit)"
            total += count * size
        }
        let padded = draw.pick(["", " "]) + text + draw.pick(["", " ", "\n"])
        let read = DurationText.parse(padded)
        let expected = total <= 365 * 86_400_000 ? Duration.milliseconds(total) : nil
        try require(
            read == expected, "\"\(padded)\" reads \(String(describing: read)), not \(String(describing: expected))")

        let sizes: [(String, Int)] = [
            ("", 1), ("B", 1), ("KB", 1000), ("kB", 1000), ("MB", 1_000_000), ("GB", 1_000_000_000),
            ("KiB", 1024), ("MiB", 1_048_576), ("gib", 1_073_741_824),
        ]
        let (unit, scale) = draw.pick(sizes)
        let count = draw.int(in: 0...99_999)
        let size = "\(count)" + draw.pick(["", " "]) + unit
        try require(
            ByteSizeText.parse(size) == count * scale,
            "\"\(size)\" reads \(String(describing: ByteSizeText.parse(size))) bytes, not \(count * scale)")
    }
}
