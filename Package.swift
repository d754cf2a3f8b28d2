// swift-tools-version:6.0
// Storefront: an in-app purchase engine, a local App Store and a terminal storefront.
// Targets and who may import whom: see ARCHITECTURE.md.

import PackageDescription

let package = Package(
    name: "Storefront",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "storefront", targets: ["storefront"]),
        .executable(name: "storefront-bench", targets: ["storefront-bench"]),
        .library(name: "StoreCore", targets: ["StoreCore"]),
        .library(name: "LocalAppStore", targets: ["LocalAppStore"]),
    ],
    targets: [
        // System libraries: a module map and a shim header each, nothing else.
        .systemLibrary(
            name: "CNCurses",
            path: "Sources/CNCurses",
            providers: [.apt(["libncurses-dev"])]  // no pkgConfig: see ARCHITECTURE.md, "ncurses without pkg-config"
        ),
        .systemLibrary(
            name: "COpenSSL",
            path: "Sources/COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),

        // Libraries, from the bottom of the import graph up.
        .target(name: "SystemIO"),
        .target(name: "Crypto", dependencies: ["COpenSSL"]),
        .target(name: "Vault", dependencies: ["Crypto", "SystemIO"]),
        .target(name: "Receipts", dependencies: ["Crypto"]),
        .target(name: "StoreKitValues"),  // value types the catalog file and the engine share
        .target(name: "Catalog", dependencies: ["StoreKitValues"]),
        .target(name: "StoreCore", dependencies: ["StoreKitValues", "Receipts", "Vault", "Crypto", "SystemIO"]),
        .target(
            name: "LocalAppStore",
            dependencies: ["StoreCore", "Catalog", "Receipts", "Vault", "Crypto", "SystemIO"]
        ),
        .target(name: "StorefrontUI", dependencies: ["StoreCore"]),
        .target(name: "StorefrontRuntime", dependencies: ["StorefrontUI", "SystemIO"]),
        .target(name: "TerminalCurses", dependencies: ["CNCurses", "StorefrontUI", "StorefrontRuntime", "SystemIO"]),

        // Executables: wiring only.
        .executableTarget(
            name: "storefront",
            dependencies: [
                "StoreCore", "LocalAppStore", "Catalog", "Receipts", "Vault", "Crypto",
                "StorefrontUI", "StorefrontRuntime", "TerminalCurses", "SystemIO",
            ]
        ),
        .executableTarget(
            name: "storefront-bench",
            dependencies: [
                "Crypto", "Vault", "Receipts", "Catalog", "StoreCore", "LocalAppStore",
                "StorefrontUI", "SystemIO",
            ]
        ),

        .executableTarget(name: "vault-torture", dependencies: ["Vault", "SystemIO"]),  // crash-test child of VaultTests
        // The power-loss tests' child: reopens crash states as the app's next run would.
        .executableTarget(
            name: "crash-check",
            dependencies: ["TestSupport", "StoreCore", "LocalAppStore", "Catalog", "Vault", "Crypto", "SystemIO"]
        ),

        // What every test target shares: temporary directories, child processes, hashing,
        // the Python servers, clock waits.
        .target(name: "TestSupport", dependencies: ["SystemIO", "Crypto"], path: "Tests/TestSupport"),

        // Unit tests, one target per library.
        .testTarget(name: "SystemIOTests", dependencies: ["TestSupport", "SystemIO"]),
        .testTarget(name: "CryptoTests", dependencies: ["TestSupport", "Crypto"]),
        .testTarget(name: "VaultTests", dependencies: ["TestSupport", "Vault", "Crypto", "SystemIO", "vault-torture"]),
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
        .testTarget(name: "StoreCoreTests", dependencies: ["TestSupport", "StoreCore", "Receipts", "Crypto", "SystemIO"]),
        .testTarget(
            name: "LocalAppStoreTests",
            dependencies: ["TestSupport", "LocalAppStore", "StoreCore", "Catalog", "Receipts", "Crypto", "SystemIO"]
        ),
        .testTarget(
            name: "StorefrontUITests", dependencies: ["TestSupport", "StorefrontUI", "StoreCore"], exclude: ["Golden"]
        ),
        .testTarget(
            name: "StorefrontRuntimeTests",
            dependencies: ["TestSupport", "StorefrontRuntime", "StorefrontUI", "StoreCore", "SystemIO"]
        ),
        .testTarget(name: "TerminalCursesTests", dependencies: ["TestSupport", "TerminalCurses", "StorefrontUI"]),
        // The executable's own code (argument parsing, help, output), called in-process.
        .testTarget(
            name: "storefrontTests",
            dependencies: ["TestSupport", "storefront", "StoreCore", "LocalAppStore", "StorefrontUI"],
            exclude: ["Snapshots"]
        ),
        // Power loss: every crash state of the durable operations, reopened by `crash-check`.
        .testTarget(
            name: "PowerLossTests",
            dependencies: ["TestSupport", "StoreCore", "LocalAppStore", "Catalog", "Vault", "Crypto", "SystemIO", "crash-check"],
            exclude: ["Fixtures"]
        ),
        // End to end: the built `storefront` binary, run as a real process.
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "storefront", "Receipts", "Crypto"]),
    ],
    swiftLanguageModes: [.v6]
)
