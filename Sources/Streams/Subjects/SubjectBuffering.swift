/// How many undelivered elements a subject keeps for each consumer.
public enum SubjectBuffering: Sendable, Hashable {
    /// Every element is kept until its consumer takes it.
    case unbounded
    /// Only the newest elements are kept; older ones are dropped. `bufferingNewest(1)`
    /// suits state, where only the latest value matters.
    case bufferingNewest(Int)
}
