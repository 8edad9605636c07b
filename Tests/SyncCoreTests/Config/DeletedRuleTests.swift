import Testing

@testable import SyncCore

/// `deleted` as the configuration says it (docs/configuration.md#deletions),
/// on snapshot and incremental resources alike.
@Suite struct DeletedRuleTests {
    func rule(_ deleted: String, _ extra: String = "") throws -> DeletedRule? {
        let members = #""deleted": \#(deleted)"# + (extra.isEmpty ? "" : ", " + extra)
        return try decodeConfig(#"{"resources": [\#(resource("users", members))]}"#).resources[0].deleted
    }

    @Test func eachFormIsLoaded() throws {
        #expect(try rule(#"{"pointer": "/deleted"}"#) == DeletedRule(pointer: try JSONPointer("/deleted")))
        #expect(
            try rule(#"{"pointer": "/status", "equals": "deleted"}"#)
                == DeletedRule(pointer: try JSONPointer("/status"), match: .equals([.string("deleted")])))
        #expect(
            try rule(#"{"pointer": "/status", "equals": ["deleted", "removed"]}"#)
                == DeletedRule(
                    pointer: try JSONPointer("/status"), match: .equals([.string("deleted"), .string("removed")])))
        #expect(
            try rule(#"{"pointer": "/@removed", "present": true}"#)
                == DeletedRule(pointer: try JSONPointer("/@removed"), match: .present))
        #expect(
            try rule(#"{"pointer": "/type", "equals": "deleted", "key": "/deleted_id"}"#)
                == DeletedRule(
                    pointer: try JSONPointer("/type"), match: .equals([.string("deleted")]),
                    key: try JSONPointer("/deleted_id")))
    }

    @Test func aSnapshotResourceMayHaveOneAndAnIncrementalOneKeepsIt() throws {
        #expect(try rule(#"{"pointer": "/deleted"}"#) != nil)
        let incremental = try decodeConfig(
            #"""
            {"resources": [\#(resource("users", #""mode": "incremental", "since": {"field": "/u", "param": "s"}, "deleted": {"pointer": "/gone"}"#))]}
            """#
        ).resources[0]
        #expect(incremental.incremental != nil)
        #expect(incremental.deleted == DeletedRule(pointer: try JSONPointer("/gone")))
        #expect(try decodeConfig(#"{"resources": [\#(resource())]}"#).resources[0].deleted == nil)
    }
}
