// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ReadmeApp",
    platforms: [.macOS(.v15), .iOS(.v18)],  // what Storefront's libraries need
    dependencies: [
        // From a clone beside the app; from git: .package(url: "https://…/Storefront.git", branch: "main")
        .package(name: "Storefront", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "ReadmeApp",
            dependencies: [
                .product(name: "StoreCore", package: "Storefront"),
                .product(name: "LocalAppStore", package: "Storefront"),
            ]
        )
    ]
)
