import Foundation

/// A fresh directory under the temporary directory for one bench section, removed when it ends.
enum ScratchDirectory {
    /// Creates `storefront-bench-NAME-UUID`, runs `body` in it, then removes it.
    static func with<T>(_ name: String, _ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storefront-bench-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }
}
