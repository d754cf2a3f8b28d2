import Foundation

/// The package's source tree, for tests that read its catalogs, fixtures or scripts.
public enum Repository {
    /// The repository's root directory (the one holding `Package.swift`).
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/TestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// The URL of `relativePath` below the root, e.g. `Catalogs/Demo.storekit`.
    public static func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }
}
