import Store

extension SyncRunRow {
    /// The run as `sync-agent history --json` and `GET /v1/resources/NAME/runs`
    /// show it (docs/api.md#health-checks-and-the-runs-of-a-resource): while
    /// it runs, `outcome`, `finishedAt` and `durationMs` are null.
    package var json: JSONValue {
        [
            "id": .number(Int(id)),
            "resource": .string(resource),
            "trigger": .string(trigger.rawValue),
            "startedAt": JSONValue(encoding: startedAt),
            "finishedAt": JSONValue(encoding: finishedAt),
            "outcome": outcome.map { JSONValue.string($0.rawValue) } ?? .null,
            "attempts": .number(counts.attempts),
            "pages": .number(counts.pages),
            "items": .number(counts.items),
            "bytes": .number(counts.bytes),
            "wireBytes": .number(counts.wireBytes),
            "durationMs": durationMilliseconds.map { JSONValue.number($0) } ?? .null,
            "changes": [
                "added": .number(changes.added), "changed": .number(changes.changed),
                "removed": .number(changes.removed),
            ],
            "error": JSONValue(encoding: error),
            "since": JSONValue(encoding: since),
        ]
    }
}
