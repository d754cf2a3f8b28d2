"""Apple's own Python client (`app-store-server-library`) against `storefront serve`: every
endpoint, after purchases, renewals, billing retry, refunds, upgrades and extensions made
through the CLI; every answer decodes into Apple's models, and every signed item in it passes
Apple's `SignedDataVerifier` with the store's root."""
import unittest
import uuid

from appstoreserverlibrary.api_client import APIException, GetTransactionHistoryVersion
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
from appstoreserverlibrary.models.ConsumptionStatus import ConsumptionStatus
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.DeliveryStatusV1 import DeliveryStatusV1
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
from appstoreserverlibrary.models.OrderLookupStatus import OrderLookupStatus
from appstoreserverlibrary.models.Platform import Platform
from appstoreserverlibrary.models.Status import Status
from appstoreserverlibrary.models.TransactionHistoryRequest import Order, ProductType, TransactionHistoryRequest
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

from storefront import BASIC, COINS, PLUS, PRO, REMOVE_ADS, Store


class AppStoreServerAPITests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.store = Store()
        cls.store.serve()
        cls.client = cls.store.client()
        # Every signed item an answer carries is checked by Apple's verifier, with the store's root.
        cls.verifier = SignedDataVerifier([cls.store.root()], False, Environment.SANDBOX, "com.storefront.demo")

    @classmethod
    def tearDownClass(cls):
        status = cls.store.stop()
        cls.store.remove()
        assert status is not None and status[0] == 0, f"serve did not stop cleanly: {status}"

    def buy(self, product):
        return self.store.run("buy", product, json_output=True)["transaction"]

    def transactions(self, response):
        return [self.verifier.verify_and_decode_signed_transaction(jws) for jws in response.signedTransactions]

    def test_a_subscription_through_renewal_upgrade_extension_and_billing_retry(self):
        basic = self.buy(BASIC)
        original = basic["originalTransactionID"]
        renewed = self.store.run("store", "renew", original, json_output=True)["transaction"]
        self.assertEqual(renewed["originalTransactionID"], original)

        info = self.client.get_transaction_info(renewed["transactionID"])
        payload = self.verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo)
        self.assertEqual(payload.transactionId, renewed["transactionID"])
        self.assertEqual(payload.originalTransactionId, original)
        self.assertEqual(payload.productId, BASIC)
        self.assertEqual(payload.environment, Environment.SANDBOX)
        self.assertIsNotNone(payload.expiresDate)

        upgraded = self.buy(PRO)
        self.assertEqual(upgraded["originalTransactionID"], original)

        extension = self.client.extend_subscription_renewal_date(original, ExtendRenewalDateRequest(
            extendByDays=5, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier=str(uuid.uuid4())))
        self.assertTrue(extension.success)
        self.assertEqual(extension.originalTransactionId, original)
        statuses = self.client.get_all_subscription_statuses(original)
        self.assertEqual(statuses.environment, Environment.SANDBOX)
        item = statuses.data[0].lastTransactions[0]
        self.assertEqual(item.status, Status.ACTIVE)
        renewal = self.verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)
        self.assertEqual(renewal.renewalDate, extension.effectiveDate)
        latest = self.verifier.verify_and_decode_signed_transaction(item.signedTransactionInfo)
        self.assertEqual(latest.productId, PRO)
        self.assertEqual(latest.expiresDate, extension.effectiveDate)
        subscriptions = self.store.run("store", "subscriptions", json_output=True)
        self.assertTrue(subscriptions, "store subscriptions lists the subscription")

        mass_id = str(uuid.uuid4())
        mass = self.client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
            extendByDays=1, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=mass_id,
            productId=PRO))
        self.assertEqual(mass.requestIdentifier, mass_id)
        status = self.client.get_status_of_subscription_renewal_date_extensions(mass_id, PRO)
        self.assertTrue(status.complete)
        self.assertEqual(status.succeededCount, 1)

        self.store.run("store", "billing-issue", original, "on")
        self.store.run("store", "renew", original)
        retry = self.client.get_all_subscription_statuses(original, [Status.BILLING_RETRY])
        self.assertEqual(retry.data[0].lastTransactions[0].status, Status.BILLING_RETRY)
        active = self.client.get_all_subscription_statuses(original, [Status.ACTIVE])
        self.assertEqual(active.data, [])

        history = self.client.get_transaction_history(
            original, None, TransactionHistoryRequest(productTypes=[ProductType.AUTO_RENEWABLE], sort=Order.ASCENDING),
            GetTransactionHistoryVersion.V2)
        ids = [t.transactionId for t in self.transactions(history)]
        self.assertEqual(ids[:3], [basic["transactionID"], renewed["transactionID"], upgraded["transactionID"]])
        self.assertTrue(self.transactions(history)[1].isUpgraded)
        self.assertEqual(history.bundleId, "com.storefront.demo")
        self.assertEqual(history.environment, Environment.SANDBOX)

    def test_history_pages_refunds_orders_consumption_and_tokens(self):
        coins = [self.buy(COINS) for _ in range(21)]
        ads = self.buy(REMOVE_ADS)
        refunded = self.store.run("store", "refund", coins[0]["transactionID"], json_output=True)["transaction"]
        self.assertEqual(refunded["transactionID"], coins[0]["transactionID"])

        request = TransactionHistoryRequest(productTypes=[ProductType.CONSUMABLE, ProductType.NON_CONSUMABLE])
        first = self.client.get_transaction_history(ads["transactionID"], None, request, GetTransactionHistoryVersion.V2)
        self.assertTrue(first.hasMore)
        self.assertEqual(len(first.signedTransactions), 20)
        second = self.client.get_transaction_history(ads["transactionID"], first.revision, request, GetTransactionHistoryVersion.V2)
        self.assertFalse(second.hasMore)
        seen = [t.transactionId for t in self.transactions(first) + self.transactions(second)]
        self.assertEqual(seen, [c["transactionID"] for c in coins] + [ads["transactionID"]])
        v1 = self.client.get_transaction_history(ads["transactionID"], None, request, GetTransactionHistoryVersion.V1)
        self.assertEqual([t.transactionId for t in self.transactions(v1)], [coins[0]["transactionID"], ads["transactionID"]])
        revoked = self.client.get_transaction_history(
            ads["transactionID"], None, TransactionHistoryRequest(revoked=True), GetTransactionHistoryVersion.V2)
        self.assertEqual([t.transactionId for t in self.transactions(revoked)], [coins[0]["transactionID"]])
        # startDate/endDate select on the purchaseDate the signed transaction shows: >= start, < end.
        for t in self.transactions(first) + self.transactions(second):
            dated = self.client.get_transaction_history(ads["transactionID"], None, TransactionHistoryRequest(
                startDate=t.purchaseDate, endDate=t.purchaseDate + 1), GetTransactionHistoryVersion.V2)
            self.assertIn(t.transactionId, [d.transactionId for d in self.transactions(dated)], t.purchaseDate)

        refunds = self.client.get_refund_history(ads["transactionID"], None)
        refunded_ids = [t.transactionId for t in self.transactions(refunds)]
        self.assertIn(coins[0]["transactionID"], refunded_ids)
        self.assertFalse(refunds.hasMore)

        history = self.store.run("history", json_output=True)
        order_id = next(t["orderID"] for t in history["transactions"] if t["transactionID"] == ads["transactionID"])
        order = self.client.look_up_order_id(order_id)
        self.assertEqual(order.status, OrderLookupStatus.VALID)
        self.assertEqual([t.transactionId for t in self.transactions(order)], [ads["transactionID"]])
        self.assertEqual(self.client.look_up_order_id("MZZZZZZZZZ").status, OrderLookupStatus.INVALID)

        self.client.send_consumption_information(coins[1]["transactionID"], ConsumptionRequest(
            customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED,
            consumptionPercentage=100000))
        with self.assertWarns(DeprecationWarning):
            self.client.send_consumption_data(coins[2]["transactionID"], ConsumptionRequestV1(
                customerConsented=True, consumptionStatus=ConsumptionStatus.FULLY_CONSUMED, platform=Platform.APPLE,
                sampleContentProvided=False, deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY,
                appAccountToken="", rawAccountTenure=0, rawPlayTime=0, rawLifetimeDollarsRefunded=0, rawLifetimeDollarsPurchased=0,
                rawUserStatus=0))
        shown = self.store.run("store", "consumption")
        self.assertIn(coins[1]["transactionID"], shown)
        self.assertIn(coins[2]["transactionID"], shown)

        token = str(uuid.uuid4())
        self.client.set_app_account_token(ads["transactionID"], UpdateAppAccountTokenRequest(appAccountToken=token))
        info = self.client.get_transaction_info(ads["transactionID"])
        self.assertEqual(self.verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo).appAccountToken, token)
        # The app's own signed transaction carries it too (lowercase, as Apple's).
        apps = {t["transactionId"]: t["signedTransaction"] for t in self.store.signed()["transactions"]}
        self.assertEqual(self.verifier.verify_and_decode_signed_transaction(apps[ads["transactionID"]]).appAccountToken, token)

        app = self.client.get_app_transaction_info(ads["transactionID"])
        app_transaction = self.verifier.verify_and_decode_app_transaction(app.signedAppTransactionInfo)
        self.assertEqual(app_transaction.bundleId, "com.storefront.demo")
        self.assertEqual(app_transaction.receiptType, Environment.SANDBOX)

    def test_errors_come_back_as_apples_api_exceptions(self):
        with self.assertRaises(APIException) as missing:
            self.client.get_transaction_info("9999999999999999")
        self.assertEqual(missing.exception.http_status_code, 404)
        self.assertEqual(missing.exception.raw_api_error, 4040010)
        with self.assertRaises(APIException) as invalid:
            self.client.get_transaction_info("not-a-number")
        self.assertEqual(invalid.exception.raw_api_error, 4000006)
        self.client._bundle_id = "com.someone.else"
        try:
            with self.assertRaises(APIException) as unauthorized:
                self.client.get_transaction_info("2000000000000001")
            self.assertEqual(unauthorized.exception.http_status_code, 401)
            self.assertIsNone(unauthorized.exception.raw_api_error)
        finally:
            self.client._bundle_id = "com.storefront.demo"

    def test_an_unknown_path_or_a_refused_method_still_gives_apples_client_a_code(self):
        # Apple's client, asked for a path the server does not have or with a method the path
        # does not take, reads Apple's error body: a code and a message, not a bare status.
        with self.assertRaises(APIException) as unknown:
            self.client._make_request("/inApps/v1/nothing/1", "GET", {}, None, None)
        self.assertEqual(unknown.exception.http_status_code, 404)
        self.assertEqual(unknown.exception.raw_api_error, 4040000)
        self.assertEqual(unknown.exception.error_message, "Not found. The path is not an App Store Server API endpoint.")
        with self.assertRaises(APIException) as refused:
            self.client._make_request("/inApps/v1/transactions/2000000000000001", "DELETE", {}, None, None)
        self.assertEqual(refused.exception.http_status_code, 405)
        self.assertEqual(refused.exception.raw_api_error, 4050000)
        self.assertEqual(refused.exception.error_message, "Method not allowed. The path does not take this method.")


