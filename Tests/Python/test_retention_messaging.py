"""Retention messaging end to end, judged by Apple's library: a customer who begins to cancel
(`storefront cancel`, the customer's own path) makes the store POST Apple's signed realtime
request to the developer's endpoint, which `SignedDataVerifier.verify_and_decode_realtime_request`
accepts; the answer (a message, a switch-plan message, a promotional offer signed by Apple's
`PromotionalOfferSignatureCreator`) is shown, and the customer's choice acts through the engine
and shows on the server (the auto-renew status, the offer's transaction, the product change).
An answer that fails, is late or is not Apple's falls back to the default message."""
import json
import threading
import time
import unittest
import uuid

from appstoreserverlibrary.models.AlternateProduct import AlternateProduct
from appstoreserverlibrary.models.AutoRenewStatus import AutoRenewStatus
from appstoreserverlibrary.models.DefaultConfigurationRequest import DefaultConfigurationRequest
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.Message import Message
from appstoreserverlibrary.models.OfferType import OfferType
from appstoreserverlibrary.models.PromotionalOffer import PromotionalOffer
from appstoreserverlibrary.models.PromotionalOfferSignatureV1 import PromotionalOfferSignatureV1
from appstoreserverlibrary.models.RealtimeResponseBody import RealtimeResponseBody
from appstoreserverlibrary.models.RealtimeUrlRequest import RealtimeUrlRequest
from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody
from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator

from notification_receiver import verifier_for
from retention_endpoint import RealtimeEndpoint
from storefront import BASIC, PRO
from test_notifications import Scenario

COMEBACK = "com.storefront.demo.premium.pro.comeback"
TOKEN = "8c1a7a6f-2c5e-4e0b-9f3d-1b2a3c4d5e6f"


class RetentionScenario:
    """A served store with a Basic subscription, a text message and a default message, and the
    developer's endpoint configured as the realtime URL."""

    def __init__(self, test):
        # Answers have a generous time (a test that wants one late lowers it): however loaded the
        # machine, only an endpoint that hangs on purpose is late.
        self.scenario = Scenario(settings=[("realtime-timeout", "30000")])
        test.addCleanup(self.scenario.close)
        self.store = self.scenario.store
        self.client = self.store.client()
        self.verifier = self.scenario.receiver.verifier
        # Offline checks: an online one (OCSP) of the first request would outlast the 700 ms.
        self.endpoint = RealtimeEndpoint(verifier_for(self.store, Environment.SANDBOX, online=False))
        test.addCleanup(self.endpoint.close)
        self.original = self.scenario.buy(BASIC)
        self.message = uuid.uuid4()
        self.fallback = uuid.uuid4()
        self.client.upload_message(self.message, UploadMessageRequestBody(header="Stay a while", body="Your plan keeps every level."))
        self.client.upload_message(self.fallback, UploadMessageRequestBody(header="We'd miss you", body="Come back any time."))
        self.client.configure_default_message(BASIC, "en-US", DefaultConfigurationRequest(messageIdentifier=self.fallback))
        self.client.configure_realtime_url(RealtimeUrlRequest(realtimeURL=self.endpoint.url))

    def cancel(self, *arguments):
        return self.store.json("cancel", BASIC, *arguments)

    def renewal(self):
        status = self.client.get_all_subscription_statuses(self.original)
        item = status.data[0].lastTransactions[0]
        return self.verifier.verify_and_decode_renewal_info(item.signedRenewalInfo)


