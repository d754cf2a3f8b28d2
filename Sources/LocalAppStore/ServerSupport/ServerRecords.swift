import Foundation

/// The journal's `server` records added up: consumption information by transaction, app
/// account tokens by original transaction, extensions by subscription and mass extensions by
/// request identifier. Part of `JournalState`, so compaction keeps them.
struct ServerRecords: Sendable {
    private(set) var consumption: [String: [ConsumptionRecord]] = [:]
    private(set) var appAccountTokens: [String: UUID] = [:]
    private(set) var extensions: [String: [RenewalExtension]] = [:]
    private(set) var massExtensions: [String: MassRenewalExtension] = [:]
    /// Every record in the order applied, for compaction.
    private var records: [ServerRecord] = []

    mutating func apply(_ record: ServerRecord) {
        records.append(record)
        if let c = record.consumption { consumption[c.transactionID, default: []].append(c) }
        if let t = record.appAccountToken { appAccountTokens[t.originalTransactionID] = t.token }
        if let e = record.renewalExtension { extensions[e.originalTransactionID, default: []].append(e) }
        if let m = record.massExtension { massExtensions[m.productID + "/" + m.requestIdentifier] = m }
    }

    /// The records that rebuild this state (tokens and mass extensions only their last version).
    var snapshot: [ServerRecord] {
        var seenTokens = Set<String>()
        var kept: [ServerRecord] = []
        for record in records.reversed() {
            if let t = record.appAccountToken, !seenTokens.insert(t.originalTransactionID).inserted { continue }
            kept.append(record)
        }
        return kept.reversed()
    }
}
