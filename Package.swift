// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "sync-agent",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "sync-agent", targets: ["SyncAgent"]),
        .executable(name: "test-upstream", targets: ["TestUpstreamServer"]),
        .executable(name: "streams-bench", targets: ["StreamsBenchmark"]),
        .executable(name: "sync-agent-fuzz", targets: ["SyncAgentFuzz"]),
        .library(name: "Streams", targets: ["Streams"]),
        .library(name: "StreamsTesting", targets: ["StreamsTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Already in the graph for postgres-nio; the status page's Content-Security-Policy hashes its script.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // No default traits: they bring swift-configuration and full Foundation, which the agent does not use.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    ],
    targets: [
        // The layers, lowest first; arrows only point down (docs/architecture.md#layers,
        // checked by scripts/check-layers).
        .target(name: "Streams", dependencies: [.product(name: "DequeModule", package: "swift-collections")]),
        .target(name: "StreamsTesting"),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "Store",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        .target(
            name: "SyncCore",
            dependencies: [
                "Streams", "Store", "CZlib",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),
        .target(
            name: "SyncAgentDaemon",
            dependencies: [
                "SyncCore", "Store", "Streams",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        .target(
            name: "SyncAgentCLI",
            dependencies: [
                "SyncAgentDaemon", "SyncCore", "Store", "Streams", "DemoUpstream",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]),
        .executableTarget(
            name: "SyncAgent",
            dependencies: [
                "SyncAgentCLI", "SyncAgentDaemon",
                .target(name: "ICUData", condition: .when(platforms: [.linux])),
                .product(name: "Logging", package: "swift-log"),
            ],
            linkerSettings: [
                // Release builds for Linux touch fewer pages at startup (a third less
                // peak memory, measured by `scripts/bench refresh`): lld packs the
                // relative relocations of the position-independent executable (RELR,
                // glibc 2.36+), and the executable exports no symbols for libraries to
                // search. `scripts/build-release` also links the Swift runtime statically.
                .unsafeFlags(
                    [
                        "-use-ld=lld",
                        "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                        "-Xlinker", "--no-export-dynamic",
                    ],
                    .when(platforms: [.linux], configuration: .release)
                )
            ]
        ),
        // The ICU data of static builds: what the agent uses of it (named time zones, date
        // patterns), 1.8 MB instead of the toolchain's 34 MB. Linked, not imported
        // (docs/architecture.md#binary-size).
        .target(name: "ICUData", exclude: ["data"]),
        // The demo's API (collections, validators, faults): the product's part of the test upstream.
        .target(
            name: "DemoUpstream",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        // Test support, which no product target depends on (docs/architecture.md#layers,
        // the ```test-support block): real servers for tests and benchmarks (PostgreSQL),
        // started in a temporary folder; the test upstream, the demo's with imitations of
        // vendors' APIs, rate limits and an OAuth2 server.
        .target(name: "TestServers"),
        .target(
            name: "TestUpstream",
            dependencies: [
                "DemoUpstream",
                .product(name: "NIOCore", package: "swift-nio"),
            ]),
        .executableTarget(
            name: "TestUpstreamServer",
            dependencies: [
                "TestUpstream",
                .target(name: "ICUData", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The fuzz targets (docs/testing.md#fuzzing): properties of the agent's hand-written
        // parsers, which `scripts/fuzz` runs under libFuzzer and FuzzTests replays.
        .target(
            name: "FuzzTargets",
            dependencies: [
                "SyncCore", "Store", "Streams", "SyncAgentDaemon", "TestUpstream",
                .product(name: "Logging", package: "swift-log"), .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        .executableTarget(name: "SyncAgentFuzz", dependencies: ["FuzzTargets"]),
        .executableTarget(
            name: "StreamsBenchmark",
            dependencies: ["Streams"]
        ),
        .testTarget(
            name: "StreamsTests",
            dependencies: [
                "Streams", "StreamsTesting",
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
            ]
        ),
        .testTarget(
            name: "StoreTests",
            dependencies: [
                "Store", "StreamsTesting", "TestServers", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        .testTarget(
            name: "SyncCoreTests",
            dependencies: [
                "SyncCore", "Store", "Streams", "StreamsTesting", "CZlib",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "SyncAgentDaemonTests",
            dependencies: [
                "SyncAgentDaemon", "SyncCore", "Store", "Streams", "StreamsTesting", "TestServers",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "SyncAgentCLITests",
            dependencies: [
                "SyncAgentCLI", "SyncAgentDaemon", "SyncCore", "Store", "Streams", "StreamsTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["Help"]
        ),
        .testTarget(name: "FuzzTests", dependencies: ["FuzzTargets", "SyncCore"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["DemoUpstream", "TestServers", "TestUpstream"]
        ),
    ]
)
