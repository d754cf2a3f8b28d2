import Foundation
import LocalAppStore
import Receipts
import StoreCore

/// `POST /verifyReceipt`, Apple's legacy endpoint: the receipt is checked against the store's
/// root, the environment and the shared secret, and answered with Apple's status codes.
extension AppStoreServer {
    func verifyReceipt(_ request: HTTPRequest) async -> HTTPResponse {
        guard request.method == "POST" else { return Self.status(21000) }
        guard let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any],
            let text = object["receipt-data"] as? String,
            let bytes = Data(base64Encoded: text, options: .ignoreUnknownCharacters), !bytes.isEmpty
        else {
            return Self.status(21002)
        }
        let password = object["password"] as? String
        let excludeOld = (object["exclude-old-transactions"] as? Bool) ?? false
        let snapshot: StoreSnapshot
        let validator: ReceiptValidator
        do {
            snapshot = try await store.server.snapshot()
            validator = try ReceiptValidator(trustedRoots: [Array(store.server.rootCertificate(in: snapshot))])
        } catch {
            return Self.status(21009)
        }
        let environment = configuration.environment ?? snapshot.settings.environment
        let receipt: AppReceipt
        switch validator.validate(Array(bytes), at: nil) {
        case .invalid(.unreadable): return Self.status(21002)
        case .invalid: return Self.status(21003)
        case .valid(let valid): receipt = valid
        }
        // A production receipt goes to production, every other kind to the sandbox, as at Apple.
        let isProductionReceipt = receipt.receiptType == .production || receipt.receiptType == .productionVPP
        if environment == .production && !isProductionReceipt { return Self.status(21007) }
        if environment != .production && isProductionReceipt { return Self.status(21008) }
        if let secret = snapshot.settings.sharedSecret, password != secret { return Self.status(21004) }
        if !receipt.inApp.isEmpty, !receipt.inApp.contains(where: { snapshot.transaction($0.transactionID) != nil }) {
            return Self.status(21010)
        }
        return respond(receipt, snapshot: snapshot, environment: environment, excludeOld: excludeOld)
    }

    private func respond(
        _ receipt: AppReceipt, snapshot: StoreSnapshot, environment: AppStoreEnvironment, excludeOld: Bool
    ) -> HTTPResponse {
        let appAppleID = snapshot.settings.appAppleID
        let listed = snapshot.listedTransactions.filter { t in
            t.productType != .consumable || t.revocationDate != nil || !snapshot.isFinished(t.transactionID)
        }
        var latest = listed
        if excludeOld {
            var newest: [String: StoreCore.Transaction] = [:]
            for t in listed where t.productType == .autoRenewable {
                if let known = newest[t.originalTransactionID], known.purchaseDate > t.purchaseDate { continue }
                newest[t.originalTransactionID] = t
            }
            latest = newest.values.sorted { $0.purchaseDate < $1.purchaseDate }
        }
        let renewals = snapshot.subscriptions.map { $0.lifecycle.renewalInfo(at: snapshot.now) }
        var json: [String: Any] = [
            "environment": environment == .production ? "Production" : "Sandbox",
            "receipt": LegacyReceiptJSON.receipt(
                receipt, adamID: environment == .production ? appAppleID : 0, requestDate: snapshot.now,
                ownership: { (snapshot.transaction($0)?.ownershipType ?? .purchased).rawValue },
                cancellationReason: { snapshot.transaction($0)?.revocationReason }),
            "latest_receipt_info": latest.sorted { $0.purchaseDate > $1.purchaseDate }.map(LegacyReceiptJSON.latest),
            "pending_renewal_info": renewals.map(LegacyReceiptJSON.pendingRenewal),
        ]
        if let fresh = try? latestReceipt(receipt, snapshot: snapshot) {
            json["latest_receipt"] = fresh.base64EncodedString()
        }
        // Always 0: Apple's 21006 (valid, subscription expired) is for iOS 6-style transaction
        // receipts only; an app receipt is valid whatever its subscriptions' state.
        json["status"] = 0
        return Self.json(json)
    }

    /// The account's receipt as the store is now, of the same type as the one sent.
    private func latestReceipt(_ sent: AppReceipt, snapshot: StoreSnapshot) throws -> Data {
        let environment: AppStoreEnvironment
        switch sent.receiptType {
        case .production?: environment = .production
        case .xcode?: environment = .xcode
        default: environment = .sandbox
        }
        return try store.server.receipt(in: snapshot, environment: environment)
    }

    /// verifyReceipt's answer with status `code` alone (and `is-retryable` where Apple sends it).
    static func status(_ code: Int) -> HTTPResponse {
        var body: [String: Any] = ["status": code]
        if [21002, 21005, 21009].contains(code) { body["is-retryable"] = code != 21002 }
        return json(body)
    }

    private static func json(_ object: [String: Any]) -> HTTPResponse {
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return .json(200, data)
    }
}
