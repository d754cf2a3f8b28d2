import TestSupport

/// The rules every recovered crash state must keep, whatever the operation:
/// - it opens, or reports a clear integrity error (counted apart), never anything else;
/// - nothing the store charged is missing from the ledger after recovery, and nothing in the
///   ledger is unknown to the store or differs from it (never wrong data);
/// - no payment is charged twice, and consumable balances are what the charges add up to,
///   less what the scenario consumed;
/// - nothing recorded before the operation is lost;
/// - content is installed whole or not at all, and every delivered product with content has it;
/// - recovery settles, a second run sees the same, and no lease file the crash left stays.
enum CrashJudge {
    /// How a state ended.
    enum Verdict: Equatable {
        case passed
        /// A clear integrity error: damage detected and named (allowed, counted apart).
        case integrityError(String)
        case failed([String])
    }

    /// Judges `report`, a state of `scenario` whose recording passed `marks` before the crash.
    static func judge(
        _ report: CrashCheckReport, marks: Set<String>, scenario: CrashScenario, baseline: CrashScenario.Baseline
    ) -> Verdict {
        let consumed = scenario.consumption(marks)
        guard let facts = report.first else {
            let error = report.storeError ?? report.vaultError ?? "no facts"
            return report.integrityError ? .integrityError(error) : .failed(["could not reopen: \(error)"])
        }
        var failures: [String] = []
        if !facts.settled { failures.append("recovery did not settle (a purchase or download was left owed)") }
        if let difference = report.secondRunDifference { failures.append("a second run saw otherwise: \(difference)") }
        // The crash's own leases must be swept; the checker's instances may still hold theirs
        // while they live (a lease of a living instance is never taken).
        let unswept = Set(report.leftoverLeases).intersection(report.leasesBefore)
        if !unswept.isEmpty {
            failures.append("lease files the crash left are still in store/owners: \(unswept.sorted())")
        }
        failures += facts.warnings

        let store = Dictionary(facts.store.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let ledger = Dictionary(facts.ledger.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for entry in facts.ledger {
            guard let known = store[entry.id] else {
                failures.append("the ledger holds \(entry.id) (\(entry.productID)) that the store never made")
                continue
            }
            if (known.productID, known.quantity, known.requestID, known.type) != (
                entry.productID, entry.quantity, entry.requestID, entry.type
            ) {
                failures.append("the ledger's \(entry.id) differs from the store's: \(entry) vs \(known)")
            }
            if known.revoked != entry.revoked {
                failures.append("\(entry.id) is refunded in \(known.revoked ? "the store" : "the ledger") only")
            }
            if known.expires != entry.expires {
                failures.append("\(entry.id) expires differently in the ledger and the store")
            }
        }
        let delivered = facts.store.filter { ["purchased", "restored"].contains($0.state) }
        for entry in delivered where ledger[entry.id] == nil {
            failures.append("lost: the store \(entry.state) \(entry.id) (\(entry.productID)) but the ledger lacks it")
        }
        let charged = Set(facts.charged)
        var chargesByRequest: [String: Int] = [:]
        for entry in facts.store
        where charged.contains(entry.id) && entry.state == "purchased" && entry.type != "autoRenewable" {
            chargesByRequest[entry.requestID, default: 0] += 1
        }
        for (request, count) in chargesByRequest where count > 1 {
            failures.append("one payment (\(request)) charged \(count) times")
        }
        for entry in baseline.ledger where ledger[entry.id] == nil {
            failures.append("lost: \(entry.id) (\(entry.productID)) was recorded before the operation and is gone")
        }
        for id in baseline.charged where !charged.contains(id) {
            failures.append("lost: the store had charged \(id) before the operation and no longer has")
        }
        var counted: [String: Int] = [:]
        for entry in facts.ledger where entry.type == "consumable" && !entry.revoked {
            counted[entry.productID, default: 0] += entry.quantity
        }
        for product in Set(counted.keys).union(facts.balances.keys) {
            let balance = facts.balances[product] ?? 0
            let bought = counted[product] ?? 0
            if !consumed.contains(bought - balance) {
                failures.append(
                    "\(product): balance \(balance) from \(bought) bought (consumed \(bought - balance), expected \(consumed))"
                )
            }
        }
        for installed in facts.installed {
            if let problem = installed.problem {
                failures.append("half-installed \(installed.productID) \(installed.version): \(problem)")
            }
        }
        for entry in facts.ledger where entry.productID == CrashCatalog.levels && !entry.revoked {
            if !facts.installed.contains(where: { $0.productID == entry.productID && $0.problem == nil }) {
                failures.append("\(entry.productID) was delivered but its content is not installed after recovery")
            }
        }
        for download in facts.downloads where download.state == "failed" {
            failures.append("download \(download.id) failed: \(download.error ?? "?")")
        }
        failures += scenario.expectations(CrashScenario.Judgement(facts: facts, marks: marks, baseline: baseline))
        return failures.isEmpty ? .passed : .failed(failures)
    }
}
