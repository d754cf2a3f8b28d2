import Foundation
import StoreKitValues

/// Writes an `AppReceipt` as the DER attribute SET that a receipt's SignedData carries.
///
/// Attributes are written in type order and in-app purchases in the order given; the SET is
/// not sorted by encoding (BER allows any order, and Apple's readers do not care), which keeps
/// a receipt of N purchases linear in N.
public struct ReceiptEncoder: Sendable {
    /// Creates an encoder.
    public init() {}

    /// The receipt's payload: `SET OF ReceiptAttribute`.
    public func encodePayload(_ receipt: AppReceipt) -> [UInt8] {
        typealias T = ReceiptAttributeType
        var attributes: [[UInt8]] = []
        attributes.reserveCapacity(16 + receipt.inApp.count + receipt.unknownAttributes.count)
        if let type = receipt.rawReceiptType {
            attributes.append(Self.attribute(T.receiptType, DEREncoder.utf8String(type)))
        }
        if let id = receipt.appItemID { attributes.append(Self.attribute(T.appItemID, DEREncoder.integer(id))) }
        let bundleIDData = receipt.bundleIDData.isEmpty ? DEREncoder.utf8String(receipt.bundleID) : receipt.bundleIDData
        attributes.append(Self.attribute(T.bundleID, bundleIDData))
        attributes.append(Self.attribute(T.appVersion, DEREncoder.utf8String(receipt.appVersion)))
        attributes.append(Self.attribute(T.opaqueValue, receipt.opaqueValue))
        attributes.append(Self.attribute(T.sha1Hash, receipt.sha1Hash))
        if let rating = receipt.ageRating {
            attributes.append(Self.attribute(T.ageRating, DEREncoder.utf8String(rating)))
        }
        if let date = receipt.creationDate { attributes.append(Self.date(T.creationDate, date)) }
        for purchase in receipt.inApp {
            attributes.append(Self.attribute(T.inAppPurchase, encodeInAppPurchase(purchase)))
        }
        if let date = receipt.originalPurchaseDate { attributes.append(Self.date(T.originalPurchaseDate, date)) }
        if let version = receipt.originalAppVersion {
            attributes.append(Self.attribute(T.originalAppVersion, DEREncoder.utf8String(version)))
        }
        if let date = receipt.expirationDate { attributes.append(Self.date(T.expirationDate, date)) }
        for unknown in receipt.unknownAttributes {
            attributes.append(Self.attribute(unknown.type, unknown.value, version: unknown.version))
        }
        return DEREncoder.set(attributes)
    }

    /// One in-app purchase receipt: the SET inside attribute 17.
    public func encodeInAppPurchase(_ purchase: InAppPurchaseReceipt) -> [UInt8] {
        typealias T = ReceiptAttributeType
        var attributes: [[UInt8]] = []
        attributes.reserveCapacity(14 + purchase.unknownAttributes.count)
        if let quantity = purchase.quantity {
            attributes.append(Self.attribute(T.quantity, DEREncoder.integer(quantity)))
        }
        attributes.append(Self.attribute(T.productID, DEREncoder.utf8String(purchase.productID)))
        attributes.append(Self.attribute(T.transactionID, DEREncoder.utf8String(purchase.transactionID)))
        if let date = purchase.purchaseDate { attributes.append(Self.date(T.purchaseDate, date)) }
        if let id = purchase.originalTransactionID {
            attributes.append(Self.attribute(T.originalTransactionID, DEREncoder.utf8String(id)))
        }
        if let date = purchase.originalPurchaseDate { attributes.append(Self.date(T.inAppOriginalPurchaseDate, date)) }
        if let type = purchase.rawProductType {
            attributes.append(Self.attribute(T.productType, DEREncoder.integer(type)))
        }
        if let date = purchase.expiresDate { attributes.append(Self.date(T.expiresDate, date)) }
        if let id = purchase.webOrderLineItemID {
            attributes.append(Self.attribute(T.webOrderLineItemID, DEREncoder.integer(id)))
        }
        if let date = purchase.cancellationDate { attributes.append(Self.date(T.cancellationDate, date)) }
        if let flag = purchase.isInTrialPeriod {
            attributes.append(Self.attribute(T.isInTrialPeriod, DEREncoder.integer(flag ? 1 : 0)))
        }
        if let flag = purchase.isInIntroOfferPeriod {
            attributes.append(Self.attribute(T.isInIntroOfferPeriod, DEREncoder.integer(flag ? 1 : 0)))
        }
        if let offer = purchase.promotionalOfferIdentifier {
            attributes.append(Self.attribute(T.promotionalOfferIdentifier, DEREncoder.utf8String(offer)))
        }
        for unknown in purchase.unknownAttributes {
            attributes.append(Self.attribute(unknown.type, unknown.value, version: unknown.version))
        }
        return DEREncoder.set(attributes)
    }

    private static func attribute(_ type: Int64, _ value: [UInt8], version: Int64 = 1) -> [UInt8] {
        DEREncoder.sequence([DEREncoder.integer(type), DEREncoder.integer(version), DEREncoder.octetString(value)])
    }

    private static func date(_ type: Int64, _ date: Date) -> [UInt8] {
        attribute(type, DEREncoder.ia5String(ReceiptDate.format(date)))
    }
}
