import Foundation
import Store
import Streams

/// The engine in a fleet (docs/fleet.md): it polls the resources whose leases it holds.
extension SyncEngine {
    /// Holds this agent's part of the fleet's resources (docs/fleet.md): every
    /// ``FleetLeases/renewEvery`` a round renews, gives up and takes
    /// leases; a resource whose lease is taken is scheduled from its last
    /// success (whichever agent synced it), one whose lease is given up or
    /// lost stops, its sync in flight cancelled, and a lease given up goes
    /// back once that sync has ended (docs/fleet.md#handovers). A round that
    /// takes longer than ``FleetLeases/renewEvery`` fails; once the leases
    /// could not be renewed for two thirds of the lease time (counted from the
    /// start of the last round that renewed them, before which the store's
    /// lease time began), every sync stops, a third of the lease time before
    /// the leases can expire and be taken. As the agent stops, ``run()``
    /// gives every lease back once its syncs have ended.
    func followLeases(_ leases: any FleetLeases) async {
        var renewed = clock.now
        repeat {
            let started = clock.now
            // Every resource with a sync in flight, a cancelled one included until it ends.
            let names = config.resources.map(\.name)
            let busy = Set(names.filter(syncs.isActive))
            let round: LeaseRound
            do {
                round = try await withTimeout(leases.renewEvery, timers: timers) {
                    try await leases.round(configured: names, busy: busy)
                }
            } catch {
                let reason =
                    (error as? StoreError)?.message
                    ?? "\(leases.server) did not finish the round within \(String(format: "%.2f", leases.renewEvery.seconds)) s"
                logger.warning("fleet: the leases were not renewed: \(reason)")
                if renewed.duration(to: clock.now) >= leases.leaseTime * 2 / 3 {
                    stopPolling(leases.forgetAll())
                }
                continue
            }
            renewed = started
            stopPolling(round.lost)
            // Read once: the schedule of what was taken, and what the others hold.
            let rows = try? await store.resources()
            let byName = Dictionary((rows ?? []).map { ($0.name, $0) }) { first, _ in first }
            for name in round.gained {
                guard let resource = config.resource(named: name) else { continue }
                let first = scheduler.schedule(resource, lastSuccessAt: byName[name]?.lastSuccessAt)
                publication.handle(name, .scheduled(first))
            }
            if rows != nil { await showFleet(leases, rows: byName) }
            if !round.gained.isEmpty || !round.lost.isEmpty {
                logger.info(
                    "fleet: \(leases.owned.count) of \(config.resources.count) resources here, \(round.agents) agents",
                    metadata: ["took": "\(round.gained.count)", "gave": "\(round.lost.count)"])
            }
        } while (try? await clock.sleep(for: leases.renewEvery)) != nil
    }

    /// Refreshes `name` for another agent of the fleet that asked, if this agent
    /// holds its lease: the asker reads the run's row when it is recorded.
    func answerRefreshRequest(_ name: String) {
        guard leases?.token(for: name) != nil, let resource = resource(named: name) else { return }
        Task { _ = await self.refresh(resource) }
    }

    /// Shows every resource with the agent that holds it: this agent's with
    /// their live state, the others' as stored (`rows`, by name).
    func showFleet(_ leases: any FleetLeases, rows byName: [String: ResourceRow]) async {
        guard let owners = try? await leases.owners() else { return }
        let mine = leases.owned
        for resource in config.resources {
            let name = resource.name
            if mine.contains(name) {
                publication.handle(name, .owned(by: leases.agent))
            } else {
                publication.handle(name, .stored(byName[name], owner: owners[name]))
            }
        }
    }

    /// Stops polling resources whose leases this agent no longer holds.
    func stopPolling(_ names: [String]) {
        for name in names {
            scheduler.unschedule(name)
            syncs.cancel(name)
            publication.handle(name, .scheduled(nil))
        }
    }
}
