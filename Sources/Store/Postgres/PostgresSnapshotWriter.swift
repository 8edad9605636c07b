import Foundation
import NIOCore
import PostgresNIO

/// A snapshot of ``PostgresStore`` while its pages arrive: they are staged in
/// the unlogged table `staging` under the snapshot's id (a row of
/// `snapshots`), each page in a short transaction of its own, so that no
/// connection is held for the length of a sync.
///
/// Thread-safety: not `Sendable`; one sync uses it from one task.
final class PostgresSnapshotWriter: SnapshotWriter {
    let resource: String
    private(set) var stagedCount = 0

    let store: PostgresStore
    /// The snapshot's row in `snapshots`, and its rows' mark in `staging`.
    let id: Int64
    /// Whether a key staged again replaces the one staged before.
    let lastWins: Bool
    private(set) var kept = SnapshotPages()
    private var isOpen = true

    init(store: PostgresStore, resource: String, id: Int64, lastWins: Bool) {
        self.store = store
        self.resource = resource
        self.id = id
        self.lastWins = lastWins
    }

    deinit {
        // A writer dropped without being applied or discarded must not leave its rows staged.
        if isOpen {
            Task { [store, id] in try? await store.dropSnapshot(id) }
        }
    }

    func stage(_ records: [StagedRecord], page: Int?) async throws(StoreError) {
        precondition(isOpen, "stage(_:) after the snapshot was applied or discarded")
        guard !records.isEmpty else { return }
        let (id, logger) = (id, store.logger)
        if lastWins {
            // One statement cannot update a row twice: the last of each key goes.
            let batch = records.lastOfEachKey(\.key)
            let (keys, data) = (batch.map(\.key), batch.map(\.data))
            try await store.transaction { connection in
                try await connection.query(
                    """
                    INSERT INTO staging (snapshot, key, data, page)
                    SELECT \(id), key, data, \(page) FROM unnest(\(keys)::text[], \(data)::text[]) AS t(key, data)
                    ON CONFLICT (snapshot, key) DO UPDATE SET data = excluded.data, page = excluded.page
                    """, logger: logger)
            }
        } else {
            // COPY: the page's rows in one stream, the cheapest way in.
            let rows = Self.copyText(records, snapshot: id, page: page)
            do {
                try await store.transaction { connection in
                    try await connection.copyFrom(
                        table: "staging", columns: ["snapshot", "key", "data", "page"], logger: logger
                    ) { writer in
                        try await writer.write(rows)
                    }
                }
            } catch let error where error.message.contains("SQLSTATE 23505") {
                // A key staged twice, by this page or an earlier one: the server names it.
                throw duplicate(Self.duplicateKey(in: error.message, snapshot: id) ?? records[0].key)
            }
        }
        stagedCount += records.count
    }

    /// `records` as the rows of `COPY … FROM STDIN` in text format: tab between
    /// columns, a line each, backslash, tab, newline and carriage return escaped.
    static func copyText(_ records: [StagedRecord], snapshot: Int64, page: Int?) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(
            capacity: records.reduce(0) { $0 + $1.key.utf8.count + $1.data.utf8.count + 32 })
        let prefix = Array("\(snapshot)\t".utf8)
        let suffix = Array("\t\(page.map(String.init) ?? "\\N")\n".utf8)
        // Runs of bytes that need no escape are copied at once.
        func escaped(_ text: String) {
            var text = text
            text.withUTF8 { bytes in
                var start = 0
                for index in bytes.indices {
                    let escape: StaticString
                    switch bytes[index] {
                    case UInt8(ascii: "\\"): escape = "\\\\"
                    case UInt8(ascii: "\t"): escape = "\\t"
                    case UInt8(ascii: "\n"): escape = "\\n"
                    case UInt8(ascii: "\r"): escape = "\\r"
                    default: continue
                    }
                    buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<index])))
                    buffer.writeStaticString(escape)
                    start = index + 1
                }
                buffer.writeBytes(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start...])))
            }
        }
        for record in records {
            buffer.writeBytes(prefix)
            escaped(record.key)
            buffer.writeInteger(UInt8(ascii: "\t"))
            escaped(record.data)
            buffer.writeBytes(suffix)
        }
        return buffer
    }

    /// The key in the message of a unique violation of `staging`:
    /// `… Key (snapshot, key)=(7, KEY) already exists.`
    static func duplicateKey(in message: String, snapshot: Int64) -> String? {
        guard let start = message.range(of: "=(\(snapshot), "),
            let end = message.range(of: ") already exists", options: .backwards), start.upperBound <= end.lowerBound
        else { return nil }
        return String(message[start.upperBound..<end.lowerBound])
    }

    private func duplicate(_ key: String) -> StoreError {
        StoreError(.duplicateKey, "two items of \(resource) have the same key \"\(key)\"", key: key)
    }

    func unstage(_ keys: [String]) async throws(StoreError) {
        precondition(isOpen, "unstage(_:) after the snapshot was applied or discarded")
        guard !keys.isEmpty else { return }
        let (id, logger) = (id, store.logger)
        try await store.transaction { connection in
            try await connection.query(
                "DELETE FROM staging WHERE snapshot = \(id) AND key = ANY(\(keys)::text[])", logger: logger)
        }
    }

    func keepUnchanged(page: Int) {
        precondition(isOpen, "keepUnchanged(page:) after the snapshot was applied or discarded")
        kept.unchanged.append(page)
    }

    func keep(_ page: StoredPage) {
        kept.pages.append(page)
    }

    func discard() async {
        guard isOpen else { return }
        if (try? await store.dropSnapshot(id)) != nil {
            isOpen = false
        }
    }

    /// Marks the writer as applied (its rows are removed by the applying transaction).
    func close() { isOpen = false }
}

extension PostgresStore {
    /// Implements ``SyncStore/beginSnapshot(of:lastWins:)``.
    public func beginSnapshot(of resource: String, lastWins: Bool) async throws(StoreError) -> any SnapshotWriter {
        let logger = logger
        let now = Timestamp.string(from: self.now())
        let id = try await transaction { connection in
            try await connection.value(
                Int64.self,
                "INSERT INTO snapshots (resource, began_at) VALUES (\(resource), \(now)::timestamptz) RETURNING id",
                logger) ?? 0
        }
        return PostgresSnapshotWriter(store: self, resource: resource, id: id, lastWins: lastWins)
    }

    /// Removes a snapshot's staged rows, even when the calling task is cancelled.
    func dropSnapshot(_ id: Int64) async throws(StoreError) {
        let logger = logger
        try await transaction(cancellable: false) { connection in
            try await connection.query("DELETE FROM staging WHERE snapshot = \(id)", logger: logger)
            try await connection.query("DELETE FROM snapshots WHERE id = \(id)", logger: logger)
        }
    }
}
