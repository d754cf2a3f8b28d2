import Foundation
import TestSupport
import Testing

@testable import Catalog

/// The content sidecar `NAME.content/PRODUCT_ID/manifest.json`: loaded with the catalog, and
/// rejected with an error naming the manifest, the field and the problem when it does not
/// match its files.
@Suite(.waitsOnProcesses) struct HostedContentTests {
    static let repository = Repository.root

    static let catalogJSON = """
        { "products": [
            { "displayPrice": "1.99", "familyShareable": false, "internalID": "1", "localizations": [
                { "description": "Levels", "displayName": "Levels", "locale": "en_US" } ],
              "productID": "levels", "referenceName": "Levels", "type": "NonConsumable" },
            { "displayPrice": "0.99", "familyShareable": false, "internalID": "2", "localizations": [
                { "description": "Coins", "displayName": "Coins", "locale": "en_US" } ],
              "productID": "coins", "referenceName": "Coins", "type": "Consumable" } ],
          "version": { "major": 4, "minor": 0 } }
        """

    /// A scratch catalog `Test.storekit` with `Test.content/levels/` holding two files.
    struct Scratch {
        let directory: TemporaryDirectory
        var root: URL { directory.url }
        var catalog: URL { root.appendingPathComponent("Test.storekit") }
        var content: URL { root.appendingPathComponent("Test.content/levels") }
        var manifest: URL { content.appendingPathComponent("manifest.json") }
        let files: [String: Data] = [
            "a.json": Data("{\"level\": 1}\n".utf8),
            "maps/b.bin": Data((0..<3000).map { UInt8(truncatingIfNeeded: $0 * 7) }),
        ]

        init() throws {
            directory = try TemporaryDirectory(prefix: "content")
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent("Test.content/levels/maps"), withIntermediateDirectories: true)
            try Data(HostedContentTests.catalogJSON.utf8).write(to: catalog)
            for (path, data) in files { try data.write(to: content.appendingPathComponent(path)) }
            try writeManifest(
                files.keys.sorted().map { ["path": $0, "size": files[$0]?.count ?? 0, "sha256": try sha256($0)] })
        }

        func sha256(_ path: String) throws -> String { try FileHash.sha256(content.appendingPathComponent(path)) }

