"""App Store Server Notifications V2 from `storefront serve`, judged by Apple's own code: a
webhook receiver verifies every notification with `SignedDataVerifier.verify_and_decode_notification`
(Sandbox and Production, online checks on), and each scenario of the subscription scenario
suite asserts the exact sequence of (type, subtype) that Apple documents for it."""
import os
import unittest
import uuid

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.SendAttemptResult import SendAttemptResult
from appstoreserverlibrary.models.Subtype import Subtype

from notification_receiver import NotificationReceiver, OCSPEndpoint, Storefront, kind, verifier_for

BASIC = "com.storefront.demo.premium.basic.monthly"
PLUS = "com.storefront.demo.premium.plus.monthly"
PRO = "com.storefront.demo.premium.pro.monthly"
COINS = "com.storefront.demo.coins.100"
APP_APPLE_ID = 1234567890


class Scenario:
    """A store with `storefront serve` sending to a verifying receiver."""

    def __init__(self, environment=Environment.SANDBOX, settings=()):
        self.store = Storefront()
        self.store.run("store", "set", "latency", "0")
        self.ocsp = OCSPEndpoint(self.store)
        self.store.run("store", "set", "server-url", self.ocsp.url)
        app_apple_id = None
        if environment == Environment.PRODUCTION:
            self.store.run("store", "set", "environment", "Production")
            self.store.run("store", "set", "app-apple-id", str(APP_APPLE_ID))
            app_apple_id = APP_APPLE_ID
        for name, value in settings:
            self.store.run("store", "set", name, value)
        self.receiver = NotificationReceiver(verifier_for(self.store, environment, app_apple_id))
        self.store.run("store", "set", "notification-url", self.receiver.url)
        self.store.serve()

    def buy(self, product):
        return self.store.json("buy", product)["transaction"]["transactionID"]

    def run(self, *arguments):
        return self.store.run(*arguments)

    def expect(self, test, sequence, timeout=60):
        """The receiver gets exactly `sequence` (and no notification Apple's code refuses)."""
        received = self.receiver.wait_for(len(sequence), timeout)
        test.assertEqual(self.receiver.failures, [])
        test.assertEqual([n for n in self.receiver.sequence()], sequence)
        return received

    def close(self):
        self.store.stop()
        self.receiver.close()
        self.ocsp.close()
        self.store.close()


