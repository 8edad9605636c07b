/// When a poll runs next (docs/cli.md#when-a-resource-syncs): an
/// `interval` after the end of the last *successful* run, plus a random delay
/// of up to `jitter`. A failure does not move that time, unless it has passed
/// already (then the next run is an interval after the failure); a failure
/// that stops polling leaves no next run until a trigger.
///
/// A pure value: its rules are tested without any clock. ``poll(every:jitter:clock:firstRunAfter:triggers:random:stopsAfter:operation:)``
/// keeps one per poll; a scheduler of many polls on one timer may keep one per poll too.
public struct PollSchedule<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// The time from the end of a successful run to the next one.
    public let interval: Duration
    /// The most added at random to `interval`.
    public let jitter: Duration
    /// When the next run is due, or `nil` while polling is stopped.
    public private(set) var due: Instant?

    /// A schedule whose first run is due at `firstRun`.
    public init(interval: Duration, jitter: Duration, firstRun: Instant) {
        self.interval = interval
        self.jitter = jitter
        due = firstRun
    }

    /// A run succeeded, ending at `end`; `unit` (in `0..<1`) draws the jitter.
    public mutating func succeeded(at end: Instant, unit: Double) {
        due = end.advanced(by: interval + jitter * unit)
        stopped = false
    }

    /// A run failed, ending at `end`; `stop` says whether polling stops.
    public mutating func failed(at end: Instant, stop: Bool) {
        if stop {
            due = nil
            stopped = true
        } else if let current = due, current > end {
            // The schedule stands: failures do not move the clock.
        } else {
            due = end.advanced(by: interval)
        }
    }

    /// A run failed and asked for the next one at `next`.
    public mutating func deferred(to next: Instant) {
        due = next
        stopped = false
    }

    /// Whether polling stopped after a failure.
    public private(set) var stopped = false
}
