// swift-tools-version:6.0
// Storefront: an in-app purchase engine, a local App Store and a terminal storefront.
// Targets and who may import whom: see ARCHITECTURE.md.

import PackageDescription

let package = Package(
    name: "Storefront",
    // Synchronization's Mutex and Atomic need macOS 15 and iOS 18 (built and tested on Linux only).
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "storefront", targets: ["storefront"]),
        .executable(name: "storefront-bench", targets: ["storefront-bench"]),
        // An app's door: the engine (re-exporting StoreKitValues, the types its API speaks in),
        // the local store (re-exporting Catalog), and the fakes for an app's tests. Every other
        // module is an implementation import; PackagingTests checks it from the symbol graphs.
        .library(name: "StoreCore", targets: ["StoreCore"]),
        .library(name: "LocalAppStore", targets: ["LocalAppStore"]),
        .library(name: "StoreTesting", targets: ["StoreTesting"]),
    ],
    targets: [
        // System libraries: a module map and a shim header each, nothing else.
        .systemLibrary(
            name: "CNCurses",
            path: "Sources/CNCurses",
            providers: [.apt(["libncurses-dev"])]  // no pkgConfig: Docs/decisions/0006-ncurses-without-pkg-config.md
        ),
        .systemLibrary(
            name: "COpenSSL",
            path: "Sources/COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CMicroHTTPD",
            path: "Sources/CMicroHTTPD",
            // No pkgConfig and no `link`: LazyLibraries opens libmicrohttpd on its first call.
            providers: [.apt(["libmicrohttpd-dev"])]
        ),

        // libcurl and libmicrohttpd opened on their first call, not at every start
        // (Docs/decisions/0146-libraries-loaded-on-first-use.md): C, imported by no one, linked in.
        .target(name: "LazyLibraries"),

        // Libraries, from the bottom of the import graph up.
        .target(name: "SystemIO"),
        .target(name: "Crypto", dependencies: ["COpenSSL", "SystemIO"]),
        .target(name: "StoreKitValues"),  // the value types the public API speaks in, and the clock
        .target(name: "Vault", dependencies: ["Crypto", "SystemIO", "StoreKitValues"]),
        .target(name: "Receipts", dependencies: ["Crypto", "StoreKitValues"]),
        .target(name: "Catalog", dependencies: ["StoreKitValues", "SystemIO"]),
        .target(name: "StoreCore", dependencies: ["StoreKitValues", "Receipts", "Vault", "Crypto", "SystemIO"]),
        .target(name: "StoreTesting", dependencies: ["StoreKitValues", "SystemIO"]),
        .target(
            name: "LocalAppStore",
            dependencies: ["StoreCore", "Catalog", "Receipts", "Vault", "Crypto", "SystemIO"]
        ),
        .target(
            name: "AppStoreServer",
            dependencies: [
                "LocalAppStore", "StoreCore", "Receipts", "Crypto", "Catalog", "CMicroHTTPD", "LazyLibraries",
            ]
        ),
        .target(name: "StorefrontUI", dependencies: ["StoreKitValues"]),
        .target(name: "StorefrontRuntime", dependencies: ["StorefrontUI", "SystemIO"]),
        .target(name: "TerminalCurses", dependencies: ["CNCurses", "StorefrontUI", "StorefrontRuntime", "SystemIO"]),
        // The storefront's effects, on the store behind a protocol (the executable supplies it).
        .target(name: "StorefrontEffects", dependencies: ["StorefrontUI", "StorefrontRuntime", "StoreCore"]),

        // Executables: wiring only.
        .executableTarget(
            name: "storefront",
            dependencies: [
                "StoreCore", "LocalAppStore", "Catalog", "Receipts", "Vault", "Crypto",
                "StorefrontUI", "StorefrontRuntime", "StorefrontEffects", "TerminalCurses", "SystemIO",
                "AppStoreServer", "StoreTesting",
            ]
        ),
        .executableTarget(
            name: "storefront-bench",
            dependencies: [
                "Crypto", "Vault", "Receipts", "Catalog", "StoreCore", "LocalAppStore",
                "StorefrontUI", "SystemIO", "AppStoreServer",
            ]
        ),

        // The vault crash tests' child process.
        .executableTarget(name: "vault-torture", dependencies: ["Vault", "SystemIO"]),
        // The bench's launch floor: Foundation and one ncurses frame, linked as the storefront is.
        .executableTarget(name: "launch-floor", linkerSettings: [.linkedLibrary("ncursesw")]),
        // The power-loss tests' child: reopens crash states as the app's next run would.
        .executableTarget(
            name: "crash-check",
            dependencies: [
                "TestSupport", "StoreCore", "LocalAppStore", "Catalog", "Vault", "Crypto", "SystemIO", "StoreTesting",
            ]
        ),

        // What every test target shares: temporary directories, child processes, hashing,
        // the Python servers, clock waits.
        .target(name: "TestSupport", dependencies: ["SystemIO", "Crypto"], path: "Tests/TestSupport"),

        // Unit tests, one target per library.
        .testTarget(name: "SystemIOTests", dependencies: ["TestSupport", "SystemIO", "StoreTesting"]),
        .testTarget(name: "CryptoTests", dependencies: ["TestSupport", "Crypto"]),
        .testTarget(
            name: "VaultTests",
            dependencies: ["TestSupport", "Vault", "Crypto", "SystemIO", "StoreTesting", "vault-torture"]
        ),
        .testTarget(
            name: "ReceiptsTests",
            dependencies: ["TestSupport", "Receipts", "Crypto"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "CatalogTests",
            dependencies: ["TestSupport", "Catalog"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "StoreKitValuesTests", dependencies: ["TestSupport", "StoreKitValues"]),
        .testTarget(
            name: "StoreCoreTests",
            dependencies: [
                "TestSupport", "StoreCore", "Receipts", "Crypto", "SystemIO", "Vault", "StoreTesting",
            ]),
        .testTarget(
            name: "LocalAppStoreTests",
            dependencies: [
                "TestSupport", "LocalAppStore", "StoreCore", "Catalog", "Receipts", "Crypto", "SystemIO",
                "StoreTesting",
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "StorefrontUITests",
            dependencies: ["TestSupport", "StorefrontUI", "StoreCore", "Catalog", "LocalAppStore"],
            exclude: ["Golden"], resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "AppStoreServerTests",
            dependencies: [
                "TestSupport", "AppStoreServer", "LocalAppStore", "StoreCore", "Catalog", "Receipts", "Crypto",
                "SystemIO", "StoreTesting",
            ]
        ),
        .testTarget(
            name: "StorefrontRuntimeTests",
            dependencies: [
                "TestSupport", "StorefrontRuntime", "StorefrontUI", "StoreCore", "SystemIO", "StoreTesting",
            ]
        ),
        .testTarget(
            name: "StorefrontEffectsTests",
            dependencies: [
                "TestSupport", "StorefrontEffects", "StorefrontRuntime", "StorefrontUI", "StoreCore", "SystemIO",
                "StoreTesting",
            ]
        ),
        .testTarget(name: "TerminalCursesTests", dependencies: ["TestSupport", "TerminalCurses", "StorefrontUI"]),
        // The executable's own code (argument parsing, help, output), called in-process.
        .testTarget(
            name: "storefrontTests",
            dependencies: [
                "TestSupport", "storefront", "StoreCore", "LocalAppStore", "StorefrontUI", "SystemIO", "StoreTesting",
            ],
            exclude: ["Snapshots"]
        ),
        // Power loss: every crash state of the durable operations, reopened by `crash-check`.
        .testTarget(
            name: "PowerLossTests",
            dependencies: [
                "TestSupport", "StoreCore", "LocalAppStore", "Catalog", "Vault", "Crypto", "SystemIO", "StoreTesting",
                "crash-check",
            ],
            exclude: ["Fixtures"]
        ),
        // The package's own rules: imports follow ARCHITECTURE.md's target table.
        .testTarget(name: "PackageTests", dependencies: ["TestSupport"]),
        // The library as an app developer gets it: the products' public API documented and
        // coming through one door, the separate packages in Examples/ built and run, the
        // README's code theirs.
        .testTarget(
            name: "PackagingTests", dependencies: ["TestSupport", "StoreCore", "LocalAppStore", "StoreTesting"]),
        // The bench's own code: the figures table it writes into Docs/performance.md.
        .testTarget(name: "BenchTests", dependencies: ["TestSupport", "storefront-bench"]),
        // End to end: the built `storefront` binary, run as a real process.
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "storefront", "Receipts", "Crypto"]),
    ],
    swiftLanguageModes: [.v6]
)