class FreshStoreTestCase(unittest.TestCase):
    """A store of its own for each test, served, with Apple's client and verifier: for tests
    whose order of refunds or offers another test's purchases would change."""

    def setUp(self):
        self.store = Store()
        self.addCleanup(self.store.remove)
        self.store.serve()
        self.addCleanup(self.store.stop)
        self.client = self.store.client()
        self.verifier = SignedDataVerifier([self.store.root()], False, Environment.SANDBOX, "com.storefront.demo")


class RefundHistoryTests(FreshStoreTestCase):
    """Get Refund History as Apple's client reads it: refunds in revocation-date order, and a
    kept revision brings the refunds made since, a later refund of an older purchase included."""

    def test_a_kept_revision_returns_later_refunds_of_older_purchases(self):
        store, client, verifier = self.store, self.client, self.verifier
        a, b, c = (store.buy(COINS) for _ in range(3))

        def refunded(revision):
            response = client.get_refund_history(a, revision)
            found = [verifier.verify_and_decode_signed_transaction(jws) for jws in response.signedTransactions]
            return [t.transactionId for t in found], [t.revocationDate for t in found], response

        store.run("store", "refund", c)
        store.run("store", "refund", a)
        ids, dates, first = refunded(None)
        self.assertEqual(ids, [c, a], "by revocation date, not by purchase")
        self.assertEqual(dates, sorted(dates))
        self.assertFalse(first.hasMore)
        store.run("store", "refund", b)
        ids, _, later = refunded(first.revision)
        self.assertEqual(ids, [b])
        self.assertEqual(refunded(later.revision)[0], [])


