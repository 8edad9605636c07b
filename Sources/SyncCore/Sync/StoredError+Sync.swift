import Store

extension StoredError {
    /// The error of a sync that was cancelled.
    static func cancelled(_ resource: String) -> StoredError {
        StoredError(kind: .cancelled, message: "\(resource): the sync was cancelled")
    }

    /// The outcome and stored error of a sync of `resource` that failed with `error`.
    static func describing(_ error: any Error, resource: String) -> (SyncOutcome, StoredError) {
        switch error {
        case let error as FetchError where error.kind == .transient && error.ofMachine:
            // Out of descriptors or memory: the machine's condition, which passes.
            return (.gaveUp, StoredError(kind: .storage, message: error.description, status: error.status))
        case let error as FetchError:
            // A transient failure that ends a sync has used up its retries.
            let (outcome, kind): (SyncOutcome, StoredError.Kind) =
                switch error.kind {
                case .offline: (.offline, .offline)
                case .transient: (.gaveUp, .transient)
                case .rateLimited: (.rateLimited, .rateLimited)
                case .unrecoverable: (.failed, .unrecoverable)
                }
            return (outcome, StoredError(kind: kind, message: error.description, status: error.status))
        case is CancellationError:
            return (.cancelled, cancelled(resource))
        case let error as StoreError where error.kind == .cancelled:
            return (.cancelled, cancelled(resource))
        case let error as StoreError where error.kind == .notOwner:
            return (.cancelled, StoredError(kind: .cancelled, message: "\(resource): \(error.message)"))
        case let error as StoreError where error.isTransient:
            return (.gaveUp, StoredError(kind: .storage, message: "\(resource): \(error.message)"))
        case let error as StoreError:
            return (.failed, StoredError(kind: .store, message: "\(resource): \(error.message)"))
        case let error as RefreshLock.Failure:
            let kind: StoredError.Kind = error.isTransient ? .storage : .store
            return (
                error.isTransient ? .gaveUp : .failed, StoredError(kind: kind, message: "\(resource): \(error.message)")
            )
        case let error as DependencyError:
            return (.failed, StoredError(kind: .unrecoverable, message: error.message))
        default:
            return (.failed, StoredError(kind: .unrecoverable, message: "\(resource): \(error)"))
        }
    }
}
