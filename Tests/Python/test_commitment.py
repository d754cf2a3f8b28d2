"""Monthly subscriptions with a 12-month commitment, judged by Apple's own library.

Pro (Yearly) of the Demo catalog is bought monthly (`buy --billing-plan monthly`), renewed
twice (`store renew`: payments 2 and 3 of 12), cancelled and then set to renew into the up-front
plan (`store renew-into`), all through the real `storefront` CLI. Apple's `SignedDataVerifier`
must accept every signed item in Sandbox and in Production, and its models must decode the
commitment as the store made it: `billingPlanType`, `TransactionCommitmentInfo` (which payment of
how many, the commitment's price in milliunits and its end in milliseconds), renewal info's
`renewalBillingPlanType` and `RenewalCommitmentInfo`. `storefront serve` must answer Get
Transaction Info, Transaction History, All Subscription Statuses and Notification History with
the same fields, verifyReceipt with each monthly charge as an in-app purchase of its own, and
extending the renewal date must move the commitment's end as much. Bought up front, or a product
without billing plans, the signed items carry no commitment (and the latter no plan), as Apple's.
"""
import json
import time
import unittest
import urllib.request
import uuid

from appstoreserverlibrary.api_client import GetTransactionHistoryVersion
from appstoreserverlibrary.models.AutoRenewStatus import AutoRenewStatus
from appstoreserverlibrary.models.BillingPlanType import BillingPlanType
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.RenewalBillingPlanType import RenewalBillingPlanType
from appstoreserverlibrary.models.TransactionHistoryRequest import Order, TransactionHistoryRequest
from appstoreserverlibrary.models.TransactionReason import TransactionReason
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

from storefront import COINS, PLUS, PRO_YEARLY, Store, free_port

APP_APPLE_ID = 1234567890


class CommitmentTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.store = Store()
        store = cls.store
        cls.first = store.run("buy", PRO_YEARLY, "--billing-plan", "monthly", json_output=True)["transaction"]
        cls.original = cls.first["originalTransactionID"]
        cls.renewals = [store.run("store", "renew", cls.original, json_output=True)["transaction"] for _ in range(2)]
        cls.coins = store.buy(COINS)
        cls.root = store.root()

    @classmethod
    def tearDownClass(cls):
        cls.store.remove()

    def verifier(self, environment=Environment.SANDBOX):
        return SignedDataVerifier([self.root], False, environment, "com.storefront.demo",
                                  APP_APPLE_ID if environment == Environment.PRODUCTION else None)

    def decoded(self, items, environment=Environment.SANDBOX):
        check = self.verifier(environment)
        transactions = {t["transactionId"]: check.verify_and_decode_signed_transaction(t["signedTransaction"])
                        for t in items["transactions"]}
        renewals = [check.verify_and_decode_renewal_info(r["signedRenewalInfo"]) for r in items["renewalInfo"]]
        return transactions, renewals

    def test_each_payment_says_which_of_twelve_it_is(self):
        transactions, _ = self.decoded(self.store.signed())
        first = transactions[self.first["transactionID"]]
        self.assertEqual(first.billingPlanType, BillingPlanType.MONTHLY)
        self.assertEqual(first.rawBillingPlanType, "MONTHLY")
        commitment = first.commitmentInfo
        self.assertEqual((commitment.billingPeriodNumber, commitment.totalBillingPeriods), (1, 12))
        self.assertEqual(commitment.commitmentPrice, 95880)
        self.assertEqual(first.price, 0, "the monthly plan's free week")
        for number, renewal in enumerate(self.renewals, start=2):
            decoded = transactions[renewal["transactionID"]]
            self.assertEqual(decoded.transactionReason, TransactionReason.RENEWAL)
            self.assertEqual(decoded.billingPlanType, BillingPlanType.MONTHLY)
            self.assertEqual(decoded.commitmentInfo.billingPeriodNumber, number)
            self.assertEqual(decoded.commitmentInfo.totalBillingPeriods, 12)
            self.assertEqual(decoded.commitmentInfo.commitmentPrice, 95880)
            self.assertEqual(decoded.price, 7990)
            self.assertEqual(decoded.currency, "USD")
            self.assertGreater(decoded.commitmentInfo.commitmentExpiresDate, decoded.expiresDate)
        coins = transactions[self.coins]
        self.assertIsNone(coins.billingPlanType)
        self.assertIsNone(coins.commitmentInfo)

    def test_renewal_info_tells_the_month_and_the_commitments_end(self):
        store = self.store
        _, renewals = self.decoded(store.signed())
        info = renewals[0]
        self.assertEqual(info.renewalBillingPlanType, RenewalBillingPlanType.MONTHLY)
        self.assertEqual(info.autoRenewStatus, AutoRenewStatus.ON)
        self.assertEqual(info.renewalPrice, 7990)
        commitment = info.commitmentInfo
        self.assertEqual(commitment.commitmentAutoRenewStatus, AutoRenewStatus.ON)
        self.assertEqual(commitment.commitmentAutoRenewProductId, PRO_YEARLY)
        self.assertEqual(commitment.commitmentRenewalBillingPlanType, RenewalBillingPlanType.MONTHLY)
        self.assertEqual(commitment.commitmentRenewalPrice, 7990)
        # Cancelled: the next month is still billed, the commitment does not renew.
        store.run("store", "cancel", self.original)
        _, renewals = self.decoded(store.signed())
        self.assertEqual(renewals[0].autoRenewStatus, AutoRenewStatus.ON)
        self.assertEqual(renewals[0].commitmentInfo.commitmentAutoRenewStatus, AutoRenewStatus.OFF)
        self.assertIsNone(renewals[0].commitmentInfo.commitmentRenewalPrice)
        # The customer picks the up-front plan for when the commitment ends.
        store.run("store", "renew-into", self.original, "--billing-plan", "upfront")
        _, renewals = self.decoded(store.signed())
        commitment = renewals[0].commitmentInfo
        self.assertEqual(commitment.commitmentAutoRenewStatus, AutoRenewStatus.ON)
        self.assertEqual(commitment.commitmentRenewalBillingPlanType, RenewalBillingPlanType.BILLED_UPFRONT)
        self.assertEqual(commitment.commitmentRenewalPrice, 79990)
        store.run("store", "renew-into", self.original, "--billing-plan", "monthly")

    def test_no_commitment_fields_where_apple_gives_none(self):
        # Bought up front: the plan, and no commitment; a product without plans: neither.
        for product, plan in ((PRO_YEARLY, BillingPlanType.BILLED_UPFRONT), (PLUS, None)):
            store = Store()
            try:
                bought = store.buy(product)
                check = SignedDataVerifier([store.root()], False, Environment.SANDBOX, "com.storefront.demo")
                items = store.signed()
                transaction = next(check.verify_and_decode_signed_transaction(t["signedTransaction"])
                                   for t in items["transactions"] if t["transactionId"] == bought)
                self.assertEqual(transaction.billingPlanType, plan, product)
                self.assertIsNone(transaction.commitmentInfo, product)
                renewal = check.verify_and_decode_renewal_info(items["renewalInfo"][0]["signedRenewalInfo"])
                self.assertEqual(renewal.rawRenewalBillingPlanType, plan.value if plan else None, product)
                self.assertIsNone(renewal.commitmentInfo, product)
            finally:
                store.remove()

    def test_production_verifier_accepts_every_committed_item(self):
        store = self.store
        store.run("store", "set", "app-apple-id", str(APP_APPLE_ID))
        store.run("store", "set", "environment", "Production")
        try:
            transactions, renewals = self.decoded(store.signed(), Environment.PRODUCTION)
            self.assertEqual(transactions[self.first["transactionID"]].commitmentInfo.billingPeriodNumber, 1)
            self.assertEqual(renewals[0].renewalBillingPlanType, RenewalBillingPlanType.MONTHLY)
        finally:
            store.run("store", "set", "environment", "Sandbox")

    def test_the_server_answers_with_the_commitment(self):
        store = Store()
        try:
            # Notifications are made only for a server that has a URL (here, nobody listens).
            store.run("store", "set", "notification-url", f"http://127.0.0.1:{free_port()}/notifications")
            first = store.run("buy", PRO_YEARLY, "--billing-plan", "monthly", json_output=True)["transaction"]
            original = first["originalTransactionID"]
            second = store.run("store", "renew", original, json_output=True)["transaction"]
            store.serve()
            client = store.client()
            check = SignedDataVerifier([store.root()], False, Environment.SANDBOX, "com.storefront.demo")

            info = client.get_transaction_info(second["transactionID"])
            decoded = check.verify_and_decode_signed_transaction(info.signedTransactionInfo)
            self.assertEqual(decoded.billingPlanType, BillingPlanType.MONTHLY)
            self.assertEqual(decoded.commitmentInfo.billingPeriodNumber, 2)

            history = client.get_transaction_history(
                original, None, TransactionHistoryRequest(sort=Order.ASCENDING), GetTransactionHistoryVersion.V2)
            numbers = [check.verify_and_decode_signed_transaction(jws).commitmentInfo.billingPeriodNumber
                       for jws in history.signedTransactions]
            self.assertEqual(numbers, [1, 2])

            statuses = client.get_all_subscription_statuses(original)
            item = statuses.data[0].lastTransactions[0]
            renewal = check.verify_and_decode_renewal_info(item.signedRenewalInfo)
            end = renewal.commitmentInfo.commitmentRenewalDate
            self.assertEqual(renewal.renewalBillingPlanType, RenewalBillingPlanType.MONTHLY)
            self.assertEqual(check.verify_and_decode_signed_transaction(item.signedTransactionInfo)
                             .commitmentInfo.commitmentExpiresDate, end)

            # verifyReceipt: each monthly charge is an in-app purchase of its own, a month on.
            request = urllib.request.Request(store.url + "/verifyReceipt", method="POST",
                                             data=json.dumps({"receipt-data": store.signed()["receipt"]}).encode(),
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=30) as answer:
                verified = json.load(answer)
            self.assertEqual(verified["status"], 0)
            months = sorted((e for e in verified["receipt"]["in_app"] if e["product_id"] == PRO_YEARLY),
                            key=lambda e: int(e["purchase_date_ms"]))
            self.assertEqual([e["transaction_id"] for e in months], [first["transactionID"], second["transactionID"]])
            self.assertEqual({e["original_transaction_id"] for e in months}, {original})
            self.assertEqual([e["is_trial_period"] for e in months], ["true", "false"], "the free week, then a month")
            first_month = check.verify_and_decode_signed_transaction(
                client.get_transaction_info(first["transactionID"]).signedTransactionInfo)
            # A receipt keeps dates to the second (its ASN.1 dates), the signed transaction to the millisecond.
            self.assertEqual([int(e["expires_date_ms"]) for e in months],
                             [t.expiresDate // 1000 * 1000 for t in (first_month, decoded)])
            self.assertEqual(verified["latest_receipt_info"][0]["transaction_id"], second["transactionID"])
            self.assertEqual(verified["pending_renewal_info"][0]["auto_renew_product_id"], PRO_YEARLY)

            # An extension moves the month and the commitment's end by as much.
            extension = client.extend_subscription_renewal_date(original, ExtendRenewalDateRequest(
                extendByDays=3, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION,
                requestIdentifier=str(uuid.uuid4())))
            self.assertTrue(extension.success)
            item = client.get_all_subscription_statuses(original).data[0].lastTransactions[0]
            renewal = check.verify_and_decode_renewal_info(item.signedRenewalInfo)
            latest = check.verify_and_decode_signed_transaction(item.signedTransactionInfo)
            moved = extension.effectiveDate - decoded.expiresDate
            self.assertGreater(moved, 0)
            self.assertEqual(renewal.commitmentInfo.commitmentRenewalDate, end + moved)
            self.assertEqual(latest.commitmentInfo.commitmentExpiresDate, end + moved)
            self.assertEqual(latest.commitmentInfo.billingPeriodNumber, 2)

            now = int(time.time() * 1000)
            page = client.get_notification_history(None, NotificationHistoryRequest(
                startDate=now - 3_600_000, endDate=now + 3_600_000, transactionId=original))
            renewed = [n for n in page.notificationHistory
                       if check.verify_and_decode_notification(n.signedPayload).notificationType
                       == NotificationTypeV2.DID_RENEW]
            types = [check.verify_and_decode_notification(n.signedPayload).notificationType for n in page.notificationHistory]
            self.assertTrue(renewed, f"the second month is a DID_RENEW: {types}")
            payload = check.verify_and_decode_notification(renewed[0].signedPayload)
            month = check.verify_and_decode_signed_transaction(payload.data.signedTransactionInfo)
            self.assertEqual(month.commitmentInfo.billingPeriodNumber, 2)
            self.assertEqual(month.billingPlanType, BillingPlanType.MONTHLY)
        finally:
            store.stop()
            store.remove()


if __name__ == "__main__":
    unittest.main()
