import Foundation
import TestSupport
import Testing

@testable import Vault

/// `Vault.forEachItemView(service:_:)`: the views a listing reads hold what `items` gives (from
/// the index's records and from the records after it), answer as the item's own members would,
/// and are handed over only for records that verify.
@Suite struct ItemViewTests {
    static func viewed(_ vault: Vault, _ service: String) throws -> [VaultItem] {
        var items: [VaultItem] = []
        try vault.forEachItemView(service: service) { view in
            let item = view.item
            #expect(view.id == item.id && view.service == service && view.isService(service))
            #expect(view.label == item.label && view.created == item.created && view.modified == item.modified)
            #expect(Array(view.data) == Array(item.data))
            for (key, value) in item.attributes { #expect(view.attribute(key) == value) }
            #expect(view.attribute("absent") == nil)
            items.append(item)
        }
        return items.sorted { $0.account < $1.account }
    }

    @Test func viewsHoldWhatItemsGivesFromTheIndexAndTheRecordsAfterIt() throws {
        let dir = try TemporaryDirectory()
        _ = try IndexTests.populated(dir)
        let vault = try IndexTests.open(dir)
        #expect(try ListingTests.store(vault).index != nil)
        try vault.upsert(
            service: "s", account: "k1", content("after", label: "a label", attributes: ["order": "7", "é": "ü"]))
        try vault.upsert(service: "s", account: "new", content("", attributes: ["x": ""]))
        try vault.delete(service: "s", account: "k2")
        let viewed = try Self.viewed(vault, "s")
        #expect(viewed == (try vault.items(service: "s")))
        #expect(viewed.contains { $0.account == "k1" && $0.attributes["order"] == "7" })
        #expect(!viewed.contains { $0.account == "k2" })
        #expect(try Self.viewed(vault, "other").map(\.account) == ["x"])
        #expect(try Self.viewed(vault, "none").isEmpty)
        // From the index's records too (reopened: everything before the last index is there).
        let reopened = try IndexTests.open(dir)
        #expect(try Self.viewed(reopened, "s") == viewed)
    }

    /// An attribute is found as the dictionary finds it: by `String` equality, which is canonical
    /// equivalence ("é" precomposed or as "e" and a combining accent; the Kelvin sign is "K").
    @Test func anAttributeIsFoundByStringEqualityAsTheDictionaryFindsIt() throws {
        let attributes = ["caf\u{E9}": "nfc", "\u{212A}elvin": "sign", "plain": "ascii"]
        let payload = RecordPayload.put(
            VaultItem(
                id: VaultItem.ID(service: "s\u{E9}", account: "a"), content: content("d", attributes: attributes),
                created: Date(timeIntervalSince1970: 1), modified: Date(timeIntervalSince1970: 2))
        ).encoded()
        try payload.withUnsafeBytes { bytes in
            guard case .put(let view) = try #require(PayloadLayout.parse(bytes)) else {
                Issue.record("not a put")
                return
            }
            for name in ["caf\u{E9}", "cafe\u{301}", "\u{212A}elvin", "Kelvin", "plain", "Plain", "cafe", "elvin"] {
                #expect(view.attribute(name) == view.attributes[name], "\(name)")
            }
            #expect(view.attribute("cafe\u{301}") == "nfc")
            #expect(view.isService("se\u{301}") && view.isService("s\u{E9}") && !view.isService("s"))
        }
    }

    /// A view of a damaged record is never handed over: the listing stops at the same record,
    /// with the same error, as the listing of items.
    @Test func aDamagedRecordStopsTheViewListingAsItStopsTheItemListing() throws {
        let dir = try TemporaryDirectory()
        let entries = try ListingTests.currentIndexEntries(dir)
        for (entry, offset) in [(entries[0], 60), (entries[entries.count / 2], 20), (entries[entries.count - 1], 2)] {
            let original = try fileBytes(dir.vault)
            var bytes = original
            bytes[Int(entry.offset) + offset] ^= 1
            try writeBytes(bytes, to: dir.vault)
            let reopened = try IndexTests.open(dir)
            var viewedBefore = 0
            let viewError = vaultError { try reopened.forEachItemView(service: "s") { _ in viewedBefore += 1 } }
            var listedBefore = 0
            let itemError = vaultError { try reopened.forEachItem(service: "s") { _ in listedBefore += 1 } }
            #expect(viewError?.isIntegrity == true, "\(String(describing: viewError))")
            #expect(viewError?.description == itemError?.description)
            #expect(viewError?.description.contains("byte \(entry.offset)") == true, "\(String(describing: viewError))")
            #expect(viewedBefore == listedBefore)
            try writeBytes(original, to: dir.vault)
        }
    }
}
