import Hummingbird
import NIOCore

/// The request context of the status API: Hummingbird's basic one, and the
/// client's connection, so that an event stream can close it.
struct ControlRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's connection.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
