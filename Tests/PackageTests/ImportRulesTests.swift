import Foundation
import TestSupport
import Testing

/// The package keeps the import rules ARCHITECTURE.md's target table states.
@Suite struct ImportRulesTests {
    let rules: ImportRules

    init() throws {
        rules = ImportRules(architecture: try String(contentsOf: Repository.url("ARCHITECTURE.md"), encoding: .utf8))
    }

    @Test func everyImportOfEveryTargetFollowsTheTable() throws {
        let (violations, unlisted) = try rules.check(sources: Repository.url("Sources"))
        #expect(unlisted == [], "targets missing from ARCHITECTURE.md's table: \(unlisted)")
        #expect(violations == [], "\(violations.map(\.description).joined(separator: "\n"))")
    }

    @Test func eachSystemLibraryHasExactlyOneImporter() throws {
        let systemLibraries = try FileManager.default.contentsOfDirectory(atPath: Repository.url("Sources").path)
            .filter {
                $0.hasPrefix("C")
                    && FileManager.default.fileExists(atPath: Repository.url("Sources/\($0)/module.modulemap").path)
            }
        #expect(!systemLibraries.isEmpty)
        for library in systemLibraries {
            let importers = rules.allowed.filter { $0.value.contains(library) }.map(\.key)
            #expect(
                importers.count == 1, "\(library) may be imported by \(importers.sorted()), not by exactly one module")
        }
    }

    @Test func theTableIsReadAndAViolationIsCaught() throws {
        #expect(rules.allowed["Catalog"] == ["StoreKitValues", "SystemIO"])
        #expect(rules.allowed["SystemIO"] == ImportRules.libc)
        let noted = ImportRules(
            architecture:
                "# Map\n\n## Targets\n\n| `A` | library | B (re-exported), C; D (`internal` imports), libc | a |\n")
        #expect(noted.allowed["A"] == Set(["B", "C", "D"]).union(ImportRules.libc))
        let sources = try TemporaryDirectory(prefix: "import-rules")
        try FileManager.default.createDirectory(at: sources.url("Catalog"), withIntermediateDirectories: true)
        try
            "import Foundation\n#if canImport(Glibc)\n  import Glibc\n#endif\n@testable import StoreCore\nimport struct Vault.VaultItem\nlet script = \"\"\"\n    import os, sys\n    \"\"\"\ninternal import Receipts\n"
            .write(to: sources.url("Catalog/Bad.swift"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: sources.url("Stray"), withIntermediateDirectories: true)
        let (violations, unlisted) = try rules.check(sources: sources.url)
        #expect(violations.map(\.module) == ["Glibc", "StoreCore", "Vault", "Receipts"])
        #expect(violations.map(\.line) == [3, 5, 6, 10])
        #expect(unlisted == ["Stray"])
    }
}
