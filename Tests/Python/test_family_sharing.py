"""Family Sharing through Apple's own code: a purchase shared with a family member made through
the CLI (`store family add`), served by `storefront serve` and judged by Apple's client and
`SignedDataVerifier`: the member's transactions are its own (`FAMILY_SHARED`), the history
filter by `inAppOwnershipType` and the subscription statuses answer for it (its renewal info the
purchaser's under its own ID, without the purchaser's app account token), and ending the share
revokes it (`REVOKE`, revocation reason 0, `FAMILY_REVOKE`) while the purchaser keeps theirs."""
import unittest

from appstoreserverlibrary.api_client import GetTransactionHistoryVersion
from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.RevocationReason import RevocationReason
from appstoreserverlibrary.models.RevocationType import RevocationType
from appstoreserverlibrary.models.TransactionHistoryRequest import TransactionHistoryRequest

from test_notifications import Scenario

PRO = "com.storefront.demo.premium.pro.monthly"
REMOVE_ADS = "com.storefront.demo.removeads"


class FamilySharingTests(unittest.TestCase):
    def test_a_members_shared_purchases_are_signed_served_and_revoked(self):
        s = Scenario()
        self.addCleanup(s.close)
        s.run("store", "family", "add", "bob", "--name", "Bob")
        ads = s.buy(REMOVE_ADS)
        token = "7f0b5a0e-3c1d-4b6e-9a8f-2d4c6e8a0b1c"
        pro = s.store.json("buy", PRO, "--app-account-token", token)["transaction"]["transactionID"]
        s.expect(self, ["ONE_TIME_CHARGE", "SUBSCRIBED/INITIAL_BUY"])
        verify = s.receiver.verifier
        client = s.store.client()

        # Bob's app takes its shared transactions: its own IDs, FAMILY_SHARED.
        bobs = {t["productID"]: t for t in s.store.json("history", "--account", "bob")["transactions"]}
        self.assertEqual(set(bobs), {REMOVE_ADS, PRO})
        bob_ads, bob_pro = bobs[REMOVE_ADS]["transactionID"], bobs[PRO]["transactionID"]
        self.assertNotIn(bob_ads, (ads, pro))

        shared = client.get_transaction_history(
            bob_ads, None, TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType.FAMILY_SHARED),
            GetTransactionHistoryVersion.V2)
        decoded = [verify.verify_and_decode_signed_transaction(jws) for jws in shared.signedTransactions]
        self.assertEqual([t.transactionId for t in decoded], [bob_ads, bob_pro])
        self.assertTrue(all(t.inAppOwnershipType == InAppOwnershipType.FAMILY_SHARED for t in decoded))
        self.assertEqual(decoded[0].originalTransactionId, bob_ads)
        self.assertEqual(decoded[1].expiresDate, verify.verify_and_decode_signed_transaction(
            client.get_transaction_info(pro).signedTransactionInfo).expiresDate)
        purchaser = client.get_transaction_history(
            ads, None, TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType.FAMILY_SHARED),
            GetTransactionHistoryVersion.V2)
        self.assertEqual(purchaser.signedTransactions, [])
        own = client.get_transaction_history(
            ads, None, TransactionHistoryRequest(inAppOwnershipType=InAppOwnershipType.PURCHASED),
            GetTransactionHistoryVersion.V2)
        self.assertEqual([verify.verify_and_decode_signed_transaction(j).transactionId for j in own.signedTransactions],
                         [ads, pro])

        statuses = client.get_all_subscription_statuses(bob_pro)
        last = statuses.data[0].lastTransactions[0]
        self.assertEqual(last.originalTransactionId, bob_pro)
        self.assertEqual(verify.verify_and_decode_signed_transaction(last.signedTransactionInfo).inAppOwnershipType,
                         InAppOwnershipType.FAMILY_SHARED)
        # Bob's renewal info is the purchaser's under Bob's own ID, without the purchaser's token.
        bobs_renewal = verify.verify_and_decode_renewal_info(last.signedRenewalInfo)
        self.assertEqual(bobs_renewal.originalTransactionId, bob_pro)
        self.assertEqual(bobs_renewal.autoRenewProductId, PRO)
        self.assertIsNone(bobs_renewal.appAccountToken)
        purchasers = client.get_all_subscription_statuses(pro).data[0].lastTransactions[0]
        purchasers_renewal = verify.verify_and_decode_renewal_info(purchasers.signedRenewalInfo)
        self.assertEqual(purchasers_renewal.originalTransactionId, pro)
        self.assertEqual(purchasers_renewal.appAccountToken, token)
        self.assertEqual(purchasers_renewal.autoRenewStatus, bobs_renewal.autoRenewStatus)

        # The purchaser stops sharing the non-consumable: Bob's transaction is revoked.
        s.run("store", "family", "share", REMOVE_ADS, "off")
        received = s.expect(self, ["ONE_TIME_CHARGE", "SUBSCRIBED/INITIAL_BUY", "REVOKE"])
        revoke = verify.verify_and_decode_signed_transaction(received[2].data.signedTransactionInfo)
        self.assertEqual(revoke.transactionId, bob_ads)
        self.assertEqual(revoke.inAppOwnershipType, InAppOwnershipType.FAMILY_SHARED)
        revoked = verify.verify_and_decode_signed_transaction(client.get_transaction_info(bob_ads).signedTransactionInfo)
        self.assertEqual(revoked.revocationReason, RevocationReason.REFUNDED_FOR_OTHER_REASON)
        self.assertEqual(revoked.revocationType, RevocationType.FAMILY_REVOKE)
        self.assertIsNotNone(revoked.revocationDate)
        kept = verify.verify_and_decode_signed_transaction(client.get_transaction_info(ads).signedTransactionInfo)
        self.assertIsNone(kept.revocationDate)
        self.assertEqual(kept.inAppOwnershipType, InAppOwnershipType.PURCHASED)

        now = received[2].signedDate
        history = client.get_notification_history(None, NotificationHistoryRequest(
            startDate=now - 3_600_000, endDate=now + 3_600_000, transactionId=bob_ads))
        self.assertEqual([verify.verify_and_decode_notification(n.signedPayload).notificationType
                          for n in history.notificationHistory], [NotificationTypeV2.REVOKE])
