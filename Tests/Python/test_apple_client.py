"""Every public method of Apple's `AppStoreServerAPIClient`, enumerated from the class (not
listed by hand), called against `storefront serve`: each must answer, and what it returns must
decode into the model Apple's method declares, with the values the store holds. A method Apple
adds has no call here yet, so it counts as unanswered and this test fails until it is answered.
Prints 'apple-client: N of M methods answered'."""
import inspect
import unittest
import uuid

from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient, GetTransactionHistoryVersion
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
from appstoreserverlibrary.models.ConsumptionStatus import ConsumptionStatus
from appstoreserverlibrary.models.DefaultConfigurationRequest import DefaultConfigurationRequest
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.DeliveryStatusV1 import DeliveryStatusV1
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.ImageSize import ImageSize
from appstoreserverlibrary.models.ImageState import ImageState
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
from appstoreserverlibrary.models.Message import Message
from appstoreserverlibrary.models.MessageState import MessageState
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.PerformanceTestRequest import PerformanceTestRequest
from appstoreserverlibrary.models.PerformanceTestStatus import PerformanceTestStatus
from appstoreserverlibrary.models.Platform import Platform
from appstoreserverlibrary.models.RealtimeResponseBody import RealtimeResponseBody
from appstoreserverlibrary.models.RealtimeUrlRequest import RealtimeUrlRequest
from appstoreserverlibrary.models.Status import Status
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest
from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
from appstoreserverlibrary.models.UploadMessageImage import UploadMessageImage
from appstoreserverlibrary.models.UploadMessageRequestBody import UploadMessageRequestBody

from notification_receiver import verifier_for
from retention_endpoint import RealtimeEndpoint, png, until
from storefront import BASIC, COINS
from test_notifications import Scenario


def public_methods():
    """The public methods of Apple's client, read from the class."""
    return sorted(name for name, member in inspect.getmembers(AppStoreServerAPIClient, inspect.isfunction)
                  if not name.startswith("_"))


class Recorder:
    """Apple's client, recording each public method that answered (returned without an
    exception) and checking its result is an instance of the model the method declares."""

    def __init__(self, client, test):
        self.client = client
        self.test = test
        self.answered = set()

    def __getattr__(self, name):
        method = getattr(self.client, name)
        if name.startswith("_") or not callable(method):
            return method
        declared = inspect.signature(method).return_annotation

        def call(*arguments, **keywords):
            result = method(*arguments, **keywords)
            if declared is not inspect.Signature.empty and declared is not None:
                self.test.assertIsInstance(result, declared, name)
            self.answered.add(name)
            return result
        return call


