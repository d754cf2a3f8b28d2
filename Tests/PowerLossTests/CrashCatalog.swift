import Catalog
import Foundation
import TestSupport

/// The small catalog the power-loss tests sell from: one consumable, one non-consumable, one
/// non-consumable with hosted content (three files, a few checkpoints long) and a monthly
/// subscription. Written into the test's directory, so the child reads the same file.
enum CrashCatalog {
    static let coins = "com.crash.coins"
    static let pro = "com.crash.pro"
    static let levels = "com.crash.levels"
    static let monthly = "com.crash.monthly"
    /// A yearly subscription also sold monthly over a 12-month commitment.
    static let yearly = "com.crash.yearly"
    static let contentVersion = "1.0"

    /// The hosted content of `levels`: sizes chosen to cross 4 KiB checkpoints, and an empty file.
    static let files: [(path: String, bytes: [UInt8])] = [
        ("levels/1.json", pattern(9_000, seed: 1)),
        ("levels/2.json", pattern(5_000, seed: 2)),
        ("README.txt", Array("Three levels.\n".utf8)),
        ("empty.dat", []),
    ]

    /// Writes `Crash.storekit` and its content sidecar into `directory`.
    /// - Returns: the catalog file.
    static func write(into directory: URL) throws -> URL {
        let catalog = directory.appendingPathComponent("Crash.storekit")
        try Data(json.utf8).write(to: catalog)
        let content = directory.appendingPathComponent("Crash.content").appendingPathComponent(levels)
        var entries: [String] = []
        for file in files {
            let url = content.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
            entries.append(
                #"{ "path": "\#(file.path)", "size": \#(file.bytes.count), "sha256": "\#(try FileHash.sha256(file.bytes))" }"#
            )
        }
        let manifest =
            #"{ "version": 1, "contentVersion": "\#(contentVersion)", "files": [ \#(entries.joined(separator: ", ")) ] }"#
        try Data(manifest.utf8).write(to: content.appendingPathComponent("manifest.json"))
        return catalog
    }

    private static func pattern(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SeededGenerator(state: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    static let json = StoreKitDocument.document(
        identifier: "CRASH",
        products: [
            StoreKitDocument.product(coins, type: "Consumable", price: "0.99", name: "Coins"),
            StoreKitDocument.product(pro, type: "NonConsumable", price: "9.99", name: "Pro", familyShareable: true),
            StoreKitDocument.product(levels, type: "NonConsumable", price: "1.99", name: "Levels"),
        ],
        subscriptions: [
            StoreKitDocument.subscription(
                monthly, period: "P1M", price: "2.99", name: "Monthly", level: 1, familyShareable: true),
            StoreKitDocument.subscription(
                yearly, period: "P1Y", price: "29.99", name: "Yearly", level: 2,
                members: #""billingPlans" : [ { "billingPlanType" : "BILLED_UPFRONT", "displayPrice" : "29.99" }, "#
                    + #"{ "billingPlanType" : "MONTHLY", "displayPrice" : "2.99", "commitmentDisplayPrice" : "35.88" } ], "#
            ),
        ]
    )
}
