/// How the agent tells whether the machine is online.
package struct Connectivity: Sendable, Hashable {
    /// The address probed while offline; `nil` means the first resource's host.
    package var probe: ProbeTarget?
    /// The longest wait between two probes while offline.
    package var maxProbeInterval: Duration
}

/// A TCP endpoint to probe, from `tcp://host:port`.
package struct ProbeTarget: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address.
    package var host: String
    /// The TCP port.
    package var port: Int

    /// The target as `tcp://host:port`.
    package var description: String { "tcp://\(host):\(port)" }
}