class EveryMethodTests(unittest.TestCase):
    def test_every_public_method_of_apples_client_is_answered(self):
        methods = public_methods()
        # A generous realtime timeout: the performance test passes on any machine, however loaded.
        scenario = Scenario(settings=[("realtime-timeout", "30000")])
        self.addCleanup(scenario.close)
        store = scenario.store
        endpoint = RealtimeEndpoint(verifier_for(store, Environment.SANDBOX, online=False))
        self.addCleanup(endpoint.close)
        client = Recorder(store.client(), self)
        verifier = scenario.receiver.verifier

        basic = scenario.buy(BASIC)
        coins = [scenario.buy(COINS) for _ in range(3)]

        # The App Store Server API.
        info = client.get_transaction_info(coins[0])
        self.assertEqual(verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo).transactionId, coins[0])
        app = client.get_app_transaction_info(coins[0])
        self.assertEqual(verifier.verify_and_decode_app_transaction(app.signedAppTransactionInfo).bundleId,
                         "com.storefront.demo")
        history = client.get_transaction_history(coins[0], None, TransactionHistoryRequest(),
                                                 GetTransactionHistoryVersion.V2)
        self.assertEqual(len(history.signedTransactions), 4)
        statuses = client.get_all_subscription_statuses(basic)
        self.assertEqual(statuses.data[0].lastTransactions[0].status, Status.ACTIVE)
        extended = client.extend_subscription_renewal_date(basic, ExtendRenewalDateRequest(
            extendByDays=3, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier=str(uuid.uuid4())))
        self.assertTrue(extended.success)
        mass_id = str(uuid.uuid4())
        mass = client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
            extendByDays=1, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=mass_id,
            productId=BASIC))
        self.assertEqual(mass.requestIdentifier, mass_id)
        self.assertEqual(client.get_status_of_subscription_renewal_date_extensions(mass_id, BASIC).succeededCount, 1)
        order_id = next(t["orderID"] for t in store.json("history")["transactions"] if t["transactionID"] == coins[0])
        self.assertEqual([verifier.verify_and_decode_signed_transaction(t).transactionId
                          for t in client.look_up_order_id(order_id).signedTransactions], [coins[0]])
        store.run("store", "refund", coins[1])
        refunds = client.get_refund_history(coins[0], None)
        self.assertEqual([verifier.verify_and_decode_signed_transaction(t).transactionId
                          for t in refunds.signedTransactions], [coins[1]])
        client.send_consumption_information(coins[2], ConsumptionRequest(
            customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED))
        with self.assertWarns(DeprecationWarning):
            client.send_consumption_data(coins[2], ConsumptionRequestV1(
                customerConsented=True, consumptionStatus=ConsumptionStatus.FULLY_CONSUMED, platform=Platform.APPLE,
                sampleContentProvided=False, deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY,
                appAccountToken="", rawAccountTenure=0, rawPlayTime=0, rawLifetimeDollarsRefunded=0,
                rawLifetimeDollarsPurchased=0, rawUserStatus=0))
        token = str(uuid.uuid4())
        client.set_app_account_token(coins[0], UpdateAppAccountTokenRequest(appAccountToken=token))
        signed = client.get_transaction_info(coins[0]).signedTransactionInfo
        self.assertEqual(verifier.verify_and_decode_signed_transaction(signed).appAccountToken, token)
        client.finish_transaction(coins[0])
        test_token = client.request_test_notification().testNotificationToken
        scenario.receiver.wait_for(1)
        self.assertIsNotNone(until(lambda: client.get_test_notification_status(test_token).sendAttempts))
        now = verifier.verify_and_decode_signed_transaction(signed).signedDate
        notifications = client.get_notification_history(None, NotificationHistoryRequest(
            startDate=now - 3_600_000, endDate=now + 3_600_000))
        self.assertTrue(notifications.notificationHistory)

        # The Retention Messaging API.
        image = uuid.uuid4()
        client.upload_image(image, png(3840, 1080), ImageSize.FULL_SIZE)
        self.assertEqual([(i.imageIdentifier, i.imageState, i.imageSize) for i in client.get_image_list().imageIdentifiers],
                         [(image, ImageState.APPROVED, ImageSize.FULL_SIZE)])
        message = uuid.uuid4()
        client.upload_message(message, UploadMessageRequestBody(
            header="Stay a while", body="Your plan keeps every level unlocked.",
            image=UploadMessageImage(imageIdentifier=image, altText="A forest level")))
        self.assertEqual([(m.messageIdentifier, m.messageState) for m in client.get_message_list().messageIdentifiers],
                         [(message, MessageState.APPROVED)])
        client.configure_default_message(BASIC, "en-US", DefaultConfigurationRequest(messageIdentifier=message))
        self.assertEqual(client.get_default_message(BASIC, "en-US").messageIdentifier, message)
        endpoint.answer = RealtimeResponseBody(message=Message(messageIdentifier=message))
        client.configure_realtime_url(RealtimeUrlRequest(realtimeURL=endpoint.url))
        self.assertEqual(client.get_realtime_url().realtimeURL, endpoint.url)
        started = client.initiate_performance_test(PerformanceTestRequest(originalTransactionId=basic))
        endpoint.wait_for(started.config.totalRequests)
        self.assertEqual(endpoint.failures, [])
        results = until(lambda: (lambda r: r if r.result != PerformanceTestStatus.PENDING else None)(
            client.get_performance_test_results(started.requestId)))
        self.assertEqual(results.result, PerformanceTestStatus.PASS, results)
        self.assertEqual(results.successRate, 100)
        self.assertEqual(results.numPending, 0)
        self.assertEqual(results.target, endpoint.url)
        self.assertEqual(results.config, started.config)
        decoded = endpoint.requests[0]
        self.assertEqual((decoded.originalTransactionId, decoded.productId, decoded.environment),
                         (basic, BASIC, Environment.SANDBOX))
        client.delete_realtime_url()
        with self.assertRaises(APIException) as missing:
            self.client_of(client).get_realtime_url()
        self.assertEqual(missing.exception.raw_api_error, 4040021)
        client.delete_default_message(BASIC, "en-US")
        client.delete_message(message)
        client.delete_image(image)
        self.assertEqual(client.get_image_list().imageIdentifiers, [])

        unanswered = [name for name in methods if name not in client.answered]
        print(f"apple-client: {len(methods) - len(unanswered)} of {len(methods)} methods answered")
        self.assertEqual(unanswered, [], "methods of Apple's client that storefront serve does not answer yet")

    @staticmethod
    def client_of(recorder):
        return recorder.client


if __name__ == "__main__":
    unittest.main()
