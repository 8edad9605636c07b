import FuzzTargets

#if FUZZING
import Foundation

// Built by `scripts/fuzz` with `--sanitize=fuzzer -DFUZZING`: libFuzzer owns `main` and
// calls these (docs/testing.md#fuzzing). The target is named by $SYNC_AGENT_FUZZ_TARGET.

nonisolated(unsafe) private var target: FuzzTarget?

/// libFuzzer calls this once, before the first input: it picks the target.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    let name = ProcessInfo.processInfo.environment["SYNC_AGENT_FUZZ_TARGET"] ?? ""
    guard let named = FuzzTarget.named(name) else {
        FileHandle.standardError.write(Data("SYNC_AGENT_FUZZ_TARGET=\(name): no such target\n".utf8))
        exit(64)
    }
    target = named
    return 0
}

/// libFuzzer calls this with each input: a property that does not hold aborts, so
/// that libFuzzer saves the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = count == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: count))
    do {
        try target!.check(input)
    } catch {
        FileHandle.standardError.write(Data("\n*** \(target!.name): the property does not hold: \(error)\n".utf8))
        abort()
    }
    return 0
}
#else
import Foundation

/// Without libFuzzer: lists the targets, or checks one target's property on files,
/// as `FuzzTests` does for the checked-in inputs.
@main
enum SyncAgentFuzz {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--list" {
            for target in FuzzTarget.all { print("\(target.name)\t\(target.property)") }
            return
        }
        guard arguments.count >= 2, let target = FuzzTarget.named(arguments[0]) else {
            let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
            FileHandle.standardError.write(
                Data("usage: sync-agent-fuzz --list | TARGET FILE...  (targets: \(names))\n".utf8))
            exit(64)
        }
        var failed = 0
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("\(path): cannot read it\n".utf8))
                exit(66)
            }
            do {
                try target.check(Array(data))
            } catch {
                failed += 1
                print("\(path): \(error)")
            }
        }
        print("\(target.name): \(arguments.count - 1 - failed) of \(arguments.count - 1) inputs hold the property")
        exit(failed == 0 ? 0 : 1)
    }
}
#endif
