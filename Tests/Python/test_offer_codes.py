"""Offer codes on every product type, judged by Apple's library: codes for the Demo catalog's
consumable, non-consumable and non-renewing subscription are issued (`storefront store
issue-codes`) and redeemed (`storefront redeem`) through the real CLI; Apple's
`SignedDataVerifier` must accept each signed transaction the store gives and the one
`storefront serve` answers to Apple's `get_transaction_info`, and both must say what Apple's say
for a code: offer type 3, the offer's reference name, `ONE_TIME`, no offer period, the offer's
price."""
import unittest

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.OfferDiscountType import OfferDiscountType
from appstoreserverlibrary.models.OfferType import OfferType
from appstoreserverlibrary.models.Type import Type
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

from storefront import Store

# product, offer (its internalID), reference name, Apple's product type, price in milliunits
CODES = [
    ("com.storefront.demo.coins.550", "C0DE0101", "Code: 550 coins free", Type.CONSUMABLE, 0),
    ("com.storefront.demo.removeads", "C0DE0102", "Code: Remove ads half price", Type.NON_CONSUMABLE, 1990),
    ("com.storefront.demo.seasonpass.winter", "C0DE0103", "Code: Winter pass half price",
     Type.NON_RENEWING_SUBSCRIPTION, 3990),
]


class OfferCodeTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.store = Store()
        cls.redeemed = {}
        for product, offer, _, _, _ in CODES:
            issued = cls.store.run("store", "issue-codes", product, offer, json_output=True)
            assert len(issued) == 1 and issued[0]["productID"] == product, issued
            result = cls.store.run("redeem", issued[0]["code"], json_output=True)
            assert result["state"] == "purchased", result
            cls.redeemed[product] = result["transactionID"]
        cls.items = cls.store.signed()
        cls.root = cls.store.root()
        cls.store.serve()

    @classmethod
    def tearDownClass(cls):
        cls.store.remove()

    def verifier(self):
        return SignedDataVerifier([self.root], False, Environment.SANDBOX, self.items["bundleId"], None)

    def check(self, decoded, product, reference_name, product_type, price):
        self.assertEqual(decoded.productId, product)
        self.assertEqual(decoded.type, product_type)
        self.assertEqual(decoded.offerType, OfferType.OFFER_CODE)
        self.assertEqual(decoded.rawOfferType, 3)
        self.assertEqual(decoded.offerIdentifier, reference_name)
        self.assertEqual(decoded.offerDiscountType, OfferDiscountType.ONE_TIME)
        self.assertIsNone(decoded.offerPeriod)
        self.assertEqual(decoded.price, price)
        self.assertEqual(decoded.currency, "USD")

    def test_each_redeemed_code_is_signed_as_apples_is(self):
        verifier = self.verifier()
        signed = {item["transactionId"]: item["signedTransaction"] for item in self.items["transactions"]}
        for product, _, reference_name, product_type, price in CODES:
            with self.subTest(product=product):
                transaction_id = self.redeemed[product]
                decoded = verifier.verify_and_decode_signed_transaction(signed[transaction_id])
                self.assertEqual(decoded.transactionId, transaction_id)
                self.check(decoded, product, reference_name, product_type, price)

    def test_the_server_answers_each_code_transaction_as_apples_does(self):
        client = self.store.client()
        verifier = self.verifier()
        for product, _, reference_name, product_type, price in CODES:
            with self.subTest(product=product):
                info = client.get_transaction_info(self.redeemed[product])
                decoded = verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo)
                self.assertEqual(decoded.transactionId, self.redeemed[product])
                self.check(decoded, product, reference_name, product_type, price)

    def test_a_code_is_redeemed_once(self):
        codes = self.store.run("store", "codes", json_output=True)
        self.assertEqual(sorted(code["transactionID"] for code in codes), sorted(self.redeemed.values()))
        again = self.store.run("redeem", codes[0]["code"], json_output=True, check=False)
        self.assertEqual(again["state"], "failed")
        self.assertTrue(again["error"].startswith("The customer is not eligible for the offer: the offer code "
                                                  + codes[0]["code"] + " was redeemed already ("), again["error"])


if __name__ == "__main__":
    unittest.main()
