// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "RMStoreStyle",
    platforms: [.macOS(.v15), .iOS(.v18)],  // what Storefront's libraries need
    dependencies: [
        .package(name: "Storefront", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "RMStoreStyle",
            dependencies: [
                .product(name: "StoreCore", package: "Storefront"),
                .product(name: "LocalAppStore", package: "Storefront"),
            ]
        )
    ]
)
