import NIOCore
import NIOPosix
import SyncCore

#if canImport(Glibc)
import Glibc
#endif

/// The probe of docs/configuration.md#connectivity: a TCP connect. A refused
/// connection counts as reachable: the network carried the request, only
/// nothing listens.
struct TCPProbe: Sendable {
    /// The target.
    let target: ProbeTarget
    /// The longest a connect may take.
    var timeout: Duration = .seconds(5)

    /// Whether the target can be reached now.
    func reachable() async -> Bool {
        let milliseconds = Int64(timeout.components.seconds * 1000)
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.milliseconds(milliseconds))
                .connect(host: target.host, port: target.port).get()
            try? await channel.close()
            return true
        } catch let error as NIOConnectionError {
            return error.connectionErrors.contains { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }
        } catch let error as IOError {
            return error.errnoCode == ECONNREFUSED
        } catch {
            return false
        }
    }
}
