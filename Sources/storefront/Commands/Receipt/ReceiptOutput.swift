import Foundation
import Receipts
import StoreKitValues

/// Renders decoded receipts and signed transactions as text or `--json`, with the field names
/// of the receipt model (the names the conformance data's expected.json uses).
enum ReceiptOutput {
    static func date(_ value: Date?) -> String { value.map(ReceiptDate.format) ?? "-" }

    static func jsonDate(_ value: Date?) -> JSONText { value.map { .string(ReceiptDate.format($0)) } ?? .null }

    static func jsonNumber<T: BinaryInteger>(_ value: T?) -> JSONText { value.map { .number(String($0)) } ?? .null }

    static func json(_ receipt: AppReceipt) -> JSONText {
        .object([
            ("receiptType", .optional(receipt.rawReceiptType)),
            ("appItemID", jsonNumber(receipt.appItemID)),
            ("bundleID", .string(receipt.bundleID)),
            ("appVersion", .string(receipt.appVersion)),
            ("opaqueHex", .string(receipt.opaqueValue.hexString)),
            ("sha1Hex", .string(receipt.sha1Hash.hexString)),
            ("creationDate", jsonDate(receipt.creationDate)),
            ("expirationDate", jsonDate(receipt.expirationDate)),
            ("originalAppVersion", .optional(receipt.originalAppVersion)),
            ("originalPurchaseDate", jsonDate(receipt.originalPurchaseDate)),
            ("ageRating", .optional(receipt.ageRating)),
            ("inApp", .array(receipt.inApp.map(json))),
            (
                "unknownAttributes",
                .array(
                    receipt.unknownAttributes.map {
                        .object([
                            ("type", .number(String($0.type))), ("version", .number(String($0.version))),
                            ("valueHex", .string($0.value.hexString)),
                        ])
                    })
            ),
        ])
    }

    static func json(_ purchase: InAppPurchaseReceipt) -> JSONText {
        .object([
            ("quantity", jsonNumber(purchase.quantity)),
            ("productID", .string(purchase.productID)),
            ("transactionID", .string(purchase.transactionID)),
            ("originalTransactionID", .optional(purchase.originalTransactionID)),
            ("purchaseDate", jsonDate(purchase.purchaseDate)),
            ("originalPurchaseDate", jsonDate(purchase.originalPurchaseDate)),
            ("productType", jsonNumber(purchase.rawProductType)),
            ("expiresDate", jsonDate(purchase.expiresDate)),
            ("webOrderLineItemID", jsonNumber(purchase.webOrderLineItemID)),
            ("cancellationDate", jsonDate(purchase.cancellationDate)),
            ("isInTrialPeriod", purchase.isInTrialPeriod.map { .number($0 ? "1" : "0") } ?? .null),
            ("isInIntroOfferPeriod", purchase.isInIntroOfferPeriod.map { .number($0 ? "1" : "0") } ?? .null),
            ("promotionalOfferID", .optional(purchase.promotionalOfferIdentifier)),
        ])
    }

    static func text(_ receipt: AppReceipt) -> String {
        var lines = [
            "Receipt type:         \(receipt.rawReceiptType ?? "-")",
            "App item ID:          \(receipt.appItemID.map(String.init) ?? "-")",
            "Bundle ID:            \(receipt.bundleID)",
            "App version:          \(receipt.appVersion)",
            "Original app version: \(receipt.originalAppVersion ?? "-")",
            "Created:              \(date(receipt.creationDate))",
            "Expires:              \(date(receipt.expirationDate))",
            "Opaque value:         \(receipt.opaqueValue.hexString)",
            "SHA-1 hash:           \(receipt.sha1Hash.hexString)",
            "In-app purchases:     \(receipt.inApp.count)",
        ]
        for purchase in receipt.inApp {
            var fields = [
                "transaction \(purchase.transactionID)",
                "product \(purchase.productID)",
                "quantity \(purchase.quantity.map(String.init) ?? "-")",
                "purchased \(date(purchase.purchaseDate))",
            ]
            if let original = purchase.originalTransactionID, original != purchase.transactionID {
                fields.append("original \(original)")
            }
            if let type = purchase.rawProductType { fields.append("type \(type)") }
            if let expires = purchase.expiresDate { fields.append("expires \(date(expires))") }
            if let cancelled = purchase.cancellationDate { fields.append("cancelled \(date(cancelled))") }
            if purchase.isInIntroOfferPeriod == true { fields.append("intro offer") }
            if let offer = purchase.promotionalOfferIdentifier { fields.append("offer \(offer)") }
            lines.append("  - " + fields.joined(separator: ", "))
        }
        if !receipt.unknownAttributes.isEmpty {
            lines.append(
                "Other attributes:     " + receipt.unknownAttributes.map { String($0.type) }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A signed transaction's payload as JSON, in Apple's field names.
    static func json(_ payload: JWSTransactionDecodedPayload) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.appStoreMilliseconds)
        }
        return (try? encoder.encode(payload)).map { String(decoding: $0, as: UTF8.self) + "\n" } ?? "{}\n"
    }

    /// Why a verifier refused its root certificate, naming the root's file (a verifier knows
    /// its roots only by their index).
    static func rootError(_ error: ReceiptValidatorError, root: CommandLineFile) -> CLIError {
        switch error {
        case .unreadableRoot(_, let reason): root.problem("is not a DER or PEM certificate: \(reason)")
        case .noTrustedRoot: root.problem("gave no trusted root: \(error)")
        }
    }

    /// Parses `--at`: an RFC 3339 date or seconds since 1970.
    static func date(option: String) throws(CLIError) -> Date {
        if let seconds = Double(option) { return Date(timeIntervalSince1970: seconds) }
        guard let date = try? ReceiptDate.parse(option) else {
            throw .usage(
                "--at \(option): expected an RFC 3339 date such as 2024-02-23T17:27:16Z, or seconds since 1970")
        }
        return date
    }
}
