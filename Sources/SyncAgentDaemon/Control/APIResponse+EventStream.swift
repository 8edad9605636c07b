import Hummingbird
import NIOCore

extension APIResponse {
    /// A stream of server-sent events: `produce` sends them to its sink
    /// and returns when the stream is done. The stream sends a comment every
    /// `keepAlive`; when the client leaves, `produce` is cancelled. A client
    /// that falls `limits` behind gets a last `overflow` event if it still
    /// reads, and its `connection` is closed either way.
    static func eventStream(
        keepAlive: Duration, limits: EventSink.Limits, closing connection: any Channel,
        _ produce: @escaping @Sendable (EventSink) async -> Void
    ) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: ServerSentEvent.contentType, .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                let sink = EventSink(limits: limits) {
                    // A client that reads nothing never takes the last event:
                    // its connection is closed all the same, freeing its backlog.
                    connection.eventLoop.scheduleTask(in: .seconds(1)) { connection.close(promise: nil) }
                }
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        await produce(sink)
                        sink.finish()
                    }
                    group.addTask {
                        while (try? await Task.sleep(for: keepAlive)) != nil {
                            guard sink.send(text: ": keep-alive\n\n") else { return }
                        }
                    }
                    do {
                        for await text in sink.texts {
                            try await writer.write(ByteBuffer(string: text))
                            sink.written(text)
                        }
                        if sink.overflowed {
                            try await writer.write(ByteBuffer(string: ServerSentEvent.overflow.encoded))
                        }
                    } catch {
                        // The client left.
                    }
                    group.cancelAll()
                }
                try await writer.finish(nil)
                // Not kept for another request: the timer above must not cut one.
                if sink.overflowed { connection.close(promise: nil) }
            })
    }
}
