import Catalog
import Foundation
import StoreCore
import StoreTesting
import TestSupport
import Testing

@testable import LocalAppStore

/// Real `.storekit` files from public projects, one a repository (`TestSupport.StoreKitCorpus`,
/// formats 1 to 6, synced and hand-made, several languages and storefronts): each loads, holds
/// exactly the products its JSON lists (read here with Foundation's reader, not the catalog's),
/// sells every one of them through the engine in a fresh data directory, and restores. The
/// files that are not JSON get their message, word for word. The command line's path is
/// `EndToEndTests.StoreKitCorpusCommandTests`.
@Suite(.timeLimit(.minutes(10)))
struct StoreKitCorpusTests {
    /// The corpus's JSON files, by name.
    static let files = StoreKitCorpus.files

    /// What the file's own JSON says: its products' IDs by kind, its version, its storefront.
    struct Declared {
        var productIDs: [ProductKind: [String]] = [:]
        var major: Int?
        var storefront: String?
        var synced = false

        init(_ url: URL) throws {
            let root = try #require(try JSONSerialization.jsonObject(with: try Data(contentsOf: url)) as? [String: Any])
            func ids(_ array: Any?) -> [String] {
                ((array as? [[String: Any]]) ?? []).compactMap { $0["productID"] as? String }
            }
            for product in (root["products"] as? [[String: Any]]) ?? [] {
                let type = try #require(product["type"] as? String)
                let kind = try #require(ProductKind(rawValue: type))
                productIDs[kind, default: []].append(try #require(product["productID"] as? String))
            }
            productIDs[.nonRenewing] = ids(root["nonRenewingSubscriptions"])
            productIDs[.autoRenewable] = ((root["subscriptionGroups"] as? [[String: Any]]) ?? []).flatMap {
                ids($0["subscriptions"])
            }
            major = (root["version"] as? [String: Any])?["major"] as? Int
            let settings = root["settings"] as? [String: Any]
            storefront = settings?["_storefront"] as? String
            synced = settings?["_applicationInternalID"] != nil || settings?["_lastSynchronizedDate"] != nil
        }
    }

    @Test func theCorpusCoversWhatXcodeWrites() throws {
        #expect(Self.files.count >= 30, "the corpus belongs at \(StoreKitCorpus.directory.path)")
        let provenance = try String(contentsOf: StoreKitCorpus.provenance, encoding: .utf8)
        var repositories: Set<String> = []
        for name in Self.files + StoreKitCorpus.notJSON.keys.map({ "not-json/\($0)" }) {
            let row = try #require(
                provenance.split(separator: "\n").first { $0.hasPrefix("| `\(name)` |") }, "\(name) has no provenance")
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells.count >= 4 && cells[2].count == 40, "\(name): repository, full commit and path")
            if !name.hasPrefix("not-json/") { repositories.insert(cells[1]) }
        }
        #expect(repositories.count == Self.files.count, "one file a repository")
        let declared = try Self.files.map { try Declared(StoreKitCorpus.url($0)) }
        #expect(Set(declared.compactMap(\.major)).isSuperset(of: 1...6))
        #expect(declared.contains(where: \.synced) && declared.contains { !$0.synced })
        #expect(Set(declared.compactMap(\.storefront)).count >= 5)
    }

    @Test(arguments: files)
    func loadsSellsEveryProductAndRestores(_ name: String) async throws {
        let url = StoreKitCorpus.url(name)
        let declared = try Declared(url)
        let catalog = try StoreKitConfiguration.load(contentsOf: url)
        for kind in ProductKind.allCases {
            #expect(
                catalog.products.filter { $0.kind == kind }.map(\.id) == declared.productIDs[kind] ?? [],
                "\(name): \(kind.name)")
        }
        #expect(catalog.version?.major == declared.major)
        #expect(catalog.settings.storefront == declared.storefront)

        let directory = try TemporaryDirectory(prefix: "corpus")
        let (backend, store) = try await launchEngine(directory, catalog: catalog, clock: ManualClock())
        for product in catalog.products {
            let result = await store.purchase(product.id)
            #expect(result.state == "purchased", "\(name): \(product.id): \(result)")
        }
        #expect(try await backend.transactionManager.history().count >= catalog.products.count)
        // StoreKit 1's restore: every non-consumable, and the subscriptions (the latest of each
        // group's chain); never consumables nor non-renewing subscriptions.
        let restored = Set(try await store.restoreTransactions().map(\.productID))
        let nonConsumables = Set(catalog.products.filter { $0.kind == .nonConsumable }.map(\.id))
        let subscriptions = Set(catalog.products.filter { $0.kind == .autoRenewable }.map(\.id))
        #expect(restored.isSuperset(of: nonConsumables), "\(name)")
        #expect(restored.subtracting(nonConsumables).isSubset(of: subscriptions), "\(name)")
        let groups = Set(catalog.products.compactMap { $0.subscription?.groupID })
        let restoredGroups = Set(
            catalog.products.filter { restored.contains($0.id) }.compactMap(\.subscription?.groupID))
        #expect(restoredGroups == groups, "\(name): a subscription of every group is restored")
        await store.stop()
    }

    @Test(arguments: StoreKitCorpus.notJSON.keys.sorted())
    func aFileThatIsNotJSONSaysWhatItIs(_ name: String) throws {
        let url = StoreKitCorpus.notJSONURL(name)
        #expect(FileManager.default.fileExists(atPath: url.path), "\(name) belongs in the corpus")
        let problem = try #require(StoreKitCorpus.notJSON[name])
        do throws(CatalogError) {
            _ = try StoreKitConfiguration.load(contentsOf: url)
            Issue.record("\(name) loaded")
        } catch {
            #expect(error.description == "\(url.path): $: \(problem)")
        }
    }
}
