import Foundation
import StoreCore
import Vault

/// Entitlements of an account with 10,000 renewal transactions across 10 subscription groups:
/// the computation alone, and a whole call as `Store.currentEntitlements` makes it (the ledger
/// read, which decodes only what changed since the last read, plus the computation), beside
/// reading the same transactions from the vault cold (open, decrypt, decode).
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
                transactions.append(
                    Transaction(
                        transactionID: String(3_000_000_000 + group * 10_000 + n), originalTransactionID: original,
                        productID: "bench.group\(group).monthly", productType: .autoRenewable,
                        payment: Payment(productID: "bench.group\(group).monthly"), state: .purchased,
                        purchaseDate: begin,
                        expiresDate: begin.addingTimeInterval(30), subscriptionGroupID: "group\(group)"))
            }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "entitlementbench-\(UUID().uuidString)")
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
        }
        guard entitled == groups else {
            throw Blocking.Failure(description: "expected \(groups) entitlements, got \(entitled)")
        }
        _ = try ledger.transactions()
        let call = try Timing.measure(runs: runs) {
            let records = try ledger.transactions().map(PurchaseRecord.init)
            entitled = calculator.currentEntitlements(records: records, renewalInfo: [], at: now).count
        }
        guard entitled == groups else {
            throw Blocking.Failure(description: "expected \(groups) entitlements per call, got \(entitled)")
        }
        var read = 0
        let vaultRead = try Timing.measure(runs: runs) {
            read = try VaultLedger.open(inDataDirectory: directory, environment: [:]).transactions().count
        }
        guard read == transactions.count else { throw Blocking.Failure(description: "read \(read) transactions back") }

        report.line("compute entitlements, 10,000 renewals", BenchReport.duration(compute.median), compute.summary)
        report.line(
            "one call: ledger read + compute", BenchReport.duration(call.median),
            call.summary + "; what Store.currentEntitlements costs")
        report.line(
            "cold vault read of the 10,000", BenchReport.duration(vaultRead.median),
            vaultRead.summary + "; open + decrypt + decode")
        report.line(
            "compute / cold vault read", BenchReport.ratio(compute.median / vaultRead.median),
            "below 1× means computing costs less than reading")
        report.line(
            "one call / cold vault read", BenchReport.ratio(call.median / vaultRead.median),
            "what the decode cache saves a running app per call")
    }
}
