import Foundation
internal import Vault

/// The vault ledger's aggregates, kept in the same atomic write as the transaction they follow
/// (`VaultLedger`): units counted per consumable, the transactions that can grant an entitlement
/// (non-consumables, non-renewing subscriptions), and each subscription's latest transaction in
/// `EntitlementCalculator`'s order (a group's own, and each a family member shares, by
/// `EntitlementCalculator.subscriptionKey`), with what orders every transaction of it, so that
/// the latest can be found again when a refund or an upgrade moves it back.
struct LedgerAggregates {
    /// What places a subscription transaction in its group's order (`EntitlementCalculator.isLater`),
    /// kept as item attributes with the dates' exact values.
    struct OrderKey: Equatable {
        var transactionID: String
        var purchaseDate: Date
        var expiresDate: Date?
        var isUpgraded: Bool

        init(_ transaction: Transaction) {
            transactionID = transaction.transactionID
            purchaseDate = transaction.purchaseDate
            expiresDate = transaction.expiresDate
            isUpgraded = transaction.isUpgraded
        }

        init?(_ attributes: [String: String]) {
            guard let id = attributes["id"], let purchase = attributes["purchase"].flatMap(Double.init) else {
                return nil
            }
            transactionID = id
            purchaseDate = Date(timeIntervalSinceReferenceDate: purchase)
            expiresDate = attributes["expires"].flatMap(Double.init).map(Date.init(timeIntervalSinceReferenceDate:))
            isUpgraded = attributes["upgraded"] == "1"
        }

        var attributes: [String: String] {
            var attributes = [
                "id": transactionID, "purchase": "\(purchaseDate.timeIntervalSinceReferenceDate)",
                "upgraded": isUpgraded ? "1" : "0",
            ]
            if let expiresDate { attributes["expires"] = "\(expiresDate.timeIntervalSinceReferenceDate)" }
            return attributes
        }

        /// Whether this transaction comes after `other` in its group (the calculator's own rule).
        func isLater(than other: OrderKey) -> Bool {
            EntitlementCalculator.isLater(record, than: other.record)
        }

        private var record: PurchaseRecord {
            PurchaseRecord(
                productID: "", productType: .autoRenewable, transactionID: transactionID,
                originalTransactionID: transactionID,
                purchaseDate: purchaseDate, expiresDate: expiresDate, isUpgraded: isUpgraded)
        }
    }

    private typealias Ledger = VaultLedger

    /// Follows a transaction recorded in `batch`: counts its units, keeps a copy when it can
    /// grant an entitlement, and places it in its subscription group.
    func recorded(
        _ transaction: Transaction, data: Data, order: String, counted: Int, in batch: inout VaultBatch
    ) throws {
        if counted != 0 {
            let product = transaction.productID
            let total = try batch.get(service: Ledger.countedService, account: product).map(Ledger.number) ?? 0
            batch.put(
                service: Ledger.countedService, account: product,
                VaultItemContent(data: Data("\(total + counted)".utf8), label: product))
        }
        try follow(
            transaction, data: data, order: order, in: &batch, decode: nil as ((VaultItem) throws -> Transaction)?)
    }

    /// Follows a new version of a recorded transaction (a refund, a new expiry, an upgrade). A
    /// count made at recording stays: a refund does not take units back.
    func updated(
        _ transaction: Transaction, data: Data, order: String, in batch: inout VaultBatch,
        decode: (VaultItem) throws -> Transaction
    ) throws {
        try withoutActuallyEscaping(decode) { decode in
            try follow(transaction, data: data, order: order, in: &batch, decode: decode)
        }
    }

    /// Follows a transaction deleted from `batch` (`item` is what was recorded): its counted
    /// units leave the balance, never below zero (consumed is lowered to what stays counted),
    /// its copy goes, and its group's latest is found again when it was that.
    func removed(
        _ transaction: Transaction, item: VaultItem, in batch: inout VaultBatch,
        decode: (VaultItem) throws -> Transaction
    ) throws {
        let id = transaction.transactionID
        let units = item.attributes["counted"].flatMap(Int.init) ?? 0
        if units > 0 {
            let product = transaction.productID
            let left = max(
                0, (try batch.get(service: Ledger.countedService, account: product).map(Ledger.number) ?? 0) - units)
            if left == 0 {
                batch.delete(service: Ledger.countedService, account: product)
            } else {
                batch.put(
                    service: Ledger.countedService, account: product,
                    VaultItemContent(data: Data("\(left)".utf8), label: product))
            }
            let consumed = try batch.get(service: Ledger.consumedService, account: product).map(Ledger.number) ?? 0
            if consumed > left {
                batch.put(
                    service: Ledger.consumedService, account: product,
                    VaultItemContent(data: Data("\(left)".utf8), label: product))
            }
        }
        switch transaction.productType {
        case .nonConsumable, .nonRenewing:
            batch.delete(service: Ledger.entitlingService, account: id)
        case .autoRenewable:
            guard let subscription = EntitlementCalculator.subscriptionKey(of: transaction) else { return }
            batch.delete(service: Ledger.periodsService(subscription), account: id)
            let current = try batch.get(service: Ledger.groupsService, account: subscription).flatMap {
                OrderKey($0.attributes)
            }
            if current?.transactionID == id { try findLatest(of: subscription, in: &batch, decode: decode) }
        default:
            return
        }
    }

