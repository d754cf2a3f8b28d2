import Catalog
import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// The journal's lines read through the catalog's tape parser (`StoreJournal.decode`): every kind
/// of record a store writes, and an old journal's, read as Foundation's `JSONDecoder` reads them;
/// a line that is not a record refused with the file, the line and the member named.
@Suite(.timeLimit(.minutes(5))) struct JournalRecordReadingTests {
    static let versionFive = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/journal-v5/journal.jsonl")
    /// The journal fuzzer's seeds and the archive fuzzer's seed stores' journals.
    static let seeds = [
        "journal/store.jsonl", "journal/one-purchase.jsonl", "archive/journal.jsonl", "archive-v6/journal.jsonl",
    ]
    .map {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/seeds/" + $0)
    }

    /// Every kind the store writes.
    static let kinds: Set<JournalRecord.Kind> = [
        .header, .entry, .settings, .subscription, .server, .owned, .storeKit, .notification, .family,
    ]

    /// The record's JSON written again with sorted keys: equal when the two records are.
    func canonical(_ record: JournalRecord) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(record), as: UTF8.self)
    }

    /// Reads each line of `journal` both ways and expects the same record; returns the kinds read.
    func readBothWays(_ journal: URL, with reader: StoreJournal) throws -> [JournalRecord] {
        let lines = try Data(contentsOf: journal).split(separator: UInt8(ascii: "\n"))
        return try lines.enumerated().map { number, line in
            let record = try reader.decode(ArraySlice(line), line: number + 1)
            let foundation = try JSONDecoder().decode(JournalRecord.self, from: Data(line))
            #expect(try canonical(record) == canonical(foundation), "\(journal.lastPathComponent):\(number + 1)")
            return record
        }
    }

    /// A Demo store that wrote every kind of record: settings, a purchase and its refund request,
    /// an offer code redeemed, a family member.
    func storeOfEveryKind() async throws -> (demo: DemoEngine, bought: Transaction, code: OfferCode) {
        let demo = try DemoEngine()
        let (backend, store) = try await demo.launch()
        try await backend.settings.set(name: "notification-url", value: "http://127.0.0.1:9/notifications")
        let bought = try #require(await store.purchase(DemoCatalog.removeAds).transaction)
        #expect(try await store.beginRefundRequest(for: bought.transactionID) == .success)
        let code = try #require(
            try await backend.offers.issueCodes(productID: DemoCatalog.pro, offerID: DemoCatalog.codeOffer).first)
        _ = try await store.redeem(offerCode: code.code)
        _ = try await backend.familySharing.add(StoreAccount(id: "bob", displayName: "Bob"))
        return (demo, bought, code)
    }

    @Test func everyKindOfRecordReadsAsFoundationReadsIt() async throws {
        let (demo, bought, code) = try await storeOfEveryKind()

        let reader = try StoreJournal(
            directory: demo.directory.stateDirectory.path, initialSettings: LocalStoreSettings(),
            metrics: StoreMetrics(), readOnly: true)
        let written = try readBothWays(demo.directory.journal, with: reader)
        let old = try readBothWays(Self.versionFive, with: reader)
        let seeded = try Self.seeds.flatMap { try readBothWays($0, with: reader) }
        #expect(seeded.count > 20)
        #expect(Set((written + old).map(\.kind)) == Self.kinds)

        // The values themselves, not only their agreement.
        let header = try #require(old.first)
        #expect(header.format == JournalRecord.formatName && header.version == 5 && header.generation == 2)
        let entry = try #require(written.last { $0.entry?.id == bought.transactionID }?.entry)
        #expect(entry.transaction.productID == DemoCatalog.removeAds && entry.transaction.price == bought.price)
        #expect(entry.transaction.purchaseDate == bought.purchaseDate && entry.accountID == StoreAccount.localTester.id)
        #expect(written.contains { $0.storeKit?.refundRequest?.transactionID == bought.transactionID })
        #expect(written.contains { $0.storeKit?.offerCode?.code == code.code })
        #expect(written.contains { $0.family?.account?.id == "bob" })
        #expect(written.contains { $0.settings?.notificationURL == "http://127.0.0.1:9/notifications" })
    }

    /// The same JSON value, whatever the order of each object's members.
    static func sameJSON(_ streamed: [UInt8], _ foundation: Data) throws -> Bool {
        /// Written again with sorted keys by `JSONSerialization`.
        func canonical(_ data: Data) throws -> Data {
            try JSONSerialization.data(
                withJSONObject: JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed),
                options: [.sortedKeys, .fragmentsAllowed])
        }
        return try canonical(Data(streamed)) == canonical(foundation)
    }

    @Test func everyKindOfRecordIsWrittenAsFoundationWritesIt() async throws {
        let (demo, bought, _) = try await storeOfEveryKind()
        let reader = try StoreJournal(
            directory: demo.directory.stateDirectory.path, initialSettings: LocalStoreSettings(),
            metrics: StoreMetrics(), readOnly: true)

        // What this store wrote is what the streaming encoder writes for the record read back.
        let lines = try Data(contentsOf: demo.directory.journal).split(separator: UInt8(ascii: "\n"))
        var kinds: Set<JournalRecord.Kind> = []
        for (number, line) in lines.enumerated() {
            let record = try reader.decode(ArraySlice(line), line: number + 1)
            #expect(try StreamingJSONEncoder().encode(record) == Array(line), "journal.jsonl:\(number + 1)")
            kinds.insert(record.kind)
        }
        #expect(kinds.isSuperset(of: [.header, .entry, .settings, .storeKit, .notification, .family]))

        // Every record of every kind, old journals' too: the same JSON as JSONEncoder's, read back
        // by the journal's reader as the same record.
        let records =
            try readBothWays(demo.directory.journal, with: reader)
            + readBothWays(Self.versionFive, with: reader) + Self.seeds.flatMap { try readBothWays($0, with: reader) }
        #expect(Set(records.map(\.kind)) == Self.kinds)
        for record in records {
            let streamed = try StreamingJSONEncoder().encode(record)
            #expect(try Self.sameJSON(streamed, JSONEncoder().encode(record)), "\(record.kind.rawValue)")
            #expect(try canonical(reader.decode(streamed[...], line: 1)) == canonical(record))
        }
        let entry = try #require(records.last { $0.entry?.id == bought.transactionID }?.entry)
        let text = String(decoding: try StreamingJSONEncoder().encode(entry.transaction), as: UTF8.self)
        #expect(text.hasPrefix(#"{"transactionID":"\#(bought.transactionID)","originalTransactionID":"#))
    }

    /// A journal of a header and `line` as its second line.
    func journal(withSecondLine line: String) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        var journal = LegacyJournal(version: JournalRecord.currentVersion)
        journal.appendLine(line)
        try journal.write(to: directory)
        return directory
    }

    /// The reason the store gives for refusing the journal of `directory` at `line`.
    func refusal(_ directory: TemporaryDirectory, line expected: Int) throws -> String {
        do {
            _ = try makeStore(directory)
            Issue.record("the journal opened")
            return ""
        } catch let error as LocalAppStoreError {
            guard case .corrupt(let path, let line, let reason) = error else {
                Issue.record("expected .corrupt, got \(error)")
                return ""
            }
            #expect(path == directory.journal.path && line == expected)
            #expect(error.description.contains("journal.jsonl:\(expected)"))
            return reason
        }
    }

    @Test func aMemberOfTheWrongTypeIsRefusedByItsPath() throws {
        let directory = try journal(
            withSecondLine: #"{"kind":"entry","entry":{"accountID":"a","charged":true,"finished":false,"#
                + #""transaction":{"transactionID":"1","productID":"p","productType":"consumable","#
                + #""payment":{"productID":"p","quantity":1,"orderData":{},"requestID":"r"},"state":"purchased","purchaseDate":"yesterday"}}}"#
        )
        let reason = try refusal(directory, line: 2)
        #expect(reason == "not a journal record: $.entry.transaction.purchaseDate: expected a number, found a string")
    }

    @Test func aMissingMemberIsRefusedByItsName() throws {
        let directory = try journal(withSecondLine: #"{"kind":"entry","entry":{"accountID":"a","charged":true}}"#)
        let reason = try refusal(directory, line: 2)
        #expect(reason == #"not a journal record: $.entry: missing member "transaction""#)
    }

    @Test func aNumberOutOfRangeIsRefused() throws {
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.stateDirectory, withIntermediateDirectories: true)
        try Data(
            #"{"kind":"header","format":"storefront-local-store-journal","nextTransactionID":-1,"version":7}"#.utf8
                + [10]
        ).write(to: directory.journal)
        let reason = try refusal(directory, line: 1)
        #expect(reason == "not a journal record: $.nextTransactionID: the number -1 does not fit UInt64")
    }

    @Test func aLineThatIsNotJSONSaysWhere() throws {
        let directory = try journal(withSecondLine: #"{"kind":"settings","settings":{}"#)
        let reason = try refusal(directory, line: 2)
        #expect(reason.hasPrefix("not a journal record: $: not valid JSON: "))
        #expect(reason.contains("line 1, column"))
    }

    @Test func aKindThisVersionDoesNotKnowIsSkipped() throws {
        let directory = try journal(withSecondLine: #"{"kind":"from-the-future","future":{"x":[1,2,3]}}"#)
        let store = try makeStore(directory)
        _ = store
    }
}
