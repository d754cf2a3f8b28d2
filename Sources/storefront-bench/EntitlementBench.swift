import Foundation
import StoreCore
import Vault

/// Entitlements of an account with 10,000 renewal transactions across 10 subscription groups:
/// one `currentEntitlements` + `statuses` computation, beside reading the same transactions
/// back from the vault (the work every call would add if it read the vault each time).
struct EntitlementBench: BenchSection {
    let name = "entitlements"
    let summary = "entitlements over 10,000 renewals in 10 groups, per call (peer: reading them from the vault)"
    var groups = 10
    var renewalsPerGroup = 1_000
    var runs = 7

    func run(_ report: BenchReport) throws {
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        var transactions: [Transaction] = []
        for group in 0..<groups {
            let original = String(3_000_000_000 + group * 10_000)
            for n in 0..<renewalsPerGroup {
                let begin = start.addingTimeInterval(Double(n) * 30)
                transactions.append(Transaction(
                    transactionID: String(3_000_000_000 + group * 10_000 + n), originalTransactionID: original,
                    productID: "bench.group\(group).monthly", productType: .autoRenewable,
                    payment: Payment(productID: "bench.group\(group).monthly"), state: .purchased, purchaseDate: begin,
                    expiresDate: begin.addingTimeInterval(30), subscriptionGroupID: "group\(group)"))
            }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("entitlementbench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledger = try VaultLedger.open(inDataDirectory: directory, environment: [:])
        try ledger.recordAll(transactions)

        let now = start.addingTimeInterval(Double(renewalsPerGroup - 1) * 30 + 10)
        let calculator = EntitlementCalculator()
        let records = transactions.map(PurchaseRecord.init)
        var entitled = 0
        let compute = Timing.measure(runs: runs) {
            entitled = calculator.currentEntitlements(records: records, renewalInfo: [], at: now).count
            _ = calculator.statuses(records: records, renewalInfo: [], at: now)
        }
        guard entitled == groups else { throw Blocking.Failure(description: "expected \(groups) entitlements, got \(entitled)") }
        var read = 0
        let vaultRead = try Timing.measure(runs: runs) { read = try ledger.transactions().count }
        guard read == transactions.count else { throw Blocking.Failure(description: "read \(read) transactions back") }

        report.line("entitlements + statuses, 10,000 renewals", BenchReport.duration(compute.median), compute.summary)
        report.line("read the 10,000 transactions from the vault", BenchReport.duration(vaultRead.median), vaultRead.summary)
        report.line("compute / vault read", BenchReport.ratio(compute.median / vaultRead.median), "below 1× means computing costs less than reading")
    }
}