class NotificationScenarioTests(unittest.TestCase):
    def scenario(self, **arguments):
        scenario = Scenario(**arguments)
        self.addCleanup(scenario.close)
        return scenario

    def test_trial_purchase_and_renewals(self):
        s = self.scenario()
        first = s.buy(PLUS)
        s.run("store", "renew", first)
        s.run("store", "renew", first)
        received = s.expect(self, ["SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "DID_RENEW"])
        self.assertEqual(received[0].transaction.transactionId, first)
        self.assertEqual(received[0].transaction.offerType.value, 1, "the trial is the introductory offer")
        self.assertEqual(received[0].data.status.value, 1)
        self.assertEqual(received[2].transaction.originalTransactionId, first)
        self.assertEqual(received[0].version, "2.0")
        self.assertEqual(len({n.notificationUUID for n in received}), 3)

    def test_billing_retry_without_grace_and_recovery(self):
        s = self.scenario()
        first = s.buy(BASIC)
        s.run("store", "billing-issue", first, "on")
        s.run("store", "renew", first)
        s.run("store", "billing-issue", first, "off")
        received = s.expect(self, ["SUBSCRIBED/INITIAL_BUY", "DID_FAIL_TO_RENEW", "DID_RENEW/BILLING_RECOVERY"])
        self.assertEqual(received[1].data.status.value, 3, "billing retry")
        self.assertTrue(received[1].renewal.isInBillingRetryPeriod)

    def test_billing_retry_with_grace_ends_in_expiry(self):
        # Every renewal fails (billing-retry on), each period lasts 2 s: the store clock carries
        # the subscription through grace and billing retry to its end while serve runs.
        s = self.scenario(settings=[("time-rate", "every-2-seconds"), ("billing-retry", "on"), ("grace-period", "on")])
        s.buy(BASIC)
        received = s.expect(
            self, ["SUBSCRIBED/INITIAL_BUY", "DID_FAIL_TO_RENEW/GRACE_PERIOD", "GRACE_PERIOD_EXPIRED", "EXPIRED/BILLING_RETRY"])
        self.assertEqual([n.data.status.value for n in received], [1, 4, 3, 2])
        self.assertIsNotNone(received[1].renewal.gracePeriodExpiresDate)
        # Apple's renewalDate is always there: the end of the period billing failed at.
        self.assertEqual(received[3].renewal.renewalDate, received[3].transaction.expiresDate)

    def test_voluntary_expiry_and_resubscribe(self):
        s = self.scenario()
        first = s.buy(BASIC)
        s.run("store", "cancel", first)
        s.run("store", "expire", first)
        s.buy(BASIC)
        received = s.expect(self, [
            "SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED", "EXPIRED/VOLUNTARY",
            "SUBSCRIBED/RESUBSCRIBE",
        ])
        # Apple's renewalDate is always there, the latest period's end: with auto-renew off and expired.
        for notification in received[1:3]:
            self.assertIsNotNone(notification.renewal.renewalDate, kind(notification))
            self.assertEqual(notification.renewal.renewalDate, notification.transaction.expiresDate, kind(notification))

    def test_upgrade_downgrade_and_its_undo(self):
        s = self.scenario()
        s.buy(PLUS)
        s.buy(PRO)
        s.buy(BASIC)
        s.buy(PRO)
        received = s.expect(self, [
            "SUBSCRIBED/INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF/UPGRADE", "DID_CHANGE_RENEWAL_PREF/DOWNGRADE",
            "DID_CHANGE_RENEWAL_PREF",
        ])
        self.assertEqual(received[1].transaction.productId, PRO)
        self.assertEqual(received[2].renewal.autoRenewProductId, BASIC)
        self.assertEqual(received[3].renewal.autoRenewProductId, PRO)

    def test_refund_extension_and_mass_extension(self):
        s = self.scenario()
        first = s.buy(BASIC)
        client = s.store.client()
        client.extend_subscription_renewal_date(first, ExtendRenewalDateRequest(
            extendByDays=3, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier=str(uuid.uuid4())))
        mass = str(uuid.uuid4())
        client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
            extendByDays=1, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=mass, productId=BASIC))
        s.run("store", "refund", first)
        received = s.expect(self, [
            "SUBSCRIBED/INITIAL_BUY", "RENEWAL_EXTENDED", "RENEWAL_EXTENDED", "RENEWAL_EXTENSION/SUMMARY", "REFUND",
        ])
        summary = received[3].summary
        self.assertEqual((summary.productId, summary.requestIdentifier, summary.succeededCount, summary.failedCount),
                         (BASIC, mass, 1, 0))
        self.assertIsNone(received[3].data)
        self.assertIsNotNone(received[4].transaction.revocationDate)
        self.assertEqual(received[4].data.status.value, 5, "revoked")
        # Refunded, renewalDate is still the period's end (extended twice), not the refund's date.
        self.assertEqual(received[4].renewal.renewalDate, received[4].transaction.expiresDate)
        self.assertEqual(received[4].renewal.renewalDate, received[2].renewal.renewalDate)

    def test_price_increase_consent_and_decline(self):
        s = self.scenario()
        first = s.buy(BASIC)  # 2.99 USD in the catalog
        increase = s.store.json("store", "price-increase", first, "--price", "3.49")
        self.assertEqual((increase["status"], increase["price"], increase["currency"]), ("pending", "3.49", "USD"))
        s.run("store", "price-increase", first, "accept")
        renewal = s.store.json("store", "renew", first)["transaction"]["transactionID"]
        s.run("store", "renew", first)
        s.run("store", "price-increase", first, "--price", "3.99")
        s.run("store", "price-increase", first, "decline")
        # The renewal date (forced): without consent the subscription expires instead.
        s.run("store", "renew", first)
        received = s.expect(self, [
            "SUBSCRIBED/INITIAL_BUY", "PRICE_INCREASE/PENDING", "PRICE_INCREASE/ACCEPTED", "DID_RENEW", "DID_RENEW",
            "PRICE_INCREASE/PENDING", "EXPIRED/PRICE_INCREASE",
        ])
        self.assertEqual(received[0].transaction.price, 2990, "milliunits")
        self.assertEqual(received[0].renewal.renewalPrice, 2990)
        self.assertIsNone(received[0].renewal.rawPriceIncreaseStatus)
        # Announced: renewal info carries the new price and "not responded"; consented: 1.
        self.assertEqual((received[1].renewal.priceIncreaseStatus.value, received[1].renewal.renewalPrice), (0, 3490))
        self.assertEqual((received[2].renewal.priceIncreaseStatus.value, received[2].renewal.renewalPrice), (1, 3490))
        self.assertEqual(received[2].renewal.currency, "USD")
        # Each renewal after consent is charged the new price.
        self.assertEqual(received[3].transaction.transactionId, renewal)
        self.assertEqual([n.transaction.price for n in received[3:5]], [3490, 3490])
        self.assertEqual([n.transaction.currency for n in received[3:5]], ["USD", "USD"])
        self.assertEqual(received[4].renewal.renewalPrice, 3490)
        self.assertEqual((received[5].renewal.priceIncreaseStatus.value, received[5].renewal.renewalPrice), (0, 3990))
        self.assertEqual(received[6].renewal.expirationIntent.value, 3, "didn't consent to a price increase")
        self.assertEqual(received[6].renewal.priceIncreaseStatus.value, 0)
        self.assertEqual(received[6].data.status.value, 2, "expired")
        self.assertEqual(received[6].transaction.price, 3490, "the last period charged was at the first increase")
        # The store's ledger, as the app reads it: the renewals were charged 3.49.
        charges = s.store.json("store", "charges")
        self.assertEqual([c["price"] for c in charges], ["2.99", "3.49", "3.49"])

    def request_id(self, s, transaction_id):
        """The id of the store's refund request for `transaction_id` (`store refund-requests`)."""
        return [r["id"] for r in s.store.json("store", "refund-requests") if r["transactionID"] == transaction_id][-1]

    def test_consumable_refund_requests(self):
        s = self.scenario()
        declined = s.buy(COINS)
        approved = s.buy(COINS)
        s.run("refund-request", declined, "--reason", "UNINTENDED_PURCHASE")
        s.run("store", "decline-refund", self.request_id(s, declined))
        s.run("refund-request", approved)
        s.run("store", "approve-refund", self.request_id(s, approved))
        received = s.expect(self, [
            "ONE_TIME_CHARGE", "ONE_TIME_CHARGE", "CONSUMPTION_REQUEST", "REFUND_DECLINED", "CONSUMPTION_REQUEST", "REFUND",
        ])
        self.assertEqual(received[2].data.rawConsumptionRequestReason, "UNINTENDED_PURCHASE")
        self.assertEqual(received[4].data.rawConsumptionRequestReason, "UNSATISFIED_WITH_PURCHASE")
        self.assertEqual(received[3].transaction.transactionId, declined)
        self.assertEqual(received[5].transaction.transactionId, approved)

    def test_production_notifications_carry_the_app_apple_id(self):
        s = self.scenario(environment=Environment.PRODUCTION)
        first = s.buy(BASIC)
        s.run("store", "renew", first)
        s.buy(COINS)
        received = s.expect(self, ["SUBSCRIBED/INITIAL_BUY", "DID_RENEW", "ONE_TIME_CHARGE"])
        self.assertTrue(all(n.data.environment == Environment.PRODUCTION for n in received))
        self.assertTrue(all(n.data.appAppleId == APP_APPLE_ID for n in received))

    def test_test_notification_its_status_and_the_history(self):
        s = self.scenario()
        client = s.store.client()
        token = client.request_test_notification().testNotificationToken
        received = s.expect(self, ["TEST"])
        s.buy(COINS)
        # Sent one after the other: once the purchase's arrived, the test's attempt is journaled.
        s.expect(self, ["TEST", "ONE_TIME_CHARGE"])
        status = client.get_test_notification_status(token)
        self.assertEqual([a.sendAttemptResult for a in status.sendAttempts], [SendAttemptResult.SUCCESS])
        self.assertEqual(s.receiver.verifier.verify_and_decode_notification(status.signedPayload).notificationUUID,
                         received[0].notificationUUID)
        now = received[0].signedDate
        history = client.get_notification_history(None, NotificationHistoryRequest(
            startDate=now - 3_600_000, endDate=now + 3_600_000, notificationType=NotificationTypeV2.ONE_TIME_CHARGE))
        self.assertFalse(history.hasMore)
        self.assertEqual(len(history.notificationHistory), 1)
        item = history.notificationHistory[0]
        self.assertEqual(s.receiver.verifier.verify_and_decode_notification(item.signedPayload).rawNotificationType,
                         "ONE_TIME_CHARGE")
        self.assertEqual([a.sendAttemptResult for a in item.sendAttempts], [SendAttemptResult.SUCCESS])

    def test_the_history_takes_every_type_and_subtype_apple_documents(self):
        s = self.scenario()
        client = s.store.client()
        s.buy(COINS)
        now = s.expect(self, ["ONE_TIME_CHARGE"])[0].signedDate
        # Every value of Apple's enums is a valid filter; a type no event had answers an empty page.
        for notification_type in NotificationTypeV2:
            for subtype in [None, *Subtype]:
                history = client.get_notification_history(None, NotificationHistoryRequest(
                    startDate=now - 3_600_000, endDate=now + 3_600_000, notificationType=notification_type,
                    notificationSubtype=subtype))
                expected = 1 if notification_type == NotificationTypeV2.ONE_TIME_CHARGE and subtype is None else 0
                self.assertEqual(len(history.notificationHistory), expected, f"{notification_type}/{subtype}")
                self.assertFalse(history.hasMore)