class ExtensionEligibilityTests(FreshStoreTestCase):
    """Apple's SubscriptionExtensionIneligibleError list, as far as the store can know it: a
    subscription in a free offer period (the Demo's Plus starts with a free week) is neither
    extended alone (403, 4030004) nor by a mass extension, which counts it as failed."""

    def test_a_subscription_in_its_free_trial_is_not_extended(self):
        store, client, verifier = self.store, self.client, self.verifier
        trial = store.run("buy", PLUS, json_output=True)["transaction"]
        original = trial["originalTransactionID"]

        def expires():
            info = client.get_transaction_info(trial["transactionID"])
            return verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo)

        before = expires()
        self.assertEqual(before.offerDiscountType.value, "FREE_TRIAL")
        with self.assertRaises(APIException) as refused:
            client.extend_subscription_renewal_date(original, ExtendRenewalDateRequest(
                extendByDays=5, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier=str(uuid.uuid4())))
        self.assertEqual(refused.exception.http_status_code, 403)
        self.assertEqual(refused.exception.raw_api_error, 4030004)
        mass_id = str(uuid.uuid4())
        client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
            extendByDays=1, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=mass_id,
            productId=PLUS))
        status = client.get_status_of_subscription_renewal_date_extensions(mass_id, PLUS)
        self.assertTrue(status.complete)
        self.assertEqual((status.succeededCount, status.failedCount), (0, 1))
        self.assertEqual(expires().expiresDate, before.expiresDate)


if __name__ == "__main__":
    unittest.main()
