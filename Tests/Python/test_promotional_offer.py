"""Apple's own signature creator signs promotional offers the local App Store takes.

`PromotionalOfferSignatureCreator` (app-store-server-library, pinned in scripts/python-venv)
signs with the store's subscription key (`storefront store sign-offer --json` names its file
and key ID); `storefront buy --offer ... --signature` must take the offer once, carry the app
account token into the signed transaction that Apple's `SignedDataVerifier` decodes, and refuse
the same nonce again and a signature for another product.
"""
import time
import unittest
import uuid

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.OfferType import OfferType
from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

from storefront import PRO, Store

BASIC = "com.storefront.demo.premium.basic.monthly"
COMEBACK = "com.storefront.demo.premium.pro.comeback"
TOKEN = "8C1A7A6F-2C5E-4E0B-9F3D-1B2A3C4D5E6F"


class PromotionalOfferTests(unittest.TestCase):
    def setUp(self):
        self.store = Store()
        self.store.buy(BASIC)
        made = self.store.run("store", "sign-offer", PRO, COMEBACK, json_output=True)
        with open(made["keyFile"], "rb") as file:
            self.creator = PromotionalOfferSignatureCreator(file.read(), made["keyID"], "com.storefront.demo")
        self.key_id = made["keyID"]

    def tearDown(self):
        self.store.remove()

    def buy(self, product, nonce, timestamp, signature, check=True):
        return self.store.run(
            "buy", PRO, "--offer", COMEBACK, "--app-account-token", TOKEN, "--key-id", self.key_id,
            "--nonce", str(nonce), "--timestamp", str(timestamp), "--signature", signature,
            json_output=True, check=check)

    def test_apples_signature_is_taken_once_and_the_token_reaches_the_transaction(self):
        nonce = uuid.uuid4()
        timestamp = int(time.time() * 1000)
        signature = self.creator.create_signature(PRO, COMEBACK, TOKEN, nonce, timestamp)
        bought = self.buy(PRO, nonce, timestamp, signature)
        self.assertEqual(bought["state"], "purchased", bought)
        items = self.store.signed()
        with open(items["rootCertificate"], "rb") as file:
            root = file.read()
        check = SignedDataVerifier([root], False, Environment.SANDBOX, items["bundleId"], None)
        signed = next(t for t in items["transactions"] if t["transactionId"] == bought["transactionID"])
        decoded = check.verify_and_decode_signed_transaction(signed["signedTransaction"])
        self.assertEqual(decoded.appAccountToken, TOKEN.lower())
        self.assertEqual(decoded.offerIdentifier, COMEBACK)
        self.assertEqual(decoded.offerType, OfferType.PROMOTIONAL_OFFER)
        again = self.buy(PRO, nonce, timestamp, signature, check=False)
        self.assertEqual(again["state"], "failed")
        self.assertIn("used already", again["error"])

    def test_a_signature_for_another_product_is_refused(self):
        nonce = uuid.uuid4()
        timestamp = int(time.time() * 1000)
        signature = self.creator.create_signature(BASIC, COMEBACK, TOKEN, nonce, timestamp)
        refused = self.buy(PRO, nonce, timestamp, signature, check=False)
        self.assertEqual(refused["state"], "failed")
        self.assertIn("signature is invalid", refused["error"])


if __name__ == "__main__":
    unittest.main()
