import Synchronization

/// A list that concurrent tasks append to and a test reads: the events an
/// operator emitted, the requests a fake made, the order things happened in.
///
/// Thread-safety: `Sendable`; its values are behind a `Mutex`.
public final class Recorder<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])

    /// Creates an empty recorder.
    public init() {}

    /// Appends a value.
    public func record(_ value: Element) {
        storage.withLock { $0.append(value) }
    }

    /// Every value recorded so far, in order.
    public var values: [Element] { storage.withLock { $0 } }

    /// How many values have been recorded.
    public var count: Int { storage.withLock { $0.count } }
}
