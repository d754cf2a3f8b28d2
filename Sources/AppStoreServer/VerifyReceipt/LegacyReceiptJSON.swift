import Foundation
import Receipts
import StoreCore

/// The JSON of Apple's legacy `verifyReceipt` answer: snake_case members, every number and
/// flag a string, each date three times (`…_date` "2023-07-27 02:41:06 Etc/GMT", `…_date_ms`,
/// `…_date_pst`).
enum LegacyReceiptJSON {
    /// The three forms of a date under `name`.
    static func date(_ name: String, _ date: Date?) -> [String: Any] {
        guard let date else { return [:] }
        return [
            name: format(date, zone: "GMT", label: "Etc/GMT"),
            name + "_ms": String(date.appStoreMilliseconds),
            name + "_pst": format(date, zone: "America/Los_Angeles", label: "America/Los_Angeles"),
        ]
    }

    private static func format(_ date: Date, zone: String, label: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: date) + " " + label
    }

    /// The decoded receipt (`receipt`).
    /// - Parameters:
    ///   - adamID: the app's Apple ID, 0 outside Production, as Apple's sandbox answers.
    ///   - ownership: each purchase's `in_app_ownership_type`, by transaction ID.
    ///   - cancellationReason: why the store refunded a transaction, by transaction ID.
    static func receipt(
        _ receipt: AppReceipt, adamID: Int64, requestDate: Date, ownership: (String) -> String,
        cancellationReason: (String) -> Int?
    ) -> [String: Any] {
        var json: [String: Any] = [
            "receipt_type": receipt.rawReceiptType ?? "Xcode", "adam_id": adamID,
            "app_item_id": receipt.appItemID ?? 0,
            "bundle_id": receipt.bundleID, "application_version": receipt.appVersion, "download_id": 0,
            "version_external_identifier": 0, "original_application_version": receipt.originalAppVersion ?? "1.0",
            "in_app": receipt.inApp.map {
                inApp(
                    $0, ownership: ownership($0.transactionID), cancellationReason: cancellationReason($0.transactionID)
                )
            },
        ]
        json.merge(date("receipt_creation_date", receipt.creationDate)) { $1 }
        json.merge(date("request_date", requestDate)) { $1 }
        json.merge(date("original_purchase_date", receipt.originalPurchaseDate ?? receipt.creationDate)) { $1 }
        return json
    }

    /// One purchase of the receipt's `in_app`; a refunded one says why (`cancellation_reason`),
    /// as its `latest_receipt_info` entry does.
    static func inApp(_ p: InAppPurchaseReceipt, ownership: String, cancellationReason: Int?) -> [String: Any] {
        var json: [String: Any] = [
            "quantity": String(p.quantity ?? 1), "product_id": p.productID, "transaction_id": p.transactionID,
            "original_transaction_id": p.originalTransactionID ?? p.transactionID, "in_app_ownership_type": ownership,
            "is_trial_period": (p.isInTrialPeriod ?? false) ? "true" : "false",
        ]
        if let intro = p.isInIntroOfferPeriod { json["is_in_intro_offer_period"] = intro ? "true" : "false" }
        if let id = p.webOrderLineItemID { json["web_order_line_item_id"] = String(id) }
        if let offer = p.promotionalOfferIdentifier { json["promotional_offer_id"] = offer }
        if let reason = cancellationReason, p.cancellationDate != nil { json["cancellation_reason"] = String(reason) }
        json.merge(date("purchase_date", p.purchaseDate)) { $1 }
        json.merge(date("original_purchase_date", p.originalPurchaseDate)) { $1 }
        json.merge(date("expires_date", p.expiresDate)) { $1 }
        json.merge(date("cancellation_date", p.cancellationDate)) { $1 }
        return json
    }

    /// One transaction of `latest_receipt_info`, from the store's own record.
    static func latest(_ t: StoreCore.Transaction) -> [String: Any] {
        var json: [String: Any] = [
            "quantity": String(t.quantity), "product_id": t.productID, "transaction_id": t.transactionID,
            "original_transaction_id": t.originalTransactionID, "in_app_ownership_type": t.ownershipType.rawValue,
            "is_trial_period": t.offerType == .introductory && t.price == 0 ? "true" : "false",
            "is_in_intro_offer_period": t.offerType == .introductory ? "true" : "false",
        ]
        if let id = t.webOrderLineItemID { json["web_order_line_item_id"] = id }
        if let group = t.subscriptionGroupID { json["subscription_group_identifier"] = group }
        if t.offerType == .promotional, let offer = t.offerID { json["promotional_offer_id"] = offer }
        // A code's transaction carries its offer's reference name, which Apple gives here.
        if t.offerType == .code, let name = t.offerID { json["offer_code_ref_name"] = name }
        if t.isUpgraded { json["is_upgraded"] = "true" }
        if let reason = t.revocationReason, t.revocationDate != nil { json["cancellation_reason"] = String(reason) }
        json.merge(date("purchase_date", t.purchaseDate)) { $1 }
        json.merge(date("original_purchase_date", t.originalPurchaseDate)) { $1 }
        json.merge(date("expires_date", t.expiresDate)) { $1 }
        json.merge(date("cancellation_date", t.revocationDate)) { $1 }
        return json
    }

    /// One subscription of `pending_renewal_info`.
    static func pendingRenewal(_ info: RenewalInfo) -> [String: Any] {
        var json: [String: Any] = [
            "auto_renew_product_id": info.autoRenewProductID, "product_id": info.currentProductID,
            "original_transaction_id": info.originalTransactionID, "auto_renew_status": info.willAutoRenew ? "1" : "0",
        ]
        if let intent = info.expirationIntent { json["expiration_intent"] = String(intent.rawValue) }
        if info.isInBillingRetry || info.expirationIntent == .billingError {
            json["is_in_billing_retry_period"] = info.isInBillingRetry ? "1" : "0"
        }
        json.merge(date("grace_period_expires_date", info.gracePeriodExpiresDate)) { $1 }
        return json
    }
}