class RealtimeFlowTests(unittest.TestCase):
    def test_the_customers_cancel_asks_the_endpoint_and_each_choice_shows_on_the_server(self):
        s = RetentionScenario(self)
        store, client, verifier = s.store, s.client, s.verifier

        # A text message, then the customer cancels anyway.
        s.endpoint.answer = RealtimeResponseBody(message=Message(messageIdentifier=s.message))
        cancelled = s.cancel()
        self.assertEqual(s.endpoint.failures, [])
        request = s.endpoint.requests[-1]
        self.assertEqual((request.originalTransactionId, request.productId, request.userLocale),
                         (s.original, BASIC, "en-US"))
        self.assertEqual(request.environment, Environment.SANDBOX)
        self.assertEqual(str(request.requestIdentifier), cancelled["retention"]["requestIdentifier"])
        self.assertEqual(cancelled["retention"]["shown"], "message")
        self.assertEqual(cancelled["retention"]["message"]["header"], "Stay a while")
        self.assertEqual(cancelled["choice"], "cancel")
        self.assertEqual(s.renewal().autoRenewStatus, AutoRenewStatus.OFF)
        store.run("store", "cancel", s.original, "--undo")
        self.assertEqual(s.renewal().autoRenewStatus, AutoRenewStatus.ON)

        # A promotional offer on another tier, signed with Apple's creator: taking it upgrades now.
        made = store.json("store", "sign-offer", PRO, COMEBACK)
        with open(made["keyFile"], "rb") as key:
            creator = PromotionalOfferSignatureCreator(key.read(), made["keyID"], "com.storefront.demo")
        nonce, timestamp = uuid.uuid4(), int(time.time() * 1000)
        s.endpoint.answer = RealtimeResponseBody(promotionalOffer=PromotionalOffer(
            messageIdentifier=s.message, promotionalOfferSignatureV1=PromotionalOfferSignatureV1(
                encodedSignature=creator.create_signature(PRO, COMEBACK, TOKEN, nonce, timestamp), productId=PRO,
                nonce=nonce, timestamp=timestamp, keyId=made["keyID"], offerIdentifier=COMEBACK,
                appAccountToken=uuid.UUID(TOKEN))))
        offered = s.cancel("--choice", "offer")
        self.assertEqual(offered["retention"]["shown"], "promotionalOffer", offered)
        self.assertEqual(offered["retention"]["promotionalOffer"], {"productID": PRO, "offerID": COMEBACK})
        taken = offered["transaction"]["transactionID"]
        info = verifier.verify_and_decode_signed_transaction(client.get_transaction_info(taken).signedTransactionInfo)
        self.assertEqual((info.productId, info.offerIdentifier, info.offerType, info.appAccountToken),
                         (PRO, COMEBACK, OfferType.PROMOTIONAL_OFFER, TOKEN))
        self.assertEqual(info.originalTransactionId, s.original)

        # A switch-plan message suggesting Basic again: the product change waits for the renewal.
        s.endpoint.answer = RealtimeResponseBody(alternateProduct=AlternateProduct(messageIdentifier=s.message, productId=BASIC))
        switched = s.store.json("cancel", PRO, "--choice", "switch")
        self.assertEqual(switched["retention"]["alternateProductID"], BASIC)
        self.assertEqual(s.renewal().autoRenewProductId, BASIC)
        self.assertEqual(s.renewal().autoRenewStatus, AutoRenewStatus.ON)

        log = store.json("store", "retention-log")
        self.assertEqual([(e["shown"], e["choice"]) for e in log],
                         [("message", "cancel"), ("promotionalOffer", "offer"), ("alternateProduct", "switch")])
        self.assertEqual(log[1]["choiceTransactionID"], taken)
        self.assertTrue(all(e["status"] == 200 and e["url"] == s.endpoint.url for e in log))
        self.assertEqual(len(s.endpoint.requests), 3)

    def test_answers_that_fail_are_late_or_are_not_apples_fall_back_to_the_default_message(self):
        s = RetentionScenario(self)
        answers = {
            "500": lambda request: (500, b"{}"),
            "garbage": lambda request: (200, b"<html>not json</html>"),
            "pending": lambda request: (200, json.dumps({"message": {"messageIdentifier": str(uuid.uuid4())}}).encode()),
        }
        for name, answer in answers.items():
            s.endpoint.answer = answer
            shown = s.cancel("--choice", "cancel")["retention"]
            self.assertEqual(shown["shown"], "defaultMessage", name)
            self.assertEqual(shown["message"]["messageIdentifier"], str(s.fallback), name)
            self.assertIsNotNone(shown["fallbackReason"], name)
            s.store.run("store", "cancel", s.original, "--undo")
        # An endpoint that never answers in time: the customer still gets the sheet, within the timeout.
        s.endpoint.answer = RealtimeResponseBody(message=Message(messageIdentifier=s.message))
        s.endpoint.hold = threading.Event()
        s.store.run("store", "set", "realtime-timeout", "300")
        late = s.cancel("--choice", "cancel")["retention"]
        s.endpoint.hold.set()
        self.assertEqual(late["shown"], "defaultMessage")
        self.assertTrue(late["fallbackReason"].startswith("no answer within the realtime timeout"), late)
        log = s.store.json("store", "retention-log")
        self.assertEqual([e["result"] for e in log], ["UNSUCCESSFUL_HTTP_RESPONSE_CODE", "SUCCESS", "SUCCESS", "TIMED_OUT"])
        self.assertEqual(s.endpoint.failures, [])


if __name__ == "__main__":
    unittest.main()
