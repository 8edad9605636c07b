import Streams
import SyncCore

extension StatusAPI {
    /// The `resource` events of `GET /v1/events`, as the stream carries them.
    typealias ResourceEvents = AsyncShareSequence<
        AsyncMapSequence<PassthroughSubject<StatusChange, Never>, ResourceEvent>
    >

    /// Keeps the shared change events subscribed until the agent stops, so
    /// that a client who joins is sure to get every change from then on (the
    /// shared iteration otherwise starts at a client's first request).
    func followChanges() async {
        do {
            for try await _ in resourceEvents {}
        } catch {
            // Cancelled: the agent is stopping.
        }
    }

    /// `GET /v1/events`: a `resource` event for every resource as it is now,
    /// then one for each change, until the agent stops or the client leaves.
    func streamChanges(to sink: EventSink) async {
        // Subscribed before the snapshot is taken: no change falls between.
        // Changes the snapshot already shows (numbered up to its version, but
        // still on their way) are not sent again: a client never sees a
        // resource go back to an older status.
        var changes = resourceEvents.makeAsyncIterator()
        let snapshot = control.statusSnapshot()
        for status in snapshot.statuses {
            guard sink.send(ServerSentEvent(name: "resource", encoding: status), bounded: false) else { return }
        }
        do {
            while let event = try await changes.next() {
                guard event.change.version > snapshot.version else { continue }
                guard sink.send(text: event.text) else { return }
            }
        } catch {
            // The client left.
        }
    }

    /// A refresh with `Accept: text/event-stream`: the `progress`, `retry`
    /// and `slow` events of the sync it started or joined, then its `result`.
    func streamRefresh(of name: String, to sink: EventSink) async {
        if control.status(of: name)?.slow == true {
            // It joins a sync that is already slow.
            sink.send(ServerSentEvent(activity: .slow(resource: name)))
        }
        let result = await Self.offControlThread {
            await control.refresh(name) { report in
                // The result is the refresh's own, told last.
                if case .finished = report { return }
                sink.send(ServerSentEvent(activity: report))
            }
        }
        if let result { sink.send(ServerSentEvent(activity: .finished(result))) }
    }
}
