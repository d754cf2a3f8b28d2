import Foundation
import StoreKitValues
import Testing

@testable import Receipts

/// The JWS text is written by `StreamingJSONEncoder` with JWS options: byte for byte what
/// Foundation's `JSONEncoder` wrote before it (sorted keys, slashes as they are, dates in
/// milliseconds since 1970), since those bytes are what a signature covers.
@Suite struct JWSCodingTests {
    /// The encoder the JWS text was written by before, as `JWSCoding` configured it.
    static func foundationEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            guard let milliseconds = date.exactAppStoreMilliseconds else {
                throw EncodingError.invalidValue(
                    date, .init(codingPath: encoder.codingPath, debugDescription: "date out of range"))
            }
            try container.encode(milliseconds)
        }
        return encoder
    }

    static func sameBytes<T: Encodable>(_ value: T) throws -> Bool {
        let streamed = try JWSCoding.encode(value)
        let foundation = Array(try foundationEncoder().encode(value))
        if streamed != foundation {
            Issue.record(
                "streamed \(String(decoding: streamed, as: UTF8.self))\nfoundation \(String(decoding: foundation, as: UTF8.self))"
            )
        }
        return streamed == foundation
    }

    @Test func aSignedTransactionIsWrittenAsBefore() throws {
        var payload = JWSTests.transaction()
        payload.productId = "com.example/pro \"monthly\" \u{1}\u{7F} é 😀"
        payload.rawRevocationReason = 1
        payload.revocationDate = JWSTests.signedDate.addingTimeInterval(0.0015)
        payload.revocationType = .refundFull
        payload.revocationPercentage = 100_000
        payload.offerDiscountType = .payAsYouGo
        payload.offerPeriod = "P1M"
        payload.appTransactionId = "704289572311862870"
        payload.rawBillingPlanType = "MONTHLY"
        payload.isUpgraded = true
        payload.commitmentInfo = TransactionCommitmentInfo(
            billingPeriodNumber: 3, totalBillingPeriods: 12, commitmentPrice: 119_880,
            commitmentExpiresDate: JWSTests.signedDate.addingTimeInterval(-1e9))
        #expect(try Self.sameBytes(payload))
        #expect(try Self.sameBytes(JWSTests.transaction()))
        #expect(try Self.sameBytes(JWSTransactionDecodedPayload()))
    }

    @Test func renewalInfoAndNotificationsAreWrittenAsBefore() throws {
        var renewal = JWSRenewalInfoDecodedPayload()
        renewal.originalTransactionId = "2000000100"
        renewal.autoRenewProductId = "com.example.pro.yearly"
        renewal.productId = "com.example.pro.monthly"
        renewal.rawAutoRenewStatus = 1
        renewal.isInBillingRetryPeriod = false
        renewal.gracePeriodExpiresDate = JWSTests.signedDate
        renewal.signedDate = JWSTests.signedDate
        renewal.environment = .sandbox
        renewal.renewalPrice = 9990
        renewal.eligibleWinBackOfferIds = ["b/2", "a"]
        var commitment = RenewalCommitmentInfo()
        commitment.commitmentAutoRenewProductId = "com.example.pro.monthly"
        commitment.commitmentRenewalDate = JWSTests.signedDate
        renewal.commitmentInfo = commitment
        #expect(try Self.sameBytes(renewal))

        var data = NotificationData()
        data.environment = .sandbox
        data.appAppleId = 1_234_567_890
        data.bundleId = "com.example.storefront"
        data.signedTransactionInfo = "eyJhbGciOiJFUzI1NiJ9.e30.c2ln"
        data.rawStatus = 1
        var notification = ResponseBodyV2DecodedPayload()
        notification.notificationUUID = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
        notification.data = data
        notification.version = "2.0"
        notification.signedDate = JWSTests.signedDate
        #expect(try Self.sameBytes(notification))
    }

    @Test func aDateOutOfRangeIsRefused() throws {
        var payload = JWSTransactionDecodedPayload()
        payload.signedDate = Date(timeIntervalSince1970: 1e300)
        #expect(throws: EncodingError.self) { try JWSCoding.encode(payload) }
    }
}
