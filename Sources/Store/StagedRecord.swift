import Foundation

/// One record of a page: its key and its JSON.
public struct StagedRecord: Sendable, Hashable {
    /// The record's key within its resource.
    public var key: String
    /// The item's JSON text.
    public var data: String

    /// Creates a staged record.
    public init(key: String, data: String) {
        self.key = key
        self.data = data
    }
}
