import Foundation
import SyncAgentDaemon
import SyncCore
import Synchronization
import UnixSignals

/// `status --watch`: follows the agent's event stream until Ctrl-C (exit 0)
/// or until the agent stops (exit 3).
///
/// On a terminal (and without `--json`) the table is redrawn in place at each
/// change and every second, so relative times stay true. Elsewhere each
/// resource's state as the stream starts, then each change, is one line:
/// `2026-11-21T10:00:00.123Z users syncing …`, or the Resource object with
/// `--json`.
struct StatusWatch: Sendable {
    /// Only this resource, if set.
    var name: String?
    package var json: Bool

    private enum Ending: Sendable {
        case interrupted, agentStopped
    }

    /// Follows the agent, starting from `initial`.
    package func run(_ agent: AgentClient, initial: [ResourceStatus]) async throws {
        let width = json ? nil : Terminal.width
        // Lines start from the stream's own first state of each resource.
        let board = Board(width == nil ? [] : initial.filter { name == nil || $0.name == name })
        let watch = self
        let draw: @Sendable () -> Void = {
            guard let width else { return }
            let statuses = board.statuses.withLock { $0 }
            Terminal.redraw(
                StatusCommand.render(statuses, width: width, height: Terminal.height.map { $0 - 2 })
                    + "\n\nFollowing the agent's changes; Ctrl-C to stop.")
        }
        draw()
        let ending = await withTaskGroup(of: Ending?.self) { group in
            group.addTask {
                for await _ in await UnixSignalsSequence(trapping: .sigint, .sigterm) { return .interrupted }
                return nil
            }
            group.addTask {
                // The stream also ends when this client fell too far behind:
                // while the agent still answers, follow it again.
                repeat {
                    try? await agent.followChanges { status in
                        guard watch.name == nil || status.name == watch.name else { return true }
                        let changed = board.statuses.withLock { board -> Bool in
                            guard let index = board.firstIndex(where: { $0.name == status.name }) else {
                                board.append(status)
                                return true
                            }
                            defer { board[index] = status }
                            return watch.differs(board[index], status, onTerminal: width != nil)
                        }
                        guard changed else { return true }
                        if width != nil {
                            draw()
                        } else {
                            Console.out(watch.line(status))
                            Console.flush()
                        }
                        return true
                    }
                    guard (try? await Task.sleep(for: .milliseconds(500))) != nil else { return nil }
                } while UnixSocketPath.connects(to: agent.socket)
                return .agentStopped
            }
            if width != nil {
                group.addTask {
                    while (try? await Task.sleep(for: .seconds(1))) != nil { draw() }
                    return nil
                }
            }
            var ending: Ending?
            while ending == nil, let next = await group.next() { ending = next }
            group.cancelAll()
            return ending ?? .interrupted
        }
        await agent.shutdown()
        if ending == .agentStopped {
            Console.error("sync-agent: the agent stopped")
            throw ExitStatus.notRunning
        }
    }

    /// One change as a line: the Resource object with `--json`, else the
    /// time and the ``summary(_:)``.
    func line(_ status: ResourceStatus, now: Date = Date()) -> String {
        if json { return JSONValue(encoding: status).serialized() }
        return TimestampText.string(from: now) + " " + summary(status)
    }

    /// What a line says of a resource: its name, state, message, and error when failed.
    func summary(_ status: ResourceStatus) -> String {
        var parts = [status.name, status.state.rawValue]
        if let message = status.message { parts.append(message) }
        if let error = status.lastError, status.state == .failed { parts.append(error.message) }
        return parts.joined(separator: " ")
    }

    /// Whether a change is worth showing: any change for the table and for
    /// `--json`; for a line, a change of what the line says.
    func differs(_ old: ResourceStatus, _ new: ResourceStatus, onTerminal: Bool) -> Bool {
        onTerminal || json ? old != new : summary(old) != summary(new)
    }
}

/// The statuses a watch shows, shared by the task that follows the agent
/// and the one that redraws.
private final class Board: Sendable {
    package let statuses: Mutex<[ResourceStatus]>

    init(_ statuses: [ResourceStatus]) {
        self.statuses = Mutex(statuses)
    }
}
