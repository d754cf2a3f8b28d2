import Foundation
import Receipts
import StoreCore

/// How transactions appear in tables and in the `--json` contract.
enum TransactionOutput {
    /// A date as ISO 8601 in UTC, e.g. `2026-11-30T13:14:22Z`.
    static func date(_ date: Date) -> String {
        utcSeconds(date)
            ?? date.formatted(
                .iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)
                    .timeSeparator(.colon).timeZone(separator: .omitted))
    }

    /// `date(_:)` computed directly (`ReceiptDate.format`, the same form), for dates from 1970 to
    /// 9999 at least a millisecond from the next whole second (Foundation's formatter gives the
    /// rest, whose rounding stays its own): a history prints a date per row, and the format
    /// style costs more than the rest of it.
    static func utcSeconds(_ date: Date) -> String? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { bytes in
            utcSeconds(date, into: bytes) ? String(decoding: bytes.prefix(20), as: UTF8.self) : nil
        }
    }

    /// Writes `utcSeconds(_:)`'s 20 bytes into `bytes` (at least 20 of them); `false` (nothing
    /// written) for the dates it leaves to Foundation.
    static func utcSeconds(_ date: Date, into bytes: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        let interval = date.timeIntervalSince1970
        guard interval >= 0, interval < 253_402_300_800, interval - interval.rounded(.down) < 0.999 else {
            return false
        }
        return ReceiptDate.format(date, into: bytes)
    }

    /// The state a transaction shows in every listing and `--json`: `refunded` once it is
    /// revoked (it has a `revocationDate`), else its own (`purchased`, `restored`…).
    static func state(of t: Transaction) -> String { state(t.state, revocationDate: t.revocationDate) }

    /// `state(of:)` for a summary, which has the same two facts.
    static func state(of t: TransactionSummary) -> String { state(t.state, revocationDate: t.revocationDate) }

    private static func state(_ state: TransactionState, revocationDate: Date?) -> String {
        revocationDate == nil ? state.rawValue : "refunded"
    }

    /// One transaction as a JSON object, members in contract order.
    /// - Parameter state: what its `state` says instead of `state(of:)` (`pending-ask-to-buy`).
    static func json(_ t: Transaction, state: String? = nil) -> JSONText {
        var members: [(String, JSONText)] = [
            ("transactionID", .string(t.transactionID)),
            ("originalTransactionID", .string(t.originalTransactionID)),
            ("productID", .string(t.productID)),
            ("productType", .string(t.productType.rawValue)),
            ("quantity", .number(String(t.quantity))),
            ("purchaseDate", .string(date(t.purchaseDate))),
            ("state", .string(state ?? Self.state(of: t))),
            ("ownershipType", .string(t.ownershipType.rawValue)),
        ]
        if let expires = t.expiresDate { members.append(("expiresDate", .string(date(expires)))) }
        if let revoked = t.revocationDate { members.append(("revocationDate", .string(date(revoked)))) }
        if let reason = t.revocationReason { members.append(("revocationReason", .number(String(reason)))) }
        if let web = t.webOrderLineItemID { members.append(("webOrderLineItemID", .string(web))) }
        if let group = t.subscriptionGroupID { members.append(("subscriptionGroupID", .string(group))) }
        if let offer = t.offerType { members.append(("offerType", .string(offer.rawValue))) }
        if let offerID = t.offerID { members.append(("offerID", .string(offerID))) }
        if t.isUpgraded { members.append(("isUpgraded", .bool(true))) }
        if let price = t.price { members.append(("price", .string("\(price)"))) }
        if let currency = t.currencyCode { members.append(("currencyCode", .string(currency))) }
        if let storefront = t.storefront { members.append(("storefront", .string(storefront))) }
        if let user = t.payment.applicationUsername { members.append(("applicationUsername", .string(user))) }
        if let token = t.appAccountToken { members.append(("appAccountToken", .string(token.uuidString.lowercased()))) }
        if !t.payment.orderData.isEmpty {
            members.append(
                (
                    "orderData",
                    .object(t.payment.orderData.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
                ))
        }
        if let plan = t.billingPlanType { members.append(("billingPlanType", .string(plan.rawValue))) }
        if let commitment = t.commitmentInfo { members.append(("commitmentInfo", json(commitment))) }
        if let error = t.error { members.append(("error", .string(error.description))) }
        return .object(members)
    }

    /// A payment's place in its commitment: billingPeriodNumber, totalBillingPeriods, price
    /// (decimal string, the transaction's currency) and expirationDate.
    static func json(_ c: Transaction.CommitmentInfo) -> JSONText {
        .object([
            ("billingPeriodNumber", .number(String(c.billingPeriodNumber))),
            ("totalBillingPeriods", .number(String(c.totalBillingPeriods))),
            ("price", .string("\(c.price)")),
            ("expirationDate", .string(date(c.expirationDate))),
        ])
    }

    /// "payment 3 of 12, commitment ends 2027-12-07": where a monthly payment stands.
    static func commitment(_ c: Transaction.CommitmentInfo) -> String {
        commitment(payment: c.billingPeriodNumber, of: c.totalBillingPeriods, ends: c.expirationDate)
    }

    /// "payment 3 of 12, commitment ends 2027-12-07" (the end's UTC day).
    static func commitment(payment number: Int, of total: Int, ends: Date) -> String {
        "payment \(number) of \(total), commitment ends " + String(date(ends).prefix(10))
    }

    /// Transactions as table lines, newest last.
    static func table(_ transactions: [(Transaction, String)]) -> [String] {
        var lines: [String] = []
        table(transactions.map { (TransactionSummary($0.0), $0.1) }) { lines.append($0) }
        return lines
    }

    /// Summaries as table lines, newest last, handed to `line` one at a time.
    static func table(_ transactions: [(TransactionSummary, String)], line: (String) -> Void) {
        table(transactions, bytes: { line(String(decoding: $0, as: UTF8.self)) })
    }

    /// Summaries as table lines in UTF-8 (no newline), newest last, handed to `line` one at a
    /// time from a buffer reused for every line (`TextTable.render(bytes:)`). A table with a
    /// monthly payment of a 12-month commitment has a COMMITMENT column ("payment 3 of 12,
    /// commitment ends 2027-12-07"), empty for the other rows.
    static func table(_ transactions: [(TransactionSummary, String)], bytes line: (UnsafeRawBufferPointer) -> Void) {
        let committed = transactions.contains { $0.0.commitmentInfo != nil }
        TextTable(
            columns: [
                .init(header: "TRANSACTION"), .init(header: "ORIGINAL"), .init(header: "PRODUCT", maximumWidth: 44),
                .init(header: "QTY", alignment: .right), .init(header: "DATE"), .init(header: "STATE"),
            ] + (committed ? [.init(header: "COMMITMENT")] : []),
            rows: transactions.map { t, state in
                [
                    t.transactionID, t.originalTransactionID, t.productID, String(t.quantity), date(t.purchaseDate),
                    state,
                ] + (committed ? [t.commitmentInfo.map(commitment) ?? ""] : [])
            }
        ).render(bytes: line)
    }
}
