import Foundation

/// The journal's `server` records added up: consumption information by transaction, app
/// account tokens by original transaction, extensions by subscription and mass extensions by
/// request identifier. Part of `JournalState`, so compaction keeps them.
///
/// The records live in a `ServerRecordLog` that copies of this value share: a value sees the
/// log's first `count` records. Applying a record appends to the shared log, so it costs the
/// same whatever the history's length even while a published snapshot (`PublishedSnapshot`)
/// holds an older copy — a copy-on-write collection would be copied whole by the first write
/// after each publication, and the server publishes one for every request.
struct ServerRecords: Sendable {
    private var log = ServerRecordLog()
    private var count = 0

    mutating func apply(_ record: ServerRecord) {
        if !log.append(record, at: count) {
            // Another copy of this value applied something else at this position: from here on
            // this one keeps a log of its own.
            log = log.prefix(count)
            _ = log.append(record, at: count)
        }
        count += 1
    }

    /// Whether this value and `other` read the same log (appending must not copy it).
    func sharesLog(with other: ServerRecords) -> Bool { log === other.log }

    /// Consumption information received for a transaction, oldest first.
    func consumption(transactionID: String) -> [ConsumptionRecord] {
        log.records(for: .consumption(transactionID), below: count).compactMap(\.consumption)
    }

    /// Every transaction's consumption information, by transaction ID, each oldest first.
    var allConsumption: [String: [ConsumptionRecord]] {
        var all: [String: [ConsumptionRecord]] = [:]
        log.forEach(below: count) { record in
            if let c = record.consumption { all[c.transactionID, default: []].append(c) }
        }
        return all
    }

    /// The app account token last set for a purchase, by original transaction ID.
    func appAccountToken(originalTransactionID: String) -> UUID? {
        log.records(for: .appAccountToken(originalTransactionID), below: count).last?.appAccountToken?.token
    }

    /// A subscription's renewal-date extensions, oldest first.
    func extensions(originalTransactionID: String) -> [RenewalExtension] {
        log.records(for: .renewalExtension(originalTransactionID), below: count).compactMap(\.renewalExtension)
    }

    /// The mass extension last recorded for a product and request identifier.
    func massExtension(productID: String, requestIdentifier: String) -> MassRenewalExtension? {
        log.records(for: .massExtension(productID: productID, requestIdentifier: requestIdentifier), below: count)
            .last?.massExtension
    }

    /// The records that rebuild this state (app account tokens only their last version).
    var snapshot: [ServerRecord] {
        var records: [ServerRecord] = []
        log.forEach(below: count) { records.append($0) }
        var seenTokens = Set<String>()
        var kept: [ServerRecord] = []
        for record in records.reversed() {
            if let t = record.appAccountToken, !seenTokens.insert(t.originalTransactionID).inserted { continue }
            kept.append(record)
        }
        return kept.reversed()
    }
}
