import AppStoreServer
import Foundation
import Receipts
import TestSupport
import Testing

/// Get Notification History's filter takes every notification type and subtype Apple documents
/// (App Store Server Notifications V2's `notificationType` and `subtype`, external purchase
/// tokens' `CREATED` and `ACTIVE_TOKEN_REMINDER` included) and refuses others with 4000018.
@Suite(.timeLimit(.minutes(10)))
struct NotificationHistoryFilterTests {
    /// Apple's documented values, as the documentation lists them.
    static let types = [
        "SUBSCRIBED", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "OFFER_REDEEMED", "DID_RENEW", "EXPIRED",
        "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "PRICE_INCREASE", "REFUND", "REFUND_DECLINED",
        "CONSUMPTION_REQUEST", "RENEWAL_EXTENDED", "REVOKE", "TEST", "RENEWAL_EXTENSION", "REFUND_REVERSED",
        "EXTERNAL_PURCHASE_TOKEN", "ONE_TIME_CHARGE", "RESCIND_CONSENT", "METADATA_UPDATE", "MIGRATION", "PRICE_CHANGE",
    ]
    static let subtypes = [
        "INITIAL_BUY", "RESUBSCRIBE", "DOWNGRADE", "UPGRADE", "AUTO_RENEW_ENABLED", "AUTO_RENEW_DISABLED", "VOLUNTARY",
        "BILLING_RETRY", "PRICE_INCREASE", "GRACE_PERIOD", "PENDING", "ACCEPTED", "BILLING_RECOVERY",
        "PRODUCT_NOT_FOR_SALE", "SUMMARY", "FAILURE", "UNREPORTED", "CREATED", "ACTIVE_TOKEN_REMINDER",
    ]

    @Test func theLibrarysListsAreApplesDocumentedOnes() {
        #expect(Set(NotificationTypeV2.allCases.map(\.rawValue)) == Set(Self.types))
        #expect(Set(Subtype.allCases.map(\.rawValue)) == Set(Self.subtypes))
    }

    @Test func everyDocumentedTypeAndSubtypeIsAcceptedAndOthersAreRefused() async throws {
        let fixture = try await ServerFixture()
        let now = Int(fixture.clock.now.timeIntervalSince1970 * 1000)
        func ask(_ type: String?, _ subtype: String?) async throws -> HTTPResponse {
            var body: [String: Any] = ["startDate": now - 3_600_000, "endDate": now]
            body["notificationType"] = type
            body["notificationSubtype"] = subtype
            return await fixture.server.answer(
                HTTPRequest(
                    method: "POST", path: "/inApps/v1/notifications/history",
                    headers: ["authorization": "Bearer \(try fixture.token())"],
                    body: try JSONSerialization.data(withJSONObject: body)))
        }
        for type in Self.types {
            #expect(try await ask(type, nil).status == 200, "\(type)")
        }
        for subtype in Self.subtypes {
            #expect(try await ask("EXTERNAL_PURCHASE_TOKEN", subtype).status == 200, "\(subtype)")
        }
        for (type, subtype) in [("SUBSCRIBED", "NOT_A_SUBTYPE"), ("NOT_A_TYPE", nil), (nil, "CREATED")] {
            let refused = try await ask(type, subtype)
            #expect(refused.status == 400, "\(type ?? "-") \(subtype ?? "-")")
            let payload = try JSONSerialization.jsonObject(with: refused.body) as? [String: Any]
            #expect(payload?["errorCode"] as? Int == 4_000_018)
        }
        await fixture.close()
    }
}