    private func follow(
        _ transaction: Transaction, data: Data, order: String, in batch: inout VaultBatch,
        decode: ((VaultItem) throws -> Transaction)?
    ) throws {
        let id = transaction.transactionID
        switch transaction.productType {
        case .nonConsumable, .nonRenewing:
            batch.put(
                service: Ledger.entitlingService, account: id,
                VaultItemContent(
                    data: data, label: transaction.productID, attributes: ["order": order]))
        case .autoRenewable:
            guard let subscription = EntitlementCalculator.subscriptionKey(of: transaction) else { return }
            let key = OrderKey(transaction)
            batch.put(
                service: Ledger.periodsService(subscription), account: id,
                VaultItemContent(data: Data(), attributes: key.attributes))
            let current = try batch.get(service: Ledger.groupsService, account: subscription).flatMap {
                OrderKey($0.attributes)
            }
            let latest = VaultItemContent(data: data, label: transaction.productID, attributes: key.attributes)
            guard let current else {
                batch.put(service: Ledger.groupsService, account: subscription, latest)
                return
            }
            if current.transactionID == id {
                if key == current || key.isLater(than: current) {
                    batch.put(service: Ledger.groupsService, account: subscription, latest)
                } else if let decode {
                    // The latest moved back: the group's latest is found again among all of its
                    // transactions (only a refund, an expiry or an upgrade of the latest does this).
                    try findLatest(of: subscription, in: &batch, decode: decode)
                }
            } else if key.isLater(than: current) {
                batch.put(service: Ledger.groupsService, account: subscription, latest)
            }
        default:
            return
        }
    }

    /// Makes every aggregate afresh from `transactions` (the ledger's items): what a ledger
    /// written before the aggregates gets on first use.
    func rebuild(
        from transactions: [VaultItem], in batch: inout VaultBatch, decode: (VaultItem) throws -> Transaction
    ) throws {
        var counted: [String: Int] = [:]
        var latest: [String: (key: OrderKey, item: VaultItem)] = [:]
        for item in transactions {
            let transaction = try decode(item)
            let units = item.attributes["counted"].flatMap(Int.init) ?? 0
            if units != 0 { counted[transaction.productID, default: 0] += units }
            switch transaction.productType {
            case .nonConsumable, .nonRenewing:
                batch.put(
                    service: Ledger.entitlingService, account: transaction.transactionID,
                    VaultItemContent(
                        data: item.data, label: transaction.productID,
                        attributes: ["order": item.attributes["order"] ?? "0"]))
            case .autoRenewable:
                guard let subscription = EntitlementCalculator.subscriptionKey(of: transaction) else { continue }
                let key = OrderKey(transaction)
                batch.put(
                    service: Ledger.periodsService(subscription), account: transaction.transactionID,
                    VaultItemContent(data: Data(), attributes: key.attributes))
                if latest[subscription].map({ key.isLater(than: $0.key) }) ?? true {
                    latest[subscription] = (key, item)
                }
            default:
                continue
            }
        }
        for (product, units) in counted {
            batch.put(
                service: Ledger.countedService, account: product,
                VaultItemContent(data: Data("\(units)".utf8), label: product))
        }
        for (subscription, best) in latest {
            batch.put(
                service: Ledger.groupsService, account: subscription,
                VaultItemContent(
                    data: best.item.data, label: best.item.label, attributes: best.key.attributes))
        }
    }

    /// Makes `storefront.groups/KEY` the subscription's latest transaction again, from the
    /// order keys of all of its transactions.
    private func findLatest(
        of subscription: String, in batch: inout VaultBatch, decode: (VaultItem) throws -> Transaction
    ) throws {
        var best: OrderKey?
        for item in try batch.items(service: Ledger.periodsService(subscription)) {
            guard let key = OrderKey(item.attributes) else { continue }
            if best.map({ key.isLater(than: $0) }) ?? true { best = key }
        }
        guard let best, let item = try batch.get(service: Ledger.transactionsService, account: best.transactionID)
        else {
            batch.delete(service: Ledger.groupsService, account: subscription)
            return
        }
        let transaction = try decode(item)
        batch.put(
            service: Ledger.groupsService, account: subscription,
            VaultItemContent(
                data: item.data, label: transaction.productID, attributes: OrderKey(transaction).attributes))
    }
}
