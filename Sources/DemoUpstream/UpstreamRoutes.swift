import Foundation

/// Routes that a test-support target adds to a ``DemoUpstream``, with the state they
/// keep: `TestUpstream`'s imitated APIs, tokens, OAuth2 server and rate limits. This is
/// how those stay out of the product and nothing is written twice.
///
/// The server logs each request and picks its fault (``Fault``) first. When the fault
/// lets the request through (`respond`, `truncate`), ``answer(_:origin:answeredAt:state:)``
/// is asked before the collection routes (``Routes``); an answer of its own is sent after
/// the fault's delay, cut short for `truncate`. When the fault answers instead,
/// ``faulted(_:by:request:answeredAt:)`` sees that answer. `/_control/` requests go to
/// ``control(_:state:)`` before the server's own.
///
/// Thread-safety: `Sendable`; called from every connection's event loop at once.
package protocol UpstreamRoutes: Sendable {
    /// The answer to `request`, or `nil` to leave it to the collection routes. `origin` is
    /// the server's as the request named it (for absolute links); `answeredAt` is when the
    /// answer goes out (after a fault's delay). ``Routes/outcome(of:modified:request:)``
    /// adds a page's validators.
    func answer(
        _ request: SeenRequest, origin: String, answeredAt: Date, state: UpstreamState
    ) -> ResponsePlan.Outcome?

    /// The answer a fault planned instead of the routes' (a status, a reset, invalid JSON),
    /// with whatever these routes add to it.
    func faulted(
        _ outcome: ResponsePlan.Outcome, by fault: Fault, request: SeenRequest, answeredAt: Date
    ) -> ResponsePlan.Outcome

    /// The answer to a `/_control/` request, or `nil` to leave it to the server's own.
    func control(_ request: SeenRequest, state: UpstreamState) -> ResponsePlan.Outcome?
}
