import SyncCore

extension FuzzTarget {
    /// `NO_PROXY` lists (docs/configuration.md#proxies), matched as curl matches them.
    static let noProxy = FuzzTarget(
        name: "noproxy",
        property: "a list matches a host when one of its entries alone does, whatever the separators and case; "
            + "names match themselves and their subdomains only; an IPv4 network matches the addresses "
            + "that share its prefix; a port limits an entry to it"
    ) { input throws(PropertyViolation) in
        var draw = FuzzInput(input)
        let labels = ["example", "com", "api", "a", "b-c", "xn--bcher-kva", "1", "localhost", "internal"]
        func name() -> String {
            (0..<draw.int(in: 1...3)).map { _ in draw.pick(labels) }.joined(separator: ".")
        }
        func ipv4() -> [Int] { (0..<4).map { _ in draw.pick([0, 1, 10, 127, 128, 192, 255, draw.int(in: 0...255)]) } }

        // Entries of each kind, some with a port, and one as any bytes.
        var entries: [String] = []
        for _ in 0..<draw.int(in: 1...4) {
            var entry: String
            switch draw.int(in: 0...4) {
            case 0: entry = name()
            case 1: entry = "." + name()
            case 2:
                let address = ipv4()
                entry = address.map(String.init).joined(separator: ".")
                if draw.bool() { entry += "/\(draw.int(in: 0...32))" }
            case 3: entry = draw.pick(["::1", "fe80::1", "2001:db8::/32", "[::1]"])
            default: entry = draw.anyText(upTo: 12)
            }
            if draw.int(in: 0...3) == 0, !entry.contains(":") || entry.hasPrefix("[") {
                entry += ":\(draw.pick([80, 443, 8080, draw.int(in: 0...70_000)]))"
            }
            entries.append(draw.bool() ? entry.uppercased() : entry)
        }
        let hostIsAddress = draw.bool()
        let address = ipv4()
        var host = hostIsAddress ? address.map(String.init).joined(separator: ".") : name()
        if !hostIsAddress, draw.bool() { host = draw.pick(labels) + "." + (entries.first ?? "") }
        let port = draw.pick([80, 443, 8080])
        let separators = [",", ", ", " ", " , ", "\t"]
        let list = entries.map { $0 + draw.pick(separators) }.joined()

        let all = NoProxy(list)
        let matches = all.matches(host: host, port: port)
        let anyAlone = entries.contains { NoProxy($0).matches(host: host, port: port) }
        try require(
            matches == anyAlone, "NO_PROXY=\(list) says \(matches) for \(host):\(port), its entries alone \(anyAlone)")
        // A fully qualified name's one trailing dot changes nothing (`a..` is no name).
        try require(
            host.hasSuffix(".") || all.matches(host: host.uppercased() + ".", port: port) == matches,
            "NO_PROXY=\(list): \(host.uppercased()). is not \(host)")

        // Each entry alone, where it is one entry: any bytes may hold separators or `*`.
        for entry in entries where !entry.contains(where: { ",\t *".contains($0) }) {
            let (pattern, entryPort) = split(entry.lowercased())
            let alone = NoProxy(entry).matches(host: host, port: port)
            if entryPort == nil, pattern != entry.lowercased() {
                // A port that is no number: the entry is refused and matches nothing.
                try require(!alone, "\(entry), whose port is no number, matches \(host)")
                continue
            }
            if let entryPort, entryPort != port {
                try require(!alone, "\(entry) matches \(host) on port \(port)")
                continue
            }
            if let network = IPv4Network(pattern) {
                let inside = hostIsAddress && network.contains(address)
                try require(alone == inside, "\(entry) says \(alone) for \(host), the network says \(inside)")
            } else if pattern.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }),
                pattern.contains(where: \.isLetter)
            {
                let bare = String(pattern.drop { $0 == "." })
                guard !bare.isEmpty, !bare.hasSuffix(".") else { continue }
                var lowered = host.lowercased()
                if lowered.hasSuffix(".") { lowered.removeLast() }  // an absolute name's dot
                let expected = !hostIsAddress && (lowered == bare || lowered.hasSuffix("." + bare))
                try require(alone == expected, "\(entry) says \(alone) for \(host), not \(expected)")
            }
        }
    }

    /// An entry's pattern and port, split as curl splits them (a port after the last
    /// colon of a name or IPv4 address).
    private static func split(_ entry: String) -> (String, Int?) {
        guard !entry.hasPrefix("["), entry.filter({ $0 == ":" }).count == 1, let colon = entry.firstIndex(of: ":")
        else { return (entry, nil) }
        return (String(entry[..<colon]), Int(entry[entry.index(after: colon)...]))
    }
}

/// An IPv4 network written `a.b.c.d` or `a.b.c.d/bits`, computed apart from `NoProxy`.
private struct IPv4Network {
    var address: UInt32
    var bits: Int

    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let octets = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return nil }
        var address: UInt32 = 0
        for octet in octets {
            guard octet.count <= 3, octet.allSatisfy(\.isASCII), let value = UInt32(octet), value <= 255,
                octet == "0" || !octet.hasPrefix("0")
            else { return nil }
            address = address << 8 | value
        }
        let bits = parts.count == 2 ? Int(parts[1]) : 32
        guard let bits, (0...32).contains(bits) else { return nil }
        self.address = address
        self.bits = bits
    }

    func contains(_ octets: [Int]) -> Bool {
        let other = octets.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
        return address & mask == other & mask
    }
}
