import Foundation
import Testing

@testable import StoreCore

/// The `verifyReceipt` response model reads every member of Apple's `responseBody` under its
/// wire name, and writes it back unchanged.
struct VerifyReceiptResponseTests {
    static let body = #"""
        {
          "status": 0, "environment": "Sandbox", "is-retryable": false,
          "latest_receipt": "TUlJVw==",
          "receipt": {
            "receipt_type": "ProductionSandbox", "adam_id": 0, "app_item_id": 0, "bundle_id": "com.example.app",
            "application_version": "7", "download_id": 0, "version_external_identifier": 0,
            "receipt_creation_date": "2018-03-16 16:19:19 Etc/GMT", "receipt_creation_date_ms": "1521217159000",
            "receipt_creation_date_pst": "2018-03-16 09:19:19 America/Los_Angeles",
            "request_date": "2018-03-16 17:57:42 Etc/GMT", "request_date_ms": "1521223062824",
            "request_date_pst": "2018-03-16 10:57:42 America/Los_Angeles",
            "original_purchase_date": "2013-08-01 07:00:00 Etc/GMT", "original_purchase_date_ms": "1375340400000",
            "original_purchase_date_pst": "2013-08-01 00:00:00 America/Los_Angeles", "original_application_version": "1.0",
            "in_app": [ {
              "quantity": "1", "product_id": "monthly", "transaction_id": "1000000383177902",
              "original_transaction_id": "1000000383177902", "purchase_date": "2018-03-15 21:41:22 Etc/GMT",
              "purchase_date_ms": "1521150082000", "purchase_date_pst": "2018-03-15 14:41:22 America/Los_Angeles",
              "original_purchase_date": "2018-03-15 21:41:23 Etc/GMT", "original_purchase_date_ms": "1521150083000",
              "original_purchase_date_pst": "2018-03-15 14:41:23 America/Los_Angeles",
              "expires_date": "2018-03-15 21:46:22 Etc/GMT", "expires_date_ms": "1521150382000",
              "expires_date_pst": "2018-03-15 14:46:22 America/Los_Angeles", "web_order_line_item_id": "1000000038238402",
              "is_trial_period": "true", "is_in_intro_offer_period": "false"
            } ]
          },
          "latest_receipt_info": [ {
            "quantity": "1", "product_id": "monthly", "transaction_id": "1000000383189012",
            "original_transaction_id": "1000000383177902", "purchase_date_ms": "1521150382000",
            "expires_date_ms": "1521150682000", "cancellation_date_ms": "1521150500000", "cancellation_reason": "0",
            "is_trial_period": "false", "is_in_intro_offer_period": "true", "is_upgraded": "true",
            "subscription_group_identifier": "20434535", "in_app_ownership_type": "PURCHASED",
            "offer_code_ref_name": "SPRING", "promotional_offer_id": "winback",
            "app_account_token": "8D2A7A1C-7E3B-4C7B-9E5E-0C1D2E3F4A5B", "web_order_line_item_id": "1000000038238403"
          } ],
          "pending_renewal_info": [ {
            "auto_renew_product_id": "yearly", "auto_renew_status": "0", "expiration_intent": "1",
            "grace_period_expires_date_ms": "1521160682000", "is_in_billing_retry_period": "0",
            "original_transaction_id": "1000000383177902", "product_id": "monthly", "price_consent_status": "1",
            "price_increase_status": "0", "offer_code_ref_name": "SPRING", "promotional_offer_id": "winback"
          } ]
        }
        """#

    @Test func everyMemberOfAppleSResponseBodyIsRead() throws {
        let response = try JSONDecoder().decode(VerifyReceiptResponse.self, from: Data(Self.body.utf8))
        #expect(response.status == 0 && response.environment == "Sandbox" && response.isRetryable == false)
        #expect(response.latestReceiptData == Data("MIIW".utf8))
        let receipt = try #require(response.receipt)
        #expect(receipt.bundleId == "com.example.app" && receipt.applicationVersion == "7")
        #expect(receipt.receiptType == "ProductionSandbox" && receipt.originalApplicationVersion == "1.0")
        #expect(receipt.receiptCreationDateMs?.date == Date(timeIntervalSince1970: 1_521_217_159))
        #expect(receipt.requestDateMs?.rawValue == "1521223062824")
        let inApp = try #require(receipt.inApp?.first)
        #expect(inApp.purchaseDateMs?.date == Date(timeIntervalSince1970: 1_521_150_082))
        #expect(inApp.expiresDateMs?.date == Date(timeIntervalSince1970: 1_521_150_382))
        #expect(inApp.purchaseDate == "2018-03-15 21:41:22 Etc/GMT")
        #expect(inApp.isTrialPeriod?.isTrue == true && inApp.isInIntroOfferPeriod?.isTrue == false)
        #expect(inApp.webOrderLineItemId == "1000000038238402" && inApp.quantity == "1")

        let latest = try #require(response.latestReceiptInfo?.first)
        #expect(latest.cancellationDateMs?.date == Date(timeIntervalSince1970: 1_521_150_500))
        #expect(latest.cancellationReason == "0" && latest.isUpgraded?.isTrue == true)
        #expect(latest.isInIntroOfferPeriod?.isTrue == true && latest.isTrialPeriod?.isTrue == false)
        #expect(latest.subscriptionGroupIdentifier == "20434535" && latest.inAppOwnershipType == "PURCHASED")
        #expect(latest.offerCodeRefName == "SPRING" && latest.promotionalOfferId == "winback")
        #expect(latest.appAccountToken == "8D2A7A1C-7E3B-4C7B-9E5E-0C1D2E3F4A5B")

        let renewal = try #require(response.pendingRenewalInfo?.first)
        #expect(renewal.autoRenewProductId == "yearly" && renewal.autoRenewStatus == "0")
        #expect(renewal.expirationIntent == "1" && renewal.isInBillingRetryPeriod == "0")
        #expect(renewal.gracePeriodExpiresDateMs?.date == Date(timeIntervalSince1970: 1_521_160_682))
        #expect(renewal.priceConsentStatus == "1" && renewal.priceIncreaseStatus == "0")
    }

    @Test func itWritesBackWhatItReadUnderTheWireNames() throws {
        let response = try JSONDecoder().decode(VerifyReceiptResponse.self, from: Data(Self.body.utf8))
        let encoded = try JSONEncoder().encode(response)
        #expect(try JSONDecoder().decode(VerifyReceiptResponse.self, from: encoded) == response)
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "status", "environment", "is-retryable", "latest_receipt", "receipt",
                "latest_receipt_info", "pending_renewal_info",
            ])
        let latest = try #require((object["latest_receipt_info"] as? [[String: Any]])?.first)
        #expect(latest["expires_date_ms"] as? String == "1521150682000", "milliseconds stay strings")
        #expect(latest["is_upgraded"] as? String == "true", "flags stay strings")
    }

    @Test func wireValuesReadTheirText() {
        #expect(VerifyReceiptResponse.Milliseconds(Date(timeIntervalSince1970: 1.5)).rawValue == "1500")
        #expect(VerifyReceiptResponse.Milliseconds(rawValue: "soon").date == nil)
        #expect(VerifyReceiptResponse.Flag(true).rawValue == "true")
        #expect(VerifyReceiptResponse.Flag(rawValue: "1").isTrue == true)
        #expect(VerifyReceiptResponse.Flag(rawValue: "maybe").isTrue == nil)
    }
}
