import Foundation
import TestSupport

/// Where the packaging tests find things beyond the source tree: this run's build products and
/// the toolchain that built them.
extension Repository {
    /// The build products directory of this test run: the one holding `Modules/StoreCore.swiftmodule`,
    /// beside the test runner (or its parent), else `.build/debug`.
    static var products: URL {
        let runner = Bundle.main.bundleURL
        let candidates = [runner, runner.deletingLastPathComponent(), root.appendingPathComponent(".build/debug")]
        return candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("Modules/StoreCore.swiftmodule").path)
                || FileManager.default.fileExists(atPath: $0.appendingPathComponent("StoreCore.swiftmodule").path)
        } ?? candidates[2]
    }

    /// The directory of the compiled modules among `products` (`Modules/` since Swift 6).
    static var modules: URL {
        let nested = products.appendingPathComponent("Modules")
        return FileManager.default.fileExists(atPath: nested.path) ? nested : products
    }

    /// Where the example packages build: one scratch path for all three, so the package's
    /// libraries compile once and each example adds only its own module.
    static let examplesBuild = root.appendingPathComponent(".build/examples")

    /// A toolchain executable: from `$PATH`, or beside the `swift` that `$PATH` finds.
    static func tool(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// The manifest of the package at `directory` (the project's when nil), as `swift package
    /// dump-package` reads it.
    static func manifest(of directory: URL? = nil) throws -> [String: Any] {
        let swift = try require(tool("swift"), "no `swift` on PATH")
        let package = directory ?? root
        let result = try ChildProcess.run(
            swift,
            [
                "package", "--package-path", package.path,
                "--scratch-path", examplesBuild.appendingPathComponent("manifest-\(package.lastPathComponent)").path,
                "dump-package",
            ])
        guard result.status == 0 else {
            throw ChildProcess.Failure("swift package dump-package of \(package.path)", result)
        }
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// The product library names `Package.swift` declares.
    static func libraryProducts() throws -> Set<String> {
        let products = try manifest()["products"] as? [[String: Any]] ?? []
        return Set(
            products.compactMap { product in
                guard let type = product["type"] as? [String: Any], type["library"] != nil else { return nil }
                return product["name"] as? String
            })
    }

    /// The modules a target's sources re-export (`@_exported import NAME`), as an app that
    /// imports the target sees them.
    static func reexports(of target: String) throws -> Set<String> {
        let folder = root.appendingPathComponent("Sources/\(target)")
        var found: Set<String> = []
        guard let files = FileManager.default.enumerator(atPath: folder.path) else { return found }
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            found.formUnion(reexports(in: text))
        }
        return found
    }

    /// The modules `source` re-exports: its `@_exported import NAME` lines.
    static func reexports(in source: String) -> Set<String> {
        Set(
            source.split(separator: "\n").compactMap { line in
                let words = line.split(separator: " ")
                guard words.count == 3, words[0] == "@_exported", words[1] == "import" else { return nil }
                return String(words[2])
            })
    }

    /// What an app that names the products can import: the library products and every module
    /// they re-export, and what those re-export in turn.
    static func door() throws -> Set<String> {
        var door = try libraryProducts()
        var pending = Array(door)
        while let module = pending.popLast() {
            for exported in try reexports(of: module) where door.insert(exported).inserted {
                pending.append(exported)
            }
        }
        return door
    }

    /// The minimum versions a manifest declares, by platform name (`macos`, `ios`…).
    static func platforms(of manifest: [String: Any]) -> [String: String] {
        let platforms = manifest["platforms"] as? [[String: Any]] ?? []
        return Dictionary(
            platforms.compactMap { platform in
                guard let name = platform["platformName"] as? String, let version = platform["version"] as? String
                else { return nil }
                return (name, version)
            }, uniquingKeysWith: { $1 })
    }
}

/// `#require` for a plain function (outside a test's body).
func require<T>(_ value: T?, _ message: String) throws -> T {
    guard let value else { throw ChildProcess.Failure(message) }
    return value
}
