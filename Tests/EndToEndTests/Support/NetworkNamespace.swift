import Foundation

/// A network namespace joined to this one by a veth pair, for taking a
/// machine's network away and giving it back: inside, `10.213.N.2` with a
/// default route via `10.213.N.1`, the outer end.
///
/// Building one needs root (or CAP_NET_ADMIN) and a kernel that allows
/// namespaces; ``create()`` says why when it cannot.
final class NetworkNamespace: Sendable {
    let name: String
    /// The address of the outer end, which the inside reaches through its default route.
    let outerAddress: String
    private let innerLink: String
    private let innerAddress: String

    private init(id: Int) {
        name = "sync-agent-\(id)"
        innerLink = "sa\(id)in"
        outerAddress = "10.213.\(id).1"
        innerAddress = "10.213.\(id).2"
    }

    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    /// Creates the namespace and its link, up, with a default route.
    static func create() throws(Refused) -> NetworkNamespace {
        let namespace = NetworkNamespace(id: Int.random(in: 1...250))
        let outerLink = "sa\(namespace.name.split(separator: "-").last!)out"
        let steps = [
            ["netns", "add", namespace.name],
            ["link", "add", outerLink, "type", "veth", "peer", "name", namespace.innerLink],
            ["link", "set", namespace.innerLink, "netns", namespace.name],
            ["addr", "add", namespace.outerAddress + "/30", "dev", outerLink],
            ["link", "set", outerLink, "up"],
            ["netns", "exec", namespace.name, "ip", "link", "set", "lo", "up"],
            [
                "netns", "exec", namespace.name, "ip", "addr", "add", namespace.innerAddress + "/30", "dev",
                namespace.innerLink,
            ],
        ]
        for step in steps {
            if let problem = ip(step) {
                namespace.remove()
                throw Refused(description: "ip \(step.joined(separator: " ")): \(problem)")
            }
        }
        if let problem = namespace.connect() {
            namespace.remove()
            throw Refused(description: problem)
        }
        return namespace
    }

    /// Runs a command inside: the prefix for ``AgentProcess``.
    var wrapper: [String] { ["/usr/sbin/ip", "netns", "exec", name] }

    /// Takes the inner link down: its routes, the default one included, are gone.
    func disconnect() -> String? {
        ip(["netns", "exec", name, "ip", "link", "set", innerLink, "down"])
    }

    /// Brings the inner link up and its default route back.
    func connect() -> String? {
        ip(["netns", "exec", name, "ip", "link", "set", innerLink, "up"])
            ?? ip(["netns", "exec", name, "ip", "route", "add", "default", "via", outerAddress])
    }

    /// Removes the namespace, and with it the veth pair.
    func remove() {
        _ = Self.ip(["netns", "del", name])
    }

    private func ip(_ arguments: [String]) -> String? { Self.ip(arguments) }

    /// Runs `ip`; returns what it printed on failure, `nil` on success.
    private static func ip(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return "cannot run ip: \(error)"
        }
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus != 0 else { return nil }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
