import Foundation
import TestSupport
import Testing

/// The documents name only what exists, and the map keeps to its kind of text
/// (Docs/decisions/0046-documentation-in-its-places.md).
@Suite struct DocumentationNamesTests {
    /// The tree's declarations, read once for every test of the suite.
    static let scanned = Result { try DocumentationNames(root: Repository.root) }
    let names: DocumentationNames

    init() throws {
        names = try Self.scanned.get()
    }

    /// The documents whose marked names are checked: the map, the decisions, the formats, the
    /// figures' page and the contributors' guide.
    static func documents() throws -> [String] {
        var documents = ["ARCHITECTURE.md", "CONTRIBUTING.md", "Docs/performance.md"]
        for folder in ["Docs/decisions", "Docs/formats"] {
            documents += try FileManager.default.contentsOfDirectory(atPath: Repository.url(folder).path)
                .filter { $0.hasSuffix(".md") }.sorted().map { "\(folder)/\($0)" }
        }
        return documents
    }

    @Test func everyNameTheDocumentsMarkExists() throws {
        let documents = try Self.documents()
        #expect(documents.count > 10)
        for document in documents {
            let text = try String(contentsOf: Repository.url(document), encoding: .utf8)
            let problems = names.problems(in: text, document: document)
            #expect(problems.isEmpty, "\(problems.map(\.description).joined(separator: "\n"))")
        }
    }

    @Test func theTargetTableNamesOnlyTargetsThatExist() throws {
        let rules = ImportRules(
            architecture: try String(contentsOf: Repository.url("ARCHITECTURE.md"), encoding: .utf8))
        let targets = Set(try FileManager.default.contentsOfDirectory(atPath: Repository.url("Sources").path))
        #expect(!rules.allowed.isEmpty)
        #expect(Set(rules.allowed.keys).subtracting(targets).sorted() == [], "rows for targets that do not exist")
    }

    /// Names that went stale, and the forms the check reads, each caught or accepted.
    @Test func aStaleNameIsCaughtAndAGoodOneIsNot() {
        let stale = [
            "Store.announced", "EngineSuite", "../shared/ARCHITECTURE.md", "Sources/StoreCore/Nowhere.swift",
            "Docs/VAULT-FORMAT.md", "Sources/Nowhere/<Concept>/X.swift", "LocalAppStore.announcedTwice",
            "NoSuchType<HistoryLayout>",
            "FrameArchive<NoLayout>",
            ".noSuchCase", "noSuchFunction()", "NoSuchFile.swift", "StoreCore.NoSuchType",
        ]
        for name in stale { #expect(names.check(name) != nil, "\(name) should be refused") }
        let good = [
            "Store.reported", "Store.purchase", "StoreJournal.defaultCompactionSlack", "FrameArchive<HistoryLayout>",
            "LocalStoreSettings.registry", "HistoryIndex.Table", "EndToEndTests.PythonSuiteTests",
            "Sources/storefront/Commands/NAME.swift", "Sources/storefront/Commands/<Concept>/NAMEVerb.swift",
            "Sources/Vault", "StoreJournal.swift", ".taskCancelled",
            "refresh()", "set(name:value:)", "make bench", "SKTestTimeRate", "String", "NAME.swift", "history.dat",
            ".storekit", "SFJHIST", "Makefile",
        ]
        for name in good { #expect(names.check(name) == nil, "\(name): \(names.check(name) ?? "")") }
    }

    @Test func theScannerReadsInlineCodeOutsideFences() {
        let text = "a `One` b `Two.three` c\n```swift\nlet `x` = 1\n```\n`` Four `` and `Five`\n"
        #expect(DocumentationNames.codeSpans(in: text).map(\.code) == ["One", "Two.three", "Five"])
        #expect(DocumentationNames.codeSpans(in: text).map(\.line) == [1, 1, 5])
    }

    /// The map and the records say what is, not when or how much: no commit hashes, dates,
    /// issue numbers or load averages; the map no figures either; the map and the README stay short.
    @Test func theMapAndTheRecordsHoldNoStory() throws {
        let story = try Regex(
            #"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b|\b20\d\d-\d\d-\d\d\b|\b[Ii]ssues? \d+|#\d{2,}\b|load (?:average|~|\d)"#
        )
        let figure = try Regex(#"\d(?:[\d.,]*)\s?(?:ms|µs|ns|MB/s|req/s|/s\b|×)"#)
        var documents = ["ARCHITECTURE.md"]
        documents += try FileManager.default.contentsOfDirectory(atPath: Repository.url("Docs/decisions").path)
            .filter { $0.hasSuffix(".md") }.map { "Docs/decisions/\($0)" }
        for document in documents {
            let text = try String(contentsOf: Repository.url(document), encoding: .utf8)
            for match in text.matches(of: story) {
                Issue.record("\(document): `\(text[match.range])` tells a story, not what is")
            }
        }
        let map = try String(contentsOf: Repository.url("ARCHITECTURE.md"), encoding: .utf8)
        for match in map.matches(of: figure) { Issue.record("ARCHITECTURE.md: `\(map[match.range])` is a figure") }
        #expect(map.utf8.count <= 20 * 1024, "ARCHITECTURE.md is \(map.utf8.count) bytes; the map is at most 20 KiB")
        let readme = try String(contentsOf: Repository.url("README.md"), encoding: .utf8)
        #expect(readme.utf8.count <= 15 * 1024, "README.md is \(readme.utf8.count) bytes; it is at most 15 KiB")
    }
}
