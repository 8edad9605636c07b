import Store
import Streams

extension SyncEngine {
    /// Runs the polls the schedule says are due until cancelled: one timer
    /// for every resource (docs/architecture.md#what-a-resource-costs), a task
    /// per running poll only; and the dependent resources, which follow a
    /// change of the records their URLs read.
    func runPolls() async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.followDependencies() }
            while !Task.isCancelled {
                for ticket in await scheduler.duePolls(online: { connectivity.online.value }) {
                    group.addTask { await self.poll(ticket) }
                }
            }
            group.cancelAll()
        }
    }

    /// Runs the poll of `ticket`, a slot taken for it. Its own run ends in
    /// ``perform``; a poll that joined another's run, was skipped or was
    /// cancelled gives its slot back here.
    private func poll(_ ticket: SyncScheduler<C>.Ticket) async {
        let resource = ticket.resource
        var ran = false
        // At startup a resource whose URL reads a record that does not exist
        // yet waits for it: the dependency's first sync triggers it.
        var waits = false
        if ticket.startup, !resource.dependencies.isEmpty {
            waits = (try? await resource.dependencyValues(in: store)) == nil
        }
        if !waits {
            let (report, joined) = await sync(resource, trigger: ticket.startup ? .startup : .poll, ticket: ticket)
            ran = report.outcome != .cancelled
            // Its own run ended in `perform`, which gave the slot back.
            if ran, !joined { return }
        }
        // Cancelled: the agent is stopping, and the schedule with it.
        if let next = scheduler.returned(ticket, ran: ran), !Task.isCancelled {
            publication.handle(ticket.name, .scheduled(next))
        }
    }

    /// Syncs each resource again when the values its URL reads change,
    /// switching to the latest (one change at a time, in order): a sync in
    /// flight with the old values is cancelled.
    private func followDependencies() async {
        await withDiscardingTaskGroup { group in
            for await name in dependencyChanges.stream {
                guard let (resource, number) = scheduler.follow(name),
                    let values = try? await resource.dependencyValues(in: store),
                    scheduler.read(values, for: name, number: number)
                else { continue }
                syncs.cancel(name)
                group.addTask { _ = await self.sync(resource, trigger: .dependency) }
            }
        }
    }
}
