import Hummingbird
import Logging
import NIOCore
import NIOHTTPTypes
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The bounds on the status socket's connections, or the HTTP listener's
/// (docs/api.md#connections):
/// at most ``cap`` open at once, well below the file limit so that syncs and
/// the database never run out of descriptors because of idle clients. A
/// connection past the cap is answered 503 and closed at once, not queued.
/// When the agent runs out of files anyway (`EMFILE`, `ENFILE`: another
/// program lowered its limit, or syncs use them), accepting pauses for
/// ``acceptPause`` rather than try again at once. Each episode of refusals,
/// and of accept errors, is logged once as it starts and once as it ends.
///
/// Thread-safety: `Sendable`; its counts are behind a `Mutex`, updated from
/// any connection's event loop.
final class ConnectionLimits: Sendable {
    /// The most connections open at once.
    let cap: Int
    /// What the log calls the server: `the socket`, `the HTTP listener`.
    private let name: String
    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var open = 0
        /// Connections refused since the cap was reached; `nil` while under it.
        var refused: Int?
        /// The accept error of the episode under way, if one is.
        var acceptError: String?
        /// When an accept last failed.
        var failedAt = ContinuousClock.now
    }

    init(cap: Int, logger: Logger, name: String = "the socket") {
        self.cap = cap
        self.name = name
        self.logger = logger
    }

    /// The cap for a process allowed `fileLimit` open files: half of them,
    /// between 8 and 4,096.
    static func cap(forFileLimit fileLimit: UInt64) -> Int {
        Int(min(4096, max(8, fileLimit / 2)))
    }

    /// How long a connection may stay without sending a complete request
    /// before it is closed (a streamed answer in progress is not cut).
    static let readTimeout = TimeAmount.seconds(10)

    /// How long accepting pauses after it failed for want of files.
    static let acceptPause = TimeAmount.seconds(1)

    /// Counts a new connection in; `false` when the cap is reached.
    func admit() -> Bool {
        let (admitted, firstRefusal) = state.withLock { state -> (Bool, Bool) in
            if state.open < cap {
                state.open += 1
                return (true, false)
            }
            defer { state.refused = (state.refused ?? 0) + 1 }
            return (false, state.refused == nil)
        }
        if firstRefusal {
            logger.warning(
                "\(name) has \(cap) connections open, the most it takes: refusing new ones until some close")
        }
        return admitted
    }

    /// Counts an admitted connection out.
    func leave() {
        let refused = state.withLock { state -> Int? in
            state.open -= 1
            guard let refused = state.refused, state.open < cap * 3 / 4 else { return nil }
            state.refused = nil
            return refused
        }
        if let refused {
            logger.notice("\(name) takes connections again (refused \(refused) while full)")
        }
    }

    /// Notes an accept error: logged if it starts an episode.
    func acceptFailed(_ error: any Error) {
        let reason: String
        if let error = error as? IOError, [EMFILE, ENFILE].contains(error.errnoCode) {
            reason =
                error.errnoCode == EMFILE ? "too many open files in the agent" : "too many open files on the system"
        } else {
            reason = "\(error)"
        }
        let starts = state.withLock { state in
            defer {
                state.acceptError = reason
                state.failedAt = .now
            }
            return state.acceptError == nil
        }
        if starts { logger.error("cannot accept connections on \(name) (\(reason)): trying again each second") }
    }

    /// Notes an accepted connection: it ends an episode of accept errors
    /// once no accept has failed for longer than a pause (one connection
    /// taken between two failures does not).
    func accepted() {
        let ended = state.withLock { state -> String? in
            guard let error = state.acceptError,
                ContinuousClock.now - state.failedAt > .nanoseconds(Self.acceptPause.nanoseconds * 3 / 2)
            else { return nil }
            state.acceptError = nil
            return error
        }
        if let ended { logger.notice("\(name) accepts connections again after \(ended)") }
    }

    /// The handler each connection starts with: it counts the connection in
    /// and out, and refuses it past the cap.
    func connectionHandler() -> ConnectionCapHandler { ConnectionCapHandler(limits: self) }

    /// The handler that watches the listening socket's accepts.
    func acceptHandler() -> AcceptWatchHandler { AcceptWatchHandler(limits: self) }
}

/// Counts a connection in and out of its ``ConnectionLimits``; past the cap
/// it answers 503 and closes the connection.
final class ConnectionCapHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limits: ConnectionLimits
    private var admitted = false

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func channelActive(context: ChannelHandlerContext) {
        admitted = limits.admit()
        context.fireChannelActive()
        guard !admitted else { return }
        let body = APIResponse.jsonBody(
            encoding: ErrorAnswer(
                code: "too_many_connections",
                message: "the agent has \(limits.cap) connections open, the most it takes; try again shortly"))
        let head = HTTPResponse(
            status: .serviceUnavailable,
            headerFields: [
                .contentType: "application/json", .contentLength: "\(body.readableBytes)", .connection: "close",
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if admitted {
            admitted = false
            limits.leave()
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A refused connection's request goes no further.
        guard admitted else { return }
        context.fireChannelRead(data)
    }
}

/// Sits first on the listening socket: sees each accepted connection, and
/// its accept errors. After an accept fails for want of files, NIO keeps
/// the socket's read interest and tries again at once, in a loop that takes
/// a core (its back-off handler only delays the next read it is asked for):
/// this handler stops reading for ``ConnectionLimits/acceptPause`` instead.
final class AcceptWatchHandler: ChannelInboundHandler {
    typealias InboundIn = any Channel

    private let limits: ConnectionLimits
    private var paused = false

    init(limits: ConnectionLimits) {
        self.limits = limits
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        limits.accepted()
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? IOError, [EMFILE, ENFILE].contains(error.errnoCode) { pause(context) }
        limits.acceptFailed(error)
        context.fireErrorCaught(error)
    }

    /// Stops accepting for a pause: turning `autoRead` off removes the read interest.
    private func pause(_ context: ChannelHandlerContext) {
        guard !paused, let options = context.channel.syncOptions else { return }
        paused = true
        try? options.setOption(ChannelOptions.autoRead, value: false)
        context.eventLoop.assumeIsolated().scheduleTask(in: ConnectionLimits.acceptPause) {
            self.paused = false
            try? options.setOption(ChannelOptions.autoRead, value: true)
        }
    }
}
