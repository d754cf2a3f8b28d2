import Foundation
internal import Receipts

extension AppTransaction {
    /// Creates an app transaction from its decoded payload and the JWS it came in.
    /// - Returns: the value and the names of required members the payload lacks (those take
    ///   empty values: an app transaction without them is never verified).
    static func make(_ payload: JWSAppTransactionDecodedPayload, jws: String) -> (AppTransaction, missing: [String]) {
        var missing: [String] = []
        func required<T>(_ value: T?, _ name: String, default fallback: T) -> T {
            if let value { return value }
            missing.append(name)
            return fallback
        }
        let transaction = AppTransaction(
            appTransactionID: required(payload.appTransactionId, "appTransactionId", default: ""),
            bundleID: required(payload.bundleId, "bundleId", default: ""),
            appVersion: required(payload.applicationVersion, "applicationVersion", default: ""),
            originalAppVersion: required(payload.originalApplicationVersion, "originalApplicationVersion", default: ""),
            originalPurchaseDate: required(
                payload.originalPurchaseDate, "originalPurchaseDate", default: Date(timeIntervalSince1970: 0)),
            rawEnvironment: required(payload.rawReceiptType, "receiptType", default: ""),
            signedDate: required(
                payload.signedDate ?? payload.receiptCreationDate, "signedDate", default: Date(timeIntervalSince1970: 0)
            ),
            appID: payload.appAppleId, appVersionID: payload.versionExternalIdentifier,
            preorderDate: payload.preorderDate,
            rawOriginalPlatform: payload.rawOriginalPlatform,
            deviceVerification: payload.deviceVerification.flatMap { Data(base64Encoded: $0) } ?? Data(),
            deviceVerificationNonce: payload.deviceVerificationNonce.flatMap(UUID.init(uuidString:)),
            jwsRepresentation: jws)
        return (transaction, missing)
    }
}