class ServerGuideNotificationsTests(unittest.TestCase):
    """The server guide's "Server notifications" lines (Docs/server.md), run as written: its shell
    lines through the built binary, its receiver (on a free port instead of 9000) in this process."""

    def test_the_guide_receiver_gets_what_the_guide_says(self):
        import re
        import threading
        import pathlib
        ROOT = pathlib.Path(__file__).resolve().parents[2]
        section = (ROOT / "Docs" / "server.md").read_text().split("## Server notifications", 1)[1].split("\n## ", 1)[0]
        shell = [line.split("  #")[0].strip() for line in re.search(r"```sh\n(.*?)```", section, re.S).group(1).splitlines()]
        python = re.search(r"```python\n(.*?)```", section, re.S).group(1)
        store = Storefront()
        self.addCleanup(store.close)
        printed = []
        arrived = threading.Condition()

        def record(*words, **_):
            with arrived:
                printed.append(" ".join(str(w) for w in words))
                arrived.notify_all()
        namespace = {"print": record}
        for line in shell:
            if line.startswith("python3 receiver.py"):
                self.assertIn('("127.0.0.1", 9000)', python)
                self.assertTrue(python.rstrip().endswith("server.serve_forever()"))
                code = python.replace('("127.0.0.1", 9000)', '("127.0.0.1", 0)').rstrip()[:-len("server.serve_forever()")]
                cwd = os.getcwd()
                os.chdir(store.home)
                try:
                    exec(compile(code, "Docs/server.md", "exec"), namespace)
                finally:
                    os.chdir(cwd)
                server = namespace["server"]
                self.addCleanup(server.server_close)
                self.addCleanup(server.shutdown)
                port = server.server_address[1]
                store.run("store", "set", "notification-url", f"http://127.0.0.1:{port}/notifications")

                threading.Thread(target=server.serve_forever, daemon=True).start()
            elif line.endswith("&"):
                self.assertIn(" serve ", line)
                store.serve()
                self.addCleanup(store.stop)
            elif line:
                store.shell(line)
        words = section.split("It prints `", 1)[1].split("`, then `", 1)
        expected = [words[0], words[1].split("`", 1)[0]]
        with arrived:
            arrived.wait_for(lambda: len(printed) >= len(expected), 60)
            self.assertEqual(printed, expected)
        listed = store.run("store", "notifications").stdout
        self.assertIn("PRICE_INCREASE/PENDING", listed)


if __name__ == "__main__":
    unittest.main()
