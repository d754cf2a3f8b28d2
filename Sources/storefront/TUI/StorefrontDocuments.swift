import Foundation
import LocalAppStore
import Receipts
import StoreCore
import StorefrontUI

/// The receipt and transaction viewer's documents: the app receipt decoded by Receipts'
/// decoder, and a transaction's fields with its signed payload (JWS) decoded and verified
/// against the local store's root, in the field names the CLI and Apple use.
struct StorefrontDocuments {
    let session: StoreSession

    /// The app receipt as the store issues it now, decoded.
    func receipt() async -> Result<TextDocument, StoreError> {
        var bytes = await session.store.appReceipt()
        if bytes == nil { bytes = try? await session.backend.receipts.writeAppReceipt() }
        guard let bytes else {
            return .failure(.systemError("the local App Store has no app receipt yet (buy, restore or refresh first)"))
        }
        let receipt: AppReceipt
        do {
            receipt = try ReceiptDecoder().decode(Array(bytes))
        } catch {
            return .failure(.verificationFailed("the app receipt is not readable: \(error)"))
        }
        var lines = [TextDocument.Line("App Receipt", isHeading: true)]
        lines += ReceiptOutput.text(receipt).split(separator: "\n").map { TextDocument.Line(String($0)) }
        lines.append(TextDocument.Line("Size", isHeading: true))
        lines.append(TextDocument.Line("\(bytes.count) bytes (PKCS#7 SignedData)"))
        return .success(TextDocument(title: "App Receipt", subject: receipt.bundleID, lines: lines))
    }

    /// One transaction: the app's record of it, then its JWS header and payload.
    func transaction(_ id: String) async -> Result<TextDocument, StoreError> {
        let history = (try? await session.store.history()) ?? []
        let pending = ((try? await session.backend.transactionManager.pending()) ?? []).map(\.transaction)
        guard let transaction = (history + pending).first(where: { $0.transactionID == id }) else {
            return .failure(.unknownTransaction(id))
        }
        var lines = [TextDocument.Line("Transaction", isHeading: true)]
        lines += fields(transaction).map { TextDocument.Line("\($0.0): \($0.1)") }
        guard let jws = transaction.signedTransaction else {
            lines.append(TextDocument.Line("Signed transaction (JWS)", isHeading: true))
            lines.append(TextDocument.Line("none: the store issued no signed transaction for it"))
            return .success(TextDocument(title: "Transaction", subject: id, lines: lines))
        }
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        lines.append(TextDocument.Line("JWS header", isHeading: true))
        lines += prettyJSON(parts.first.flatMap { Base64URL.decode($0) }).map { TextDocument.Line($0) }
        lines.append(TextDocument.Line("JWS payload", isHeading: true))
        switch verify(jws) {
        case .valid(let payload):
            lines.append(TextDocument.Line("signature: valid (the local App Store's root)"))
            lines += ReceiptOutput.json(payload).split(separator: "\n").map { TextDocument.Line(String($0)) }
        case .invalid(let reason):
            lines.append(TextDocument.Line("signature: not valid: \(reason)"))
            lines += prettyJSON(parts.count > 1 ? Base64URL.decode(parts[1]) : nil).map { TextDocument.Line($0) }
        case nil:
            lines.append(TextDocument.Line("signature: not checked (the local App Store's root is not readable)"))
            lines += prettyJSON(parts.count > 1 ? Base64URL.decode(parts[1]) : nil).map { TextDocument.Line($0) }
        }
        lines.append(TextDocument.Line("JWS (compact)", isHeading: true))
        lines.append(TextDocument.Line(jws))
        return .success(TextDocument(title: "Transaction", subject: id, lines: lines))
    }

    private func verify(_ jws: String) -> JWSVerificationResult<JWSTransactionDecodedPayload>? {
        guard let root = try? Data(contentsOf: session.backend.receipts.rootCertificateURL),
            let verifier = try? JWSVerifier(trustedRoots: [Array(root)], requireMarkers: false)
        else { return nil }
        return verifier.verifyTransaction(jws)
    }

    private func fields(_ t: Transaction) -> [(String, String)] {
        var fields: [(String, String)] = [
            ("transactionID", t.transactionID), ("originalTransactionID", t.originalTransactionID),
            ("productID", t.productID), ("productType", t.productType.rawValue),
            ("state", TransactionOutput.state(of: t)),
            ("quantity", String(t.quantity)), ("purchaseDate", ReceiptDate.format(t.purchaseDate)),
            ("originalPurchaseDate", ReceiptDate.format(t.originalPurchaseDate)),
        ]
        if let expires = t.expiresDate { fields.append(("expiresDate", ReceiptDate.format(expires))) }
        if let revoked = t.revocationDate { fields.append(("revocationDate", ReceiptDate.format(revoked))) }
        if let reason = t.revocationReason { fields.append(("revocationReason", String(reason))) }
        if let price = t.price { fields.append(("price", "\(price) \(t.currencyCode ?? "")")) }
        if let storefront = t.storefront { fields.append(("storefront", storefront)) }
        if let group = t.subscriptionGroupID { fields.append(("subscriptionGroupID", group)) }
        if let offer = t.offerType { fields.append(("offerType", offer.rawValue + (t.offerID.map { " \($0)" } ?? ""))) }
        if t.isUpgraded { fields.append(("isUpgraded", "true")) }
        if let order = t.webOrderLineItemID { fields.append(("webOrderLineItemID", order)) }
        if let error = t.error { fields.append(("error", error.description)) }
        return fields
    }

    /// JSON bytes pretty-printed, one line a member; the bytes as text when they are not JSON.
    private func prettyJSON(_ bytes: [UInt8]?) -> [String] {
        guard let bytes else { return ["(not base64url)"] }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)),
            let pretty = try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return [String(decoding: bytes, as: UTF8.self)] }
        return String(decoding: pretty, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
