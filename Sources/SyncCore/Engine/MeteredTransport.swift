/// A transport that counts every answer (or failure) of one resource's
/// requests in the agent's metrics.
struct MeteredTransport: PageTransport {
    let base: any PageTransport
    package let resource: String
    package let metrics: AgentMetrics

    func send(_ spec: HTTPRequestSpec, maxBytes: Int) async throws -> HTTPResponseData {
        do {
            let response = try await base.send(spec, maxBytes: maxBytes)
            metrics.request(resource, status: response.status)
            metrics.received(resource, wire: response.wireBytes, decoded: response.body.readableBytes)
            return response
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            metrics.request(resource, status: nil)
            throw error
        }
    }
}
