"""Apple's own verifier judges what the local App Store signs.

Purchases, renewals, billing retry, an upgrade and a refund are made through the real
`storefront` CLI; Apple's `SignedDataVerifier` (app-store-server-library, pinned in
scripts/python-requirements.txt) must accept every signed transaction, renewal info and app transaction in
Sandbox and in Production, with the store's root, with online (OCSP) checks off and on; its
`ReceiptUtility` must find our transaction IDs in our receipts; and it must reject another
store's root, a changed payload, another bundle ID and another environment.
"""
import base64
import json
import unittest

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType
from appstoreserverlibrary.models.OfferDiscountType import OfferDiscountType
from appstoreserverlibrary.models.OfferType import OfferType
from appstoreserverlibrary.models.RevocationReason import RevocationReason
from appstoreserverlibrary.models.RevocationType import RevocationType
from appstoreserverlibrary.models.TransactionReason import TransactionReason
from appstoreserverlibrary.models.Type import Type
from appstoreserverlibrary.receipt_utility import ReceiptUtility
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException, VerificationStatus

from storefront import COINS, PLUS, PRO, REMOVE_ADS, Store

APP_APPLE_ID = 1234567890


def verifier(store_items, root, environment=Environment.SANDBOX, online=False, bundle_id=None, app_apple_id=None):
    return SignedDataVerifier(
        [root], online, environment, bundle_id or store_items["bundleId"],
        app_apple_id if app_apple_id is not None else (APP_APPLE_ID if environment == Environment.PRODUCTION else None))


def accept_everything(test, items, check):
    """Verifies every signed item in `items` with `check` (a SignedDataVerifier)."""
    transactions = {}
    for transaction in items["transactions"]:
        decoded = check.verify_and_decode_signed_transaction(transaction["signedTransaction"])
        test.assertEqual(decoded.transactionId, transaction["transactionId"])
        transactions[decoded.transactionId] = decoded
    renewals = [check.verify_and_decode_renewal_info(info["signedRenewalInfo"]) for info in items["renewalInfo"]]
    app = check.verify_and_decode_app_transaction(items["appTransaction"])
    test.assertTrue(transactions and renewals)
    return transactions, renewals, app


class SignedDataTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.store = Store()
        store = cls.store
        cls.trial = store.buy(PLUS)
        cls.renewal = store.run("store", "renew", PLUS, json_output=True)["transaction"]["transactionID"]
        store.run("store", "billing-issue", PLUS, "on")
        store.run("store", "renew", PLUS)  # fails: billing retry begins
        cls.in_billing_retry = store.signed()
        cls.recovered = store.run("store", "billing-issue", PLUS, "off", json_output=True)["transaction"]["transactionID"]
        cls.upgrade = store.buy(PRO)
        cls.coins = store.buy(COINS)
        cls.refunded = store.buy(REMOVE_ADS)
        store.run("store", "refund", cls.refunded)
        cls.reversed = store.buy(COINS)
        store.run("store", "refund", cls.reversed)
        store.run("store", "refund-reverse", cls.reversed)
        cls.items = store.signed()
        cls.root = store.root()

    @classmethod
    def tearDownClass(cls):
        cls.store.remove()

    def test_sandbox_verifier_accepts_every_item_offline(self):
        self.assertEqual(self.items["environment"], "Sandbox")
        transactions, renewals, app = accept_everything(self, self.items, verifier(self.items, self.root))
        self.assertEqual(len(transactions), len(self.items["transactions"]))
        self.assertEqual(app.receiptType, Environment.SANDBOX)
        self.assertIsNone(app.appAppleId)
        self.assertEqual(app.bundleId, self.items["bundleId"])

    def test_every_field_is_what_apple_sends(self):
        transactions, renewals, app = accept_everything(self, self.items, verifier(self.items, self.root))
        trial = transactions[self.trial]
        self.assertEqual(trial.transactionReason, TransactionReason.PURCHASE)
        self.assertEqual(trial.type, Type.AUTO_RENEWABLE_SUBSCRIPTION)
        self.assertEqual(trial.offerType, OfferType.INTRODUCTORY_OFFER)
        self.assertEqual(trial.offerDiscountType, OfferDiscountType.FREE_TRIAL)
        self.assertEqual(trial.offerPeriod, "P1W")
        self.assertEqual(trial.price, 0)
        self.assertEqual(trial.currency, "USD")
        self.assertEqual(trial.storefront, "USA")
        self.assertEqual(trial.storefrontId, "143441")
        self.assertEqual(trial.inAppOwnershipType, InAppOwnershipType.PURCHASED)
        self.assertEqual(trial.environment, Environment.SANDBOX)
        self.assertEqual(trial.appTransactionId, app.appTransactionId)
        self.assertTrue(trial.signedDate and trial.purchaseDate and trial.expiresDate and trial.webOrderLineItemId)
        self.assertEqual(transactions[self.renewal].transactionReason, TransactionReason.RENEWAL)
        self.assertGreater(transactions[self.renewal].price, 0)
        self.assertEqual(transactions[self.recovered].transactionReason, TransactionReason.RENEWAL)
        self.assertTrue(transactions[self.recovered].isUpgraded)
        upgrade = transactions[self.upgrade]
        self.assertEqual(upgrade.transactionReason, TransactionReason.PURCHASE, "an upgrade the customer made")
        self.assertEqual(upgrade.originalTransactionId, self.trial)
        self.assertEqual(upgrade.productId, PRO)
        coins = transactions[self.coins]
        self.assertEqual(coins.type, Type.CONSUMABLE)
        self.assertEqual(coins.price, 990)
        self.assertEqual(coins.quantity, 1)
        refunded = transactions[self.refunded]
        self.assertEqual(refunded.type, Type.NON_CONSUMABLE)
        self.assertIsNotNone(refunded.revocationDate)
        self.assertEqual(refunded.revocationReason, RevocationReason.REFUNDED_FOR_OTHER_REASON)
        # A whole refund (the store's kind): REFUND_FULL, 100% in milliunits.
        self.assertEqual(refunded.revocationType, RevocationType.REFUND_FULL)
        self.assertEqual(refunded.revocationPercentage, 100_000)
        for kept in (coins, transactions[self.reversed]):  # never refunded; refunded, then reversed
            self.assertEqual((kept.revocationDate, kept.rawRevocationType, kept.revocationPercentage), (None, None, None))
        renewal, = renewals
        self.assertEqual(renewal.productId, PRO)
        self.assertEqual(renewal.autoRenewProductId, PRO)
        self.assertEqual(renewal.currency, "USD")
        self.assertEqual(renewal.renewalPrice, upgrade.price)
        self.assertEqual(renewal.recentSubscriptionStartDate, trial.purchaseDate)
        self.assertEqual(renewal.renewalDate, upgrade.expiresDate)
        self.assertEqual(renewal.appTransactionId, app.appTransactionId)
        self.assertFalse(renewal.isInBillingRetryPeriod)

    def test_billing_retry_renewal_info_says_so(self):
        _, renewals, _ = accept_everything(self, self.in_billing_retry, verifier(self.in_billing_retry, self.root))
        self.assertTrue(renewals[0].isInBillingRetryPeriod)

    def test_receipt_utility_finds_our_transaction_ids(self):
        found = ReceiptUtility().extract_transaction_id_from_app_receipt(self.items["receipt"])
        self.assertIn(found, {t["transactionId"] for t in self.items["transactions"]})
        single = Store()
        try:
            bought = single.buy(REMOVE_ADS)
            receipt = single.signed()["receipt"]
            self.assertEqual(ReceiptUtility().extract_transaction_id_from_app_receipt(receipt), bought)
        finally:
            single.remove()

    def test_production_verifier_accepts_production_items(self):
        self.store.run("store", "set", "app-apple-id", str(APP_APPLE_ID))
        self.store.run("store", "set", "environment", "Production")
        try:
            items = self.store.signed()
            self.assertEqual(items["environment"], "Production")
            transactions, _, app = accept_everything(self, items, verifier(items, self.root, Environment.PRODUCTION))
            self.assertTrue(all(t.environment == Environment.PRODUCTION for t in transactions.values()))
            self.assertEqual(app.appAppleId, APP_APPLE_ID)
            self.assertEqual(app.receiptType, Environment.PRODUCTION)
            # And the other environment's verifier refuses them, both ways.
            with self.assertRaises(VerificationException) as refused:
                verifier(items, self.root).verify_and_decode_signed_transaction(items["transactions"][0]["signedTransaction"])
            self.assertEqual(refused.exception.status, VerificationStatus.INVALID_ENVIRONMENT)
            with self.assertRaises(VerificationException) as refused:
                verifier(items, self.root).verify_and_decode_app_transaction(items["appTransaction"])
            self.assertEqual(refused.exception.status, VerificationStatus.INVALID_ENVIRONMENT)
        finally:
            self.store.run("store", "set", "environment", "Sandbox")
        with self.assertRaises(VerificationException) as refused:
            verifier(self.items, self.root, Environment.PRODUCTION).verify_and_decode_renewal_info(
                self.items["renewalInfo"][0]["signedRenewalInfo"])
        self.assertEqual(refused.exception.status, VerificationStatus.INVALID_ENVIRONMENT)
        # A sandbox app transaction has no app Apple ID, which Production requires first.
        with self.assertRaises(VerificationException) as refused:
            verifier(self.items, self.root, Environment.PRODUCTION).verify_and_decode_app_transaction(self.items["appTransaction"])
        self.assertEqual(refused.exception.status, VerificationStatus.INVALID_APP_IDENTIFIER)

    def test_online_checks_ask_storefront_serve_at_the_url_the_certificates_name(self):
        store = Store()
        try:
            url = store.serve()
            store.run("store", "set", "server-url", url)
            store.run("store", "set", "app-apple-id", str(APP_APPLE_ID))
            store.buy(PLUS)
            store.buy(COINS)
            items = store.signed()
            root = store.root()
            self.assertEqual(items["ocspURL"], url + "/ocsp")
            for environment in (Environment.SANDBOX, Environment.PRODUCTION):
                if environment == Environment.PRODUCTION:
                    store.run("store", "set", "environment", "Production")
                    items = store.signed()
                accept_everything(self, items, verifier(items, root, environment, online=True))
            status, log, _ = store.stop()
            self.assertEqual(status, 0)
            # Both environments' checks asked the server for the leaf and the intermediate.
            self.assertGreaterEqual(log.count("POST /ocsp 200 "), 4, log)
            # With nobody answering at the certificates' OCSP URL, online checks cannot pass.
            with self.assertRaises(VerificationException) as refused:
                verifier(items, root, Environment.PRODUCTION, online=True).verify_and_decode_signed_transaction(
                    items["transactions"][0]["signedTransaction"])
            self.assertEqual(refused.exception.status, VerificationStatus.RETRYABLE_VERIFICATION_FAILURE)
        finally:
            store.remove()

    def test_another_stores_root_is_rejected(self):
        other = Store()
        try:
            other.buy(COINS)
            other_root = other.root()
        finally:
            other.remove()
        check = verifier(self.items, other_root)
        for item in ("transaction", "renewal", "app"):
            with self.subTest(item), self.assertRaises(VerificationException) as refused:
                if item == "transaction":
                    check.verify_and_decode_signed_transaction(self.items["transactions"][0]["signedTransaction"])
                elif item == "renewal":
                    check.verify_and_decode_renewal_info(self.items["renewalInfo"][0]["signedRenewalInfo"])
                else:
                    check.verify_and_decode_app_transaction(self.items["appTransaction"])
            self.assertEqual(refused.exception.status, VerificationStatus.VERIFICATION_FAILURE)

    def test_a_changed_payload_is_rejected(self):
        jws = next(t for t in self.items["transactions"] if t["transactionId"] == self.coins)["signedTransaction"]
        header, payload, signature = jws.split(".")
        decoded = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        decoded["quantity"] = 10
        changed = base64.urlsafe_b64encode(json.dumps(decoded).encode()).decode().rstrip("=")
        with self.assertRaises(VerificationException) as refused:
            verifier(self.items, self.root).verify_and_decode_signed_transaction(".".join([header, changed, signature]))
        self.assertEqual(refused.exception.status, VerificationStatus.VERIFICATION_FAILURE)

    def test_another_bundle_id_is_rejected(self):
        check = verifier(self.items, self.root, bundle_id="com.example.another.app")
        with self.assertRaises(VerificationException) as refused:
            check.verify_and_decode_signed_transaction(self.items["transactions"][0]["signedTransaction"])
        self.assertEqual(refused.exception.status, VerificationStatus.INVALID_APP_IDENTIFIER)
        with self.assertRaises(VerificationException) as refused:
            check.verify_and_decode_app_transaction(self.items["appTransaction"])
        self.assertEqual(refused.exception.status, VerificationStatus.INVALID_APP_IDENTIFIER)


if __name__ == "__main__":
    unittest.main()
