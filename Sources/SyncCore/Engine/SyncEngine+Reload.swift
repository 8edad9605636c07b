import Foundation
import Store

/// The engine taking a new configuration (docs/systemd.md#reloading) or new secrets.
extension SyncEngine {
    /// Runs on `new` from now on (docs/systemd.md#reloading): a resource
    /// added starts, one removed stops (its records stay), one changed is
    /// scheduled anew (from its last success if only its settings changed,
    /// at once if its request did), a sync of either in flight is cancelled;
    /// an unchanged one keeps its state and its sync in flight.
    /// `new` must need no restart (``AgentConfig/restartOnlyChanges(to:)``).
    package func reload(_ new: AgentConfig) async -> ReloadSummary {
        let reload = lastReload.withLock { last in
            let previous = last
            let next = Task {
                _ = await previous?.value
                return await self.apply(new)
            }
            last = next
            return next
        }
        return await reload.value
    }

    private func apply(_ new: AgentConfig) async -> ReloadSummary {
        // A secret read again is no change: compared with the same values.
        let old = configWithCurrentSecrets()
        var new = new
        new.redactor = new.redactor.following(old.redactor)
        let oldByName = Dictionary(old.resources.map { ($0.name, $0) }) { first, _ in first }
        let newNames = Set(new.resources.map(\.name))
        var summary = ReloadSummary()
        summary.removed = old.resources.map(\.name).filter { !newNames.contains($0) }
        for resource in new.resources {
            guard let before = oldByName[resource.name] else {
                summary.added.append(resource.name)
                continue
            }
            if before != resource { summary.changed.append(resource.name) }
        }
        // Columns are the readers' business: a change rebuilds the tables, not the syncs.
        let retabled = new.resources.filter { resource in
            oldByName[resource.name].map { $0 == resource && $0.table != resource.table } ?? false
        }.map(\.name)
        for name in summary.removed + summary.changed {
            scheduler.unschedule(name)
            syncs.cancel(name)
        }
        currentBudgets.withLock { $0 = $0.reconfigured(for: new.resources) }
        scheduler.setLimits(new.syncLimits)
        secretsCheck.withLock { _ in currentConfig.withLock { $0 = new } }
        metrics.setResources(new.resources.map(\.name))
        let rows = Dictionary(((try? await store.resources()) ?? []).map { ($0.name, $0) }) { first, _ in first }
        var added: [ResourceMachine] = []
        for name in summary.added + summary.changed {
            guard let resource = new.resource(named: name) else { continue }
            // What a changed one asks for changed: its records answer the old request.
            var asked = oldByName[name]
            asked?.settings = resource.settings
            let askedAlike = asked == nil || asked == resource
            // The engine's own view first: on the clock its schedule runs on.
            let lastSuccess =
                askedAlike ? publication.status(of: name)?.lastSuccessAt ?? rows[name]?.lastSuccessAt : nil
            // In a fleet, the next round of leases schedules what this agent holds.
            let first =
                leases.map { $0.token(for: name) == nil } ?? false
                ? nil : scheduler.schedule(resource, lastSuccessAt: lastSuccess)
            if summary.added.contains(name) {
                added.append(ResourceMachine(name: name, row: rows[name], nextSyncAt: first))
            } else {
                publication.handle(name, .scheduled(first))
            }
        }
        publication.setResources(new.resources.map(\.name), adding: added)
        if !retabled.isEmpty || old.resources.map(\.table) != new.resources.map(\.table) {
            await keepTypedTables(of: new)
        }
        summary.changed += retabled
        return summary
    }

    /// The configuration in force, its secrets read again first if a file
    /// they come from changed (docs/configuration.md#substitution-and-secrets):
    /// one `stat` per file, and no read when none changed. When they cannot be
    /// read again, a warning tells why, once per change of the files, and the
    /// values in force stay.
    package func configWithCurrentSecrets() -> AgentConfig {
        secretsCheck.withLock { failed in
            let config = self.config
            let files = config.source.secretFiles
            let now = files.restamped()
            let changed = now.paths(differingFrom: files)
            guard !changed.isEmpty, now != failed else { return config }
            do throws(ConfigError) {
                let fresh = try config.rereadingSecrets()
                currentConfig.withLock { $0 = fresh }
                failed = nil
                logger.notice("read the secrets again: \(changed.joined(separator: ", ")) changed")
                return fresh
            } catch {
                failed = now
                let problems = error.problems.map(\.description).joined(separator: "; ")
                logger.warning(
                    """
                    \(changed.joined(separator: ", ")) changed, but the secrets cannot be read again; \
                    the agent goes on with the values it has: \(config.redactor.redact(problems))
                    """)
                return config
            }
        }
    }
}
