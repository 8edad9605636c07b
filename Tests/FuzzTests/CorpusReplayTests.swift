import Foundation
import FuzzTargets
import Testing

/// Each fuzz target's checked-in inputs (docs/testing.md#fuzzing), replayed without
/// libFuzzer: its seed corpus (`fuzz/corpus/NAME`) and every input that once broke it
/// (`fuzz/regressions/NAME`).
@Suite struct CorpusReplayTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fuzz")

    static let targetNames = FuzzTarget.all.map(\.name)

    @Test(arguments: targetNames)
    func corpusHoldsTheProperty(_ name: String) throws {
        let inputs = try Self.inputs(of: name, in: "corpus")
        #expect(!inputs.isEmpty, "fuzz/corpus/\(name) has no seed input")
        try Self.replay(name, inputs)
    }

    @Test(arguments: targetNames)
    func regressionsHoldTheProperty(_ name: String) throws {
        try Self.replay(name, try Self.inputs(of: name, in: "regressions"))
    }

    @Test func everyFolderNamesATarget() throws {
        for kind in ["corpus", "regressions"] {
            let folder = Self.fuzzFolder.appendingPathComponent(kind)
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            for name in names where !name.hasPrefix(".") {
                #expect(Self.targetNames.contains(name), "fuzz/\(kind)/\(name) belongs to no target")
            }
        }
    }

    private static func inputs(of name: String, in kind: String) throws -> [URL] {
        let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    private static func replay(_ name: String, _ inputs: [URL]) throws {
        let target = try #require(FuzzTarget.named(name))
        for input in inputs {
            let bytes = Array(try Data(contentsOf: input))
            do {
                try target.check(bytes)
            } catch {
                Issue.record("\(name), fuzz/\(input.pathComponents.suffix(3).joined(separator: "/")): \(error)")
            }
        }
    }
}
