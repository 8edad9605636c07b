import Streams

/// What a sync needs of the machine's connectivity: a gate that is `true`
/// while the machine is online, and a way to report a request that found it
/// offline. The ``ConnectivityMonitor`` provides both.
package struct ConnectivityGate: Sendable {
    /// `true` while online; requests wait while it is `false`.
    package let online: CurrentValueSubject<Bool, Never>
    /// Told when a request fails with a connectivity error.
    package let reportOffline: @Sendable (FetchError) -> Void
}
