import Store

extension SyncContext {
    /// One sync of `resource` with this context, from its first request to its
    /// recorded outcome: the ``ResourceSync`` that the engine and a standalone
    /// `refresh` run, without their lock file and slow signal. The `sync` fuzz
    /// target drives whole syncs through it (docs/testing.md#fuzzing).
    package func sync(_ resource: ResourceConfig, trigger: SyncTrigger) async -> SyncReport {
        await ResourceSync(resource: resource, context: self).run(trigger: trigger)
    }
}
