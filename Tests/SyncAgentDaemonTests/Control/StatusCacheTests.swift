import Foundation
import Hummingbird
import Logging
import Synchronization
import Testing

@testable import Store
@testable import SyncAgentDaemon
@testable import SyncCore

/// The `GET /v1/status` body built once per version of the statuses, each
/// resource encoded once per change of it (docs/architecture.md#status-under-load).
/// No clock: a body depends on versions, never on time.
@Suite struct StatusCacheTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_100)
    let agent = AgentInfo(
        version: "1.2.3", pid: 4242, startedAt: Date(timeIntervalSince1970: 1_795_000_000.5), online: true)

    /// Statuses with every field the API shows set somewhere, and text that must be escaped.
    static func statuses(_ count: Int) -> [ResourceStatus] {
        (0..<count).map { index in
            var status = ResourceStatus(name: "r\(index)", state: index % 3 == 0 ? .syncing : .idle)
            status.lastSuccessAt = start.addingTimeInterval(Double(index))
            status.lastAttemptAt = start.addingTimeInterval(Double(index) + 0.25)
            status.nextSyncAt = index % 4 == 0 ? nil : start.addingTimeInterval(60)
            status.items = index * 7
            switch index % 5 {
            case 1:
                status.message = "retrying GET https://h/\"x\"?a=1 in 2s\n(attempt 2 of 5): ünïcode \u{1}"
                status.attempt = 2
            case 2:
                status.lastError = StoredError(kind: .transient, message: "the server answered 503", status: 503)
            case 3:
                status.since = ExactTime(start).map(SinceState.time)
                status.owner = "host:1:abc"
            case 4:
                status.since = .token("next-\(index)")
                status.columns = ColumnsStatus(
                    tables: ["r\(index)", "r\(index)__roles"],
                    misfit: ColumnMisfit(table: "r\(index)", column: "age", key: "7", pointer: "/age"))
            default:
                break
            }
            return status
        }
    }

    /// What the API answered before it kept a body: the whole answer encoded at once.
    func rendered(_ statuses: [ResourceStatus], online: Bool = true) -> String {
        var agent = agent
        agent.online = online
        return String(buffer: APIResponse.jsonBody(encoding: StatusAnswer(agent: agent, resources: statuses)))
    }

    /// Encodes as the API does, keeping the names of the resources it encodes.
    final class CountingEncoder: Sendable {
        let encoded = Mutex<[String]>([])

        func encode(_ status: ResourceStatus) -> String {
            encoded.withLock { $0.append(status.name) }
            return StatusCache.object(of: status)
        }

        /// The names encoded since the last call.
        func take() -> [String] {
            encoded.withLock { names in
                defer { names = [] }
                return names
            }
        }
    }

    /// A body of `statuses` at `version`, where those named in `changed`
    /// (every one when `nil`) changed since `previous`.
    func build(
        _ statuses: [ResourceStatus], version: Int = 1, changed: [String]? = nil,
        reusing previous: StatusCache.Body? = nil, encoder: CountingEncoder = CountingEncoder()
    ) -> StatusCache.Body? {
        let changes = StatePublication.Changes(
            version: version, names: statuses.map(\.name),
            changed: statuses.filter { changed?.contains($0.name) ?? true })
        return StatusCache.build(
            key: StatusCache.Key(version: version, online: true), agent: agent, changes: changes,
            reusing: previous, encode: encoder.encode)
    }

    @Test(arguments: [0, 1, 2, 7, 30])
    func aBodyIsExactlyTheAnswerEncodedWhole(count: Int) throws {
        let statuses = Self.statuses(count)
        let first = try #require(build(statuses))
        #expect(String(buffer: first.bytes) == rendered(statuses))
        // Built again from itself, every object copied.
        let encoder = CountingEncoder()
        let again = try #require(build(statuses, version: 2, changed: [], reusing: first, encoder: encoder))
        #expect(encoder.take().isEmpty)
        #expect(String(buffer: again.bytes) == rendered(statuses))
        // Each range holds one resource's object.
        for body in [first, again] {
            #expect(body.ranges.count == count)
            for (range, status) in zip(body.ranges, statuses) {
                #expect(
                    body.bytes.getString(at: range.lowerBound, length: range.count) == StatusCache.object(of: status))
            }
        }
    }

    @Test func onlyTheResourcesWhoseStatusChangedAreEncodedAgain() throws {
        let encoder = CountingEncoder()
        var statuses = Self.statuses(10)
        let first = try #require(build(statuses, encoder: encoder))
        #expect(encoder.take().count == 10)

        statuses[0].state = .idle
        statuses[3].state = .syncing
        statuses[3].attempt = 1
        statuses[9].message = "taking longer than expected"
        let second = try #require(
            build(statuses, version: 2, changed: ["r0", "r3", "r9"], reusing: first, encoder: encoder))
        #expect(encoder.take() == ["r0", "r3", "r9"])
        #expect(String(buffer: second.bytes) == rendered(statuses))

        statuses[4].items += 1
        let third = try #require(build(statuses, version: 3, changed: ["r4"], reusing: second, encoder: encoder))
        #expect(encoder.take() == ["r4"])
        #expect(String(buffer: third.bytes) == rendered(statuses))
        for (range, status) in zip(third.ranges, statuses) {
            #expect(third.bytes.getString(at: range.lowerBound, length: range.count) == StatusCache.object(of: status))
        }
    }

    @Test func aReloadThatReordersRemovesAndAddsResourcesEncodesOnlyTheNewOnes() throws {
        let encoder = CountingEncoder()
        let statuses = Self.statuses(6)
        let first = try #require(build(statuses, encoder: encoder))
        _ = encoder.take()

        // r2 removed, r5 moved first, "new" added in the middle.
        let reloaded =
            [statuses[5], statuses[0], statuses[1], ResourceStatus(name: "new", state: .idle)]
            + [statuses[3], statuses[4]]
        let second = try #require(build(reloaded, version: 2, changed: ["new"], reusing: first, encoder: encoder))
        #expect(encoder.take() == ["new"])
        #expect(String(buffer: second.bytes) == rendered(reloaded))
        // A resource neither changed nor in the last body: no body from it.
        let unknown = statuses + [ResourceStatus(name: "other", state: .idle)]
        #expect(build(unknown, version: 3, changed: [], reusing: first) == nil)
    }

    @Test func aBodyIsBuiltOncePerVersionNotPerRequestFromThePublication() throws {
        let publication = StatePublication(
            machines: ["a", "b", "c", "d"].map { ResourceMachine(name: $0, row: nil, nextSyncAt: Self.start) },
            logger: Logger(label: "test"))
        let encoder = CountingEncoder()
        let cache = StatusCache(encode: encoder.encode)
        let asked = Mutex<[Int?]>([])
        func body(online: Bool = true) -> String {
            var agent = agent
            agent.online = online
            let key = StatusCache.Key(version: publication.version, online: online)
            let bytes = cache.body(for: key, agent: { agent }) { since in
                asked.withLock { $0.append(since) }
                return publication.changes(since: since)
            }
            return String(buffer: bytes)
        }
        func shown(online: Bool = true) -> String { rendered(publication.snapshot().statuses, online: online) }

        for _ in 0..<5 { #expect(body() == shown()) }
        #expect(asked.withLock { $0 } == [nil])
        #expect(encoder.take() == ["a", "b", "c", "d"])

        // Changes: one build, only the resources that changed encoded, for any number of requests.
        publication.handle("b", .started(sync: 1, at: Self.start))
        publication.handle("d", .started(sync: 2, at: Self.start))
        for _ in 0..<5 { #expect(body() == shown()) }
        #expect(asked.withLock { $0 } == [nil, 0])
        #expect(encoder.take() == ["b", "d"])

        publication.handle(
            "b", .finished(sync: 1, SyncReport(SyncResult(resource: "b", outcome: .success)), at: Self.start))
        #expect(body() == shown())
        #expect(asked.withLock { $0 } == [nil, 0, 2])
        #expect(encoder.take() == ["b"])

        // Offline shows in the agent and in every status.
        publication.setOnline(false)
        #expect(body(online: false) == shown(online: false))
        #expect(encoder.take() == ["a", "b", "c", "d"])
    }
}
