import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A small HTTP/1.1 JSON API on loopback, the one `sync-agent demo` syncs from:
/// generated collections served in every pagination style of
/// docs/configuration.md#pagination, with `ETag` and `Last-Modified` (and 304), and faults
/// injected on demand (statuses, latency, reset connections, bodies cut short, invalid
/// JSON). See ``Routes`` for its paths, and `/_control/` in ``UpstreamState`` for changing
/// it over HTTP. It also answers requests in the absolute form a client sends to a proxy
/// (`GET http://any.host/page/items`), whatever the host they name.
///
/// It is the product's part of the test upstream: the test-support target `TestUpstream`
/// adds the imitated APIs, an OAuth2 server and rate limits through ``UpstreamRoutes``,
/// and nothing of those is linked into `sync-agent` (docs/architecture.md#layers).
///
/// Thread-safety: `Sendable`; every method may be called from any task while it serves.
package final class DemoUpstream: Sendable {
    /// The address it listens on.
    package let host: String
    /// The port it listens on.
    package let port: Int
    /// Its origin, such as `http://127.0.0.1:8080`.
    package var baseURL: String { "http://\(host):\(port)" }

    private let state: UpstreamState
    private let channel: any Channel

    private init(host: String, port: Int, state: UpstreamState, channel: any Channel) {
        self.host = host
        self.port = port
        self.state = state
        self.channel = channel
    }

    /// Starts serving on `host:port` (port 0 picks a free one) with collections of the
    /// given sizes; `routes`, if any, are asked about each request before the collections.
    package static func start(
        host: String = "127.0.0.1", port: Int = 0, collections: [String: Int] = ["items": 250],
        routes: (any UpstreamRoutes)? = nil
    ) async throws -> DemoUpstream {
        let state = UpstreamState(datasets: collections, routes: routes)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(UpstreamHandler(state: state))
                }
            }
            .bind(host: host, port: port)
            .get()
        return DemoUpstream(host: host, port: channel.localAddress?.port ?? port, state: state, channel: channel)
    }

    /// Stops listening; open connections are closed.
    package func stop() async {
        try? await channel.close()
    }

    /// Creates or resizes a collection to ids 1...`count`, and counts as a change.
    package func setCollection(_ name: String, count: Int) {
        state.setDataset(name, count: count)
    }

    /// Changes items (their `revision` grows).
    package func changeItems(_ name: String, ids: [Int]) {
        state.changeItems(name, ids: ids)
    }

    /// Removes items.
    package func removeItems(_ name: String, ids: [Int]) {
        state.removeItems(name, ids: ids)
    }

    /// Sets when a collection last changed: its pages' `Last-Modified` until it changes again.
    package func setModified(_ name: String, to date: Date) {
        state.setModified(name, to: date)
    }

    /// The collection `name` as it is now.
    package func dataset(named name: String) -> Dataset? {
        state.dataset(named: name)
    }

    /// The JSON of item `id` of a collection, as served.
    package func item(_ collection: String, id: Int) -> String? {
        state.item(collection, id: id)
    }

    /// Adds a fault; the first fault matching a request applies.
    package func inject(_ fault: Fault) {
        state.addFault(fault)
    }

    /// Removes every fault.
    package func clearFaults() {
        state.clearFaults()
    }

    /// The requests received so far (control requests excluded), oldest first.
    package var requests: [SeenRequest] { state.requests }

    /// The requests that ended so far, with when each did, oldest end first.
    package var exchanges: [Exchange] { state.exchanges }

    /// Forgets the requests received so far.
    package func clearRequests() {
        state.clearRequests()
    }
}
