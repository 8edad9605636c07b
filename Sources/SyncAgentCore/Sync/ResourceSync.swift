import Foundation
import Logging
import Store

/// One sync of one resource, from the first request to the recorded outcome.
///
/// The pages stream into a ``SnapshotWriter`` as they arrive; only when the
/// last page is in is the snapshot applied, in one transaction with the
/// resource's state and the run's history row. Any failure leaves the previous
/// snapshot as it was.
struct ResourceSync: Sendable {
    let resource: ResourceConfig
    let store: SyncStore
    let transport: HTTPTransport
    let redactor: Redactor
    let logger: Logger
    /// Told after each page.
    var onProgress: @Sendable (SyncProgress) -> Void = { _ in }

    /// Runs the sync and records it; never throws: every failure is in the result.
    func run(trigger: SyncTrigger) async -> SyncResult {
        let startedAt = Date()
        var progress = Progress()
        var snapshot: SnapshotWriter?
        var logger = logger
        logger[metadataKey: LogKey.resource] = "\(resource.name)"
        do {
            let fetch = ResourceFetch(
                resource: resource, transport: transport, redactor: redactor,
                dependencyValues: try await dependencyValues())
            let validators = try await store.resource(named: resource.name)?.validators ?? Validators()
            for try await page in fetch.pages(validators: validators) {
                if page.notModified {
                    logger.debug("not modified")
                    return await finish(.notModified, trigger: trigger, startedAt: startedAt, progress: progress)
                }
                if snapshot == nil { snapshot = try await store.beginSnapshot(of: resource.name) }
                try await snapshot!.stage(page.records)
                progress.add(page)
                onProgress(SyncProgress(resource: resource.name, pages: progress.pages, items: progress.items))
                logger.debug(
                    "page received",
                    metadata: [LogKey.page: "\(page.number)", LogKey.items: "\(progress.items)"])
            }
            if snapshot == nil { snapshot = try await store.beginSnapshot(of: resource.name) }
            return await finish(
                .success, trigger: trigger, startedAt: startedAt, progress: progress, snapshot: snapshot)
        } catch {
            // A cancelled task's request fails with a network error; it is a cancellation all the same.
            let (outcome, stored) = Self.describe(Task.isCancelled ? CancellationError() : error)
            if outcome == .cancelled {
                logger.notice("sync cancelled")
            } else {
                // The resource is the line's prefix already.
                let prefix = "\(resource.name): "
                logger.warning(
                    "\(stored.message.hasPrefix(prefix) ? String(stored.message.dropFirst(prefix.count)) : stored.message)"
                )
            }
            return await finish(
                outcome, trigger: trigger, startedAt: startedAt, progress: progress, snapshot: snapshot, error: stored)
        }
    }

    /// What has been received so far.
    struct Progress {
        var pages = 0
        var items = 0
        var bytes = 0
        var validators = Validators()

        mutating func add(_ page: FetchedPage) {
            if page.number == 1 { validators = page.validators }
            pages += 1
            items += page.records.count
            bytes += page.bytes
        }
    }

    private func finish(
        _ outcome: SyncOutcome, trigger: SyncTrigger, startedAt: Date, progress: Progress,
        snapshot: SnapshotWriter? = nil, error: StoredError? = nil
    ) async -> SyncResult {
        let state: ResourceState =
            switch outcome {
            case .success, .notModified, .cancelled: .idle
            case .offline: .offline
            case .failed, .gaveUp: .failed
            }
        var sync = FinishedSync(
            resource: resource.name, trigger: trigger, startedAt: startedAt, outcome: outcome, state: state,
            pages: progress.pages, items: progress.items, bytes: progress.bytes, error: error,
            validators: progress.validators)
        var recorded = RecordedSync(finishedAt: Date(), changes: SnapshotChanges())
        do {
            recorded = try await store.record(sync, snapshot: snapshot)
        } catch {
            // The snapshot could not be applied (disk full, database busy): the
            // previous one stays, and the failure is what the caller learns.
            await snapshot?.discard()
            sync.outcome = .failed
            sync.error = StoredError(kind: "store", message: error.message)
            logger.error("\(error.message)", metadata: [LogKey.resource: "\(resource.name)"])
        }
        return SyncResult(
            resource: resource.name, outcome: sync.outcome, pages: sync.pages, items: sync.items,
            attempts: sync.attempts,
            durationMilliseconds: Int((recorded.finishedAt.timeIntervalSince(startedAt) * 1000).rounded()),
            error: sync.error, changes: recorded.changes)
    }

    /// The values of this resource's `{resource:/pointer}` placeholders, read
    /// from each named resource's single record.
    private func dependencyValues() async throws -> [URLTemplate.Dependency: String] {
        var values: [URLTemplate.Dependency: String] = [:]
        for dependency in resource.url.dependencies {
            let records = try await store.records(of: dependency.resource, limit: 2)
            guard records.count == 1 else {
                throw DependencyError(
                    message: records.isEmpty
                        ? "\(resource.name): resource \"\(dependency.resource)\" has no record yet, so \(dependency) "
                            + "cannot be filled; refresh \(dependency.resource) first"
                        : "\(resource.name): resource \"\(dependency.resource)\" has more than one record, so "
                            + "\(dependency) cannot be filled (a dependency must be a single record)")
            }
            let document = try JSONDocument(validating: Array(records[0].data.utf8))
            guard let span = document.span(at: dependency.pointer),
                let value = document.string(at: span)
                    ?? (document.kind(of: span) == .number ? document.text(of: span) : nil)
            else {
                throw DependencyError(
                    message: "\(resource.name): the record of \"\(dependency.resource)\" has no string or number at "
                        + "\"\(dependency.pointer)\" to fill \(dependency)")
            }
            values[dependency] = value
        }
        return values
    }

    struct DependencyError: Error {
        var message: String
    }

    /// The outcome and stored error for a failure.
    static func describe(_ error: any Error) -> (SyncOutcome, StoredError) {
        switch error {
        case let error as FetchError:
            let outcome: SyncOutcome = error.kind == .offline ? .offline : .failed
            return (outcome, StoredError(kind: error.kind.rawValue, message: error.description, status: error.status))
        case let error as StoreError where error.kind == .duplicateKey:
            return (.failed, StoredError(kind: "unrecoverable", message: error.message))
        case let error as StoreError:
            return (.failed, StoredError(kind: "store", message: error.message))
        case let error as DependencyError:
            return (.failed, StoredError(kind: "unrecoverable", message: error.message))
        case is CancellationError:
            return (.cancelled, StoredError(kind: "cancelled", message: "the sync was cancelled"))
        default:
            return (.failed, StoredError(kind: "unrecoverable", message: "\(error)"))
        }
    }
}

/// The metadata keys of the agent's log lines.
enum LogKey {
    static let resource = "resource"
    static let page = "page"
    static let items = "items"
    static let attempt = "attempt"
    static let syncID = "sync.id"
}
