import Foundation

/// The corpus of real `.storekit` files from public projects, `Tests/Fixtures/StoreKitCorpus`:
/// one JSON file a repository at the top (formats 1 to 6, synced and hand-made, several
/// languages and storefronts), the files that are not JSON under `not-json/`, and each file's
/// repository, commit and path in its `PROVENANCE.md`. Files are named
/// `owner__repository__file.storekit` and kept byte for byte as their projects committed them.
public enum StoreKitCorpus {
    /// The corpus's directory.
    public static var directory: URL { Repository.url("Tests/Fixtures/StoreKitCorpus") }

    /// The provenance file: a table row per file, `| name | repository | commit | path | license |`.
    public static var provenance: URL { directory.appendingPathComponent("PROVENANCE.md") }

    /// The JSON files' names, sorted; empty when the corpus is missing.
    public static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".storekit") }.sorted()
    }

    /// The URL of the JSON file `name`.
    public static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// The files that are not JSON, by name, and the problem the catalog must name for each.
    public static let notJSON: [String: String] = [
        "chemsims__chemistry__Configuration.storekit":
            "the file is empty; a StoreKit Configuration file holds the JSON that Xcode writes",
        "Jannik-1403__Garten-Simulation__Purchases.storekit":
            "the file is a property list, not JSON; Xcode writes StoreKit Configuration files as JSON (on a Mac, 'plutil -convert json' converts it)",
    ]

    /// The URL of the file `name` that is not JSON.
    public static func notJSONURL(_ name: String) -> URL {
        directory.appendingPathComponent("not-json").appendingPathComponent(name)
    }
}
