import Store

extension SyncRunRow {
    /// The run as `sync-agent history --json` and `GET /v1/resources/NAME/runs`
    /// show it (docs/api.md#health-checks-and-the-runs-of-a-resource).
    package var json: JSONValue {
        [
            "id": .number(Int(id)),
            "resource": .string(resource),
            "trigger": .string(trigger.rawValue),
            "startedAt": JSONValue(encoding: startedAt),
            "finishedAt": JSONValue(encoding: finishedAt),
            "outcome": .string(outcome.rawValue),
            "attempts": .number(counts.attempts),
            "pages": .number(counts.pages),
            "items": .number(counts.items),
            "bytes": .number(counts.bytes),
            "wireBytes": .number(counts.wireBytes),
            "durationMs": .number(durationMilliseconds),
            "changes": [
                "added": .number(changes.added), "changed": .number(changes.changed),
                "removed": .number(changes.removed),
            ],
            "error": JSONValue(encoding: error),
            "since": JSONValue(encoding: since),
        ]
    }
}
