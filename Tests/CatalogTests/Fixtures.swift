import Foundation

@testable import Catalog

/// The conformance files (copied from the project's shared corpus of real `.storekit` files) and a
/// scratch directory.
enum Fixtures {
    static var directory: URL {
        get throws {
            guard let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
                throw FixtureError.missing("Fixtures directory in the test bundle")
            }
            return url
        }
    }

    /// `expected.json`, read with Foundation's own JSON reader (independent of the parser under test).
    static func expected() throws -> [String: [String: Any]] {
        let data = try Data(contentsOf: try directory.appendingPathComponent("expected.json"))
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let files = root["files"] as? [String: [String: Any]]
        else { throw FixtureError.missing("files in expected.json") }
        return files
    }

    /// Every `.storekit` file in the fixtures directory, by name.
    static func storekitFileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: try directory.path)
            .filter { $0.hasSuffix(".storekit") }.sorted()
    }

    /// Decodes `json` as a catalog named `file` and returns the error it gives, or `nil`.
    static func decodeError(_ json: String, file: String = "Bad.storekit") -> CatalogError? {
        do {
            _ = try StoreKitConfiguration.decode(data: Data(json.utf8), file: file)
            return nil
        } catch {
            return error
        }
    }
}

enum FixtureError: Error {
    case missing(String)
}
