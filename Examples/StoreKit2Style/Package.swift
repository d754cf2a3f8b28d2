// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "StoreKit2Style",
    platforms: [.macOS(.v15), .iOS(.v18)],  // what Storefront's libraries need
    dependencies: [
        .package(name: "Storefront", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "StoreKit2Style",
            dependencies: [
                .product(name: "StoreCore", package: "Storefront"),
                .product(name: "LocalAppStore", package: "Storefront"),
                .product(name: "StoreTesting", package: "Storefront"),
            ]
        )
    ]
)