        func writeManifest(_ entries: [[String: Any]], version: Any = 1, contentVersion: Any = "2.0") throws {
            let object: [String: Any] = ["version": version, "contentVersion": contentVersion, "files": entries]
            try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: manifest)
        }
    }

    /// SHA-256 from TestSupport (Crypto's), independent of the code under test.
    static let digester: ContentDigester = { path in try FileHash.sha256(URL(fileURLWithPath: path)) }

    func expectError(
        _ scratch: Scratch, path: String, containing text: String, digester: ContentDigester? = nil, file: String? = nil
    ) {
        do {
            _ = try StoreKitConfiguration.load(contentsOf: scratch.catalog, contentDigester: digester)
            Issue.record("expected an error at \(path)")
        } catch {
            #expect(error.file == (file ?? scratch.manifest.path))
            #expect(error.path == path)
            #expect(error.problem.contains(text), "\(error.problem)")
        }
    }

    @Test func aMatchingSidecarLoadsWithTheCatalog() throws {
        let s = try Scratch()
        let catalog = try StoreKitConfiguration.load(contentsOf: s.catalog, contentDigester: Self.digester)
        let levels = try #require(catalog.content["levels"])
        #expect(levels.version == "2.0")
        #expect(levels.files.map(\.path) == ["a.json", "maps/b.bin"])
        #expect(levels.manifest.totalBytes == 3000 + 13)
        #expect(levels.files[1].sha256 == (try s.sha256("maps/b.bin")))
        #expect(FileManager.default.contents(atPath: levels.url(of: levels.files[1]).path) == s.files["maps/b.bin"])
        #expect(catalog.content["coins"] == nil)
    }

    @Test func aCatalogWithoutASidecarHasNoContent() throws {
        let s = try Scratch()
        try FileManager.default.removeItem(at: s.root.appendingPathComponent("Test.content"))
        #expect(try StoreKitConfiguration.load(contentsOf: s.catalog).content.isEmpty)
    }

    @Test func aWrongSizeNamesTheFieldAndTheFile() throws {
        let s = try Scratch()
        try Data("{\"level\": 1, \"extra\": true}\n".utf8).write(to: s.content.appendingPathComponent("a.json"))
        expectError(s, path: "$.files[0].size", containing: "is 13 but \(s.content.path)/a.json has 28 bytes")
    }

    @Test func aChangedFileOfTheSameSizeFailsTheDigestCheck() throws {
        let s = try Scratch()
        try Data("{\"level\": 9}\n".utf8).write(to: s.content.appendingPathComponent("a.json"))
        expectError(s, path: "$.files[0].sha256", containing: "has SHA-256", digester: Self.digester)
    }

    @Test func aMissingFileIsNamed() throws {
        let s = try Scratch()
        try FileManager.default.removeItem(at: s.content.appendingPathComponent("maps/b.bin"))
        expectError(s, path: "$.files[1].path", containing: "maps/b.bin does not exist")
    }

    @Test func anUnlistedFileIsAnError() throws {
        let s = try Scratch()
        try Data("stray".utf8).write(to: s.content.appendingPathComponent("maps/stray.txt"))
        expectError(s, path: "$.files", containing: "maps/stray.txt is in the content directory but not listed")
    }

    @Test func onlyTheChosenProductsFilesAreChecked() throws {
        let s = try Scratch()
        try FileManager.default.removeItem(at: s.content.appendingPathComponent("maps/b.bin"))
        try Data("stray".utf8).write(to: s.content.appendingPathComponent("stray.txt"))
        // Another product's damaged content: the manifest is read, its files are not looked at.
        for choice in [ContentFileCheck.products(["coins"]), .manifestsOnly] {
            let catalog = try StoreKitConfiguration.load(
                contentsOf: s.catalog, contentDigester: Self.digester, contentFiles: choice)
            let levels = try #require(catalog.content["levels"])
            #expect(levels.files.map(\.path) == ["a.json", "maps/b.bin"])
            #expect(levels.files[1].size == 3000)
        }
        // The chosen product's own files are checked as a whole load checks them.
        do {
            _ = try StoreKitConfiguration.load(
                contentsOf: s.catalog, contentDigester: Self.digester, contentFiles: .products(["levels", "coins"]))
            Issue.record("expected the missing file of levels to be named")
        } catch {
            #expect(error.file == s.manifest.path)
            #expect(error.path == "$.files[1].path")
            #expect(error.problem.contains("maps/b.bin does not exist"), "\(error.problem)")
        }
        expectError(s, path: "$.files[1].path", containing: "maps/b.bin does not exist")
    }

    @Test func aManifestIsCheckedWhateverFilesAreChosen() throws {
        let s = try Scratch()
        try s.writeManifest([["path": "../escape", "size": 1, "sha256": try s.sha256("a.json")]])
        for choice in [ContentFileCheck.products(["coins"]), .manifestsOnly] {
            do {
                _ = try StoreKitConfiguration.load(contentsOf: s.catalog, contentFiles: choice)
                Issue.record("expected the manifest's unsafe path to be named")
            } catch {
                #expect(error.file == s.manifest.path)
                #expect(error.path == "$.files[0].path")
            }
        }
    }

    @Test func unsafePathsBadDigestsAndVersionsAreRejected() throws {
        let s = try Scratch()
        let good = try s.sha256("a.json")
        try s.writeManifest([["path": "../Test.storekit", "size": 1, "sha256": good]])
        expectError(
            s, path: "$.files[0].path", containing: "\"../Test.storekit\" has an empty, \".\" or \"..\" component")
        try s.writeManifest([["path": "/etc/passwd", "size": 1, "sha256": good]])
        expectError(s, path: "$.files[0].path", containing: "is absolute")
        try s.writeManifest([["path": "manifest.json", "size": 1, "sha256": good]])
        expectError(s, path: "$.files[0].path", containing: "is the manifest itself")
        try s.writeManifest([["path": "a.json", "size": 13, "sha256": "ABC"]])
        expectError(s, path: "$.files[0].sha256", containing: "\"ABC\" is not 64 lowercase hex digits")
        try s.writeManifest([["path": "a.json", "size": -1, "sha256": good]])
        expectError(s, path: "$.files[0].size", containing: "must be at least 0")
        try s.writeManifest([["path": "a.json", "size": 13, "sha256": good]], version: 2)
        expectError(s, path: "$.version", containing: "unsupported manifest version 2")
        try s.writeManifest([["path": "a.json", "size": 13, "sha256": good]], contentVersion: "../1")
        expectError(s, path: "$.contentVersion", containing: "\"../1\" is not usable as a directory name")
        try s.writeManifest([])
        expectError(s, path: "$.files", containing: "no files listed")
        try Data("{ not json".utf8).write(to: s.manifest)
        expectError(s, path: "$", containing: "not valid JSON")
    }

    @Test func contentForAnUnknownProductOrAConsumableIsRejected() throws {
        let s = try Scratch()
        let typo = s.root.appendingPathComponent("Test.content/levelz")
        try FileManager.default.createDirectory(at: typo, withIntermediateDirectories: true)
        expectError(s, path: "$", containing: "no product \"levelz\" in the catalog", file: typo.path)
        try FileManager.default.removeItem(at: typo)
        let coins = s.root.appendingPathComponent("Test.content/coins")
        try FileManager.default.createDirectory(at: coins, withIntermediateDirectories: true)
        expectError(s, path: "$", containing: "only non-consumables can have hosted content", file: coins.path)
    }

    @Test func theDemoContentScriptMakesThreeRealPacksThatVerify() throws {
        let scratch = try TemporaryDirectory(prefix: "demo-content")
        let root = scratch.url
        let catalog = root.appendingPathComponent("Demo.storekit")
        try FileManager.default.copyItem(
            at: Self.repository.appendingPathComponent("Catalogs/Demo.storekit"), to: catalog)
        let made = try ChildProcess.run(
            Self.repository.appendingPathComponent("scripts/make-content"),
            [root.appendingPathComponent("Demo.content").path],
            standardOutput: .discard)
        #expect(made.status == 0, "\(made.stderr)")

        let demo = try StoreKitConfiguration.load(contentsOf: catalog, contentDigester: Self.digester)
        #expect(
            Set(demo.content.keys) == [
                "com.storefront.demo.levelpack.forest", "com.storefront.demo.stickers.cats",
                "com.storefront.demo.sounds.synthwave",
            ])
        for content in demo.content.values {
            #expect(
                content.manifest.totalBytes >= 1_000_000 && content.manifest.totalBytes <= 8_000_000,
                "\(content.manifest.productID): \(content.manifest.totalBytes)")
        }
        let forest = try #require(demo.content["com.storefront.demo.levelpack.forest"])
        let level = try #require(forest.files.first { $0.path.hasSuffix("forest-01.json") })
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: forest.url(of: level))) as? [String: Any]
        #expect(json?["width"] as? Int == 96)
        let cats = try #require(demo.content["com.storefront.demo.stickers.cats"])
        let png = try Data(contentsOf: cats.url(of: try #require(cats.files.first)))
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let sounds = try #require(demo.content["com.storefront.demo.sounds.synthwave"])
        let wav = try Data(contentsOf: sounds.url(of: try #require(sounds.files.first)))
        #expect(wav.prefix(4) == Data("RIFF".utf8) && wav[8..<12] == Data("WAVE".utf8))
    }
}

/// `NAME.content/hosting.json`: base URLs of self-hosted content.
@Suite(.waitsOnProcesses) struct ContentHostingTests {
    func write(_ json: String, _ s: HostedContentTests.Scratch) throws {
        try Data(json.utf8).write(to: s.root.appendingPathComponent("Test.content/hosting.json"))
    }

    @Test func baseURLsLoadWithTheCatalog() throws {
        let s = try HostedContentTests.Scratch()
        try FileManager.default.removeItem(at: s.content)
        try write(#"{"version": 1, "products": {"levels": "https://cdn.example.com/levels/"}}"#, s)
        let catalog = try StoreKitConfiguration.load(contentsOf: s.catalog)
        #expect(catalog.contentHosting == ["levels": URL(string: "https://cdn.example.com/levels/")])
        #expect(catalog.content.isEmpty)
    }

    @Test func badHostingEntriesNameTheirField() throws {
        let s = try HostedContentTests.Scratch()
        let file = s.root.appendingPathComponent("Test.content/hosting.json").path
        func expectError(_ json: String, _ path: String, _ text: String) throws {
            try write(json, s)
            do {
                _ = try StoreKitConfiguration.load(contentsOf: s.catalog)
                Issue.record("expected an error at \(path)")
            } catch {
                #expect(error.file == file)
                #expect(error.path == path)
                #expect(error.problem.contains(text), "\(error.problem)")
            }
        }
        try expectError(
            #"{"version": 1, "products": {"levels": "https://cdn.example.com/"}}"#, "$.products.levels",
            "also has content in")
        try FileManager.default.removeItem(at: s.content)
        try expectError(
            #"{"version": 1, "products": {"levels": "ftp://x/"}}"#, "$.products.levels",
            "not an http:// or https:// URL")
        try expectError(
            #"{"version": 1, "products": {"levelz": "https://x/"}}"#, "$.products.levelz", "no product \"levelz\"")
        try expectError(
            #"{"version": 1, "products": {"coins": "https://x/"}}"#, "$.products.coins", "only non-consumables")
        try expectError(#"{"version": 2, "products": {}}"#, "$.version", "unsupported hosting version 2")
    }
}
