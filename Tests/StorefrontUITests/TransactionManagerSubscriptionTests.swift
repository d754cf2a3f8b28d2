import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// The Transaction Manager's subscription commands: one row per subscription, the keys that
/// renew, expire, cancel (or turn auto-renew back on) and set or resolve a billing issue, and
/// what each result says.
@Suite struct TransactionManagerSubscriptionTests {
    static let monthly = "com.storefront.demo.premium.monthly"
    static let pro = "com.storefront.demo.pro"
    static let hour: TimeInterval = 3_600

    /// A period of the monthly subscription: transaction `id` of the subscription `original`.
    static func period(_ id: String, original: String = "20", startingAfter hours: Double) -> Transaction {
        let start = Fixtures.start.addingTimeInterval(hours * hour)
        return Transaction(
            transactionID: id, originalTransactionID: original, productID: monthly, productType: .autoRenewable,
            payment: Payment(productID: monthly), state: .purchased, purchaseDate: start,
            originalPurchaseDate: Fixtures.start, expiresDate: start.addingTimeInterval(hour))
    }

    static func subscription(
        latest: String = "22", phase: ManagedSubscription.Phase, willAutoRenew: Bool = true, billingIssue: Bool = false
    ) -> ManagedSubscription {
        ManagedSubscription(
            originalTransactionID: "20", latestTransactionID: latest, productID: monthly, phase: phase,
            willAutoRenew: willAutoRenew, hasBillingIssue: billingIssue)
    }

    /// The Transaction Manager open on a subscription renewed twice (20, 21, 22) and an older
    /// non-consumable (10), with the subscription as `subscription` says.
    static func managing(_ subscription: ManagedSubscription, japanese: Bool = false) -> State {
        var state = Fixtures.loaded(japanese: japanese)
        send(&state, .key(.character("t")))
        let pro = Transaction(
            transactionID: "10", productID: pro, productType: .nonConsumable, payment: Payment(productID: pro),
            state: .purchased, purchaseDate: Fixtures.start.addingTimeInterval(-hour))
        // Newest first, as the engine's history comes.
        let history = [
            period("22", startingAfter: 2), period("21", startingAfter: 1), period("20", startingAfter: 0), pro,
        ]
        send(
            &state, .purchasesLoaded(.success(PurchasesSnapshot(transactions: history, subscriptions: [subscription]))))
        return state
    }

    @Test func aSubscriptionIsOneRowItsLatestTransactionAndARenewalDoesNotMoveIt() {
        var state = Self.managing(
            Self.subscription(phase: .active(until: Fixtures.start.addingTimeInterval(3 * Self.hour))))
        #expect(TransactionManagerFeature.rows(state.purchases).map(\.transactionID) == ["22", "10"])
        // A renewal arrives (23 is now the newest transaction): the row stays first, now 23.
        let renewed = [Self.period("23", startingAfter: 3)] + state.purchases.transactions
        var snapshot = state.purchases
        snapshot.transactions = renewed
        send(&state, .purchasesLoaded(.success(snapshot)))
        #expect(TransactionManagerFeature.rows(state.purchases).map(\.transactionID) == ["23", "10"])
    }

    @Test func keysRunTheSubscriptionCommandsAndToggleFromWhereItStands() {
        let until = Fixtures.start.addingTimeInterval(3 * Self.hour)
        var state = Self.managing(Self.subscription(phase: .active(until: until)))
        #expect(send(&state, .key(.character("n"))) == [.subscriptionCommand(.renew, transactionID: "22")])
        // Expiring and refunding cannot be undone: each asks first.
        #expect(send(&state, .key(.character("x"))) == [])
        #expect(send(&state, .key(.character("y"))) == [.subscriptionCommand(.expire, transactionID: "22")])
        #expect(
            send(&state, .key(.character("c"))) == [.subscriptionCommand(.setAutoRenew(on: false), transactionID: "22")]
        )
        #expect(
            send(&state, .key(.character("b"))) == [
                .subscriptionCommand(.setBillingIssue(on: true), transactionID: "22")
            ])
        #expect(send(&state, .key(.character("f"))) == [])
        #expect(send(&state, .key(.character("y"))) == [.transactionCommand(.refund, transactionID: "22")])

        // Cancelled, with a billing issue: c turns auto-renew back on, b resolves.
        state = Self.managing(Self.subscription(phase: .active(until: until), willAutoRenew: false, billingIssue: true))
        #expect(
            send(&state, .key(.character("c"))) == [.subscriptionCommand(.setAutoRenew(on: true), transactionID: "22")])
        #expect(
            send(&state, .key(.character("b"))) == [
                .subscriptionCommand(.setBillingIssue(on: false), transactionID: "22")
            ])
    }

    @Test func priceIncreaseKeysAnnounceAndAnswerBesideTheRefundKeys() {
        var state = Self.managing(
            Self.subscription(phase: .active(until: Fixtures.start.addingTimeInterval(3 * Self.hour))))
        for (key, accept) in [("p", nil), ("+", true), ("-", false)] as [(Character, Bool?)] {
            #expect(
                send(&state, .key(.character(key))) == [
                    .transactionCommand(.priceIncrease(accept: accept), transactionID: "22")
                ])
        }
        #expect(
            send(&state, .transactionManager(.commandFinished(.priceIncrease(accept: nil), .success("22"))))
                == [.loadPurchases])
        #expect(state.message?.text == "Price increase announced for 22; + accepts, - declines")
        send(&state, .transactionManager(.commandFinished(.priceIncrease(accept: true), .success("22"))))
        #expect(state.message?.text == "The customer accepted the price increase for 22")
        send(&state, .transactionManager(.commandFinished(.priceIncrease(accept: false), .success("22"))))
        #expect(
            state.message?.text == "The customer declined the price increase for 22: it expires at its renewal date")
        send(
            &state,
            .transactionManager(.commandFinished(.priceIncrease(accept: true), .failure(.systemError("no"))))
        )
        #expect(state.message?.kind == .error)
    }

    @Test func subscriptionKeysOnAnotherPurchaseSayWhyNothingHappens() {
        var state = Self.managing(Self.subscription(phase: .active(until: Fixtures.start)))
        send(&state, .key(.down))
        for key in "nxcbp+-" {
            #expect(send(&state, .key(.character(key))) == [])
            #expect(state.message?.text == "Pro Unlock is not an auto-renewable subscription")
            #expect(state.message?.kind == .error)
        }
        send(&state, .key(.character("f")))
        #expect(send(&state, .key(.enter)) == [.transactionCommand(.refund, transactionID: "10")])
    }

    @Test func eachResultSaysWhatHappenedAndReloads() {
        let until = Fixtures.start.addingTimeInterval(30 * 60)
        var state = Self.managing(Self.subscription(phase: .active(until: until)))
        func result(
            _ command: SubscriptionCommand, _ subscription: ManagedSubscription
        ) -> (String?, StatusMessage.Kind?) {
            #expect(
                send(&state, .transactionManager(.subscriptionCommandFinished(command, .success(subscription)))) == [
                    .loadPurchases
                ])
            return (state.message?.text, state.message?.kind)
        }
        #expect(
            result(.renew, Self.subscription(latest: "23", phase: .active(until: until)))
                == ("Renewed Premium Monthly: transaction 23", .success))
        // While billing fails the renewal fails, and says so as an error.
        #expect(
            result(.renew, Self.subscription(phase: .gracePeriod(until: until)))
                == ("Renewal of Premium Monthly failed (billing issue): grace period until 00:30:00", .error))
        #expect(
            result(.renew, Self.subscription(phase: .billingRetry(since: Fixtures.start)))
                == ("Renewal of Premium Monthly failed (billing issue): in billing retry", .error))
        #expect(
            result(.expire, Self.subscription(phase: .expired(at: Fixtures.start)))
                == ("Expired Premium Monthly now", .success))
        #expect(
            result(
                .setAutoRenew(on: false),
                Self.subscription(phase: .active(until: until), willAutoRenew: false))
                == ("Cancelled Premium Monthly: access until 00:30:00", .success))
        #expect(
            result(.setAutoRenew(on: true), Self.subscription(phase: .active(until: until)))
                == ("Auto-renew is on for Premium Monthly", .success))
        #expect(
            result(
                .setBillingIssue(on: true),
                Self.subscription(phase: .active(until: until), billingIssue: true))
                == ("Billing issue on for Premium Monthly: its renewals fail", .success))
        #expect(
            result(
                .setBillingIssue(on: false),
                Self.subscription(latest: "23", phase: .active(until: until)))
                == ("Billing issue resolved for Premium Monthly", .success))

        send(
            &state,
            .transactionManager(
                .subscriptionCommandFinished(
                    .renew, .failure(.systemError("The subscription 22 is expired")))))
        #expect(state.message?.kind == .error)
        #expect(state.eventLog.entries.last?.text.contains("The subscription 22 is expired") == true)
    }

    /// QA: n on a subscription whose price increase was declined ended it, and the status line
    /// said "Renewed …": a renewal that ends in expiry says so, as the error it is.
    @Test func aRenewalThatEndsInExpirySaysItExpired() {
        var state = Self.managing(
            Self.subscription(phase: .active(until: Fixtures.start.addingTimeInterval(Self.hour))))
        send(
            &state,
            .transactionManager(
                .subscriptionCommandFinished(
                    .renew, .success(Self.subscription(phase: .expired(at: Fixtures.start))))))
        let text = state.message?.text ?? ""
        #expect(text.hasPrefix("Premium Monthly expired instead of renewing"), "\(text)")
        #expect(!text.contains("Renewed"))
        #expect(state.message?.kind == .error)
        var lapsed = Self.subscription(phase: .expired(at: Fixtures.start))
        lapsed.expirationIntent = .priceIncrease
        send(&state, .transactionManager(.subscriptionCommandFinished(.renew, .success(lapsed))))
        #expect(
            state.message?.text
                == "Premium Monthly expired instead of renewing: the customer did not consent to the price increase")
    }

    /// QA: after - (the customer declines a price increase) the row still read "Renews".
    @Test func aPriceIncreaseWithoutConsentShowsOnTheRowAsWontRenew() {
        let until = Fixtures.start.addingTimeInterval(Self.hour)
        for (consent, label) in [
            (ManagedSubscription.PriceConsent.declined, "Won't renew (price increase declined), ends"),
            (.pending, "Price increase awaiting consent, ends"), (.accepted, "Renews"),
        ] {
            var subscription = Self.subscription(phase: .active(until: until))
            subscription.priceConsent = consent
            let row = render(Self.managing(subscription)).lines.first {
                $0.contains("22") && $0.contains("Premium Monthly")
            }
            #expect(row?.contains(label) == true, "\(consent): \(row ?? "")")
            #expect(subscription.renews == (consent == .accepted))
        }
    }

    /// Whatever the store answers a renewal with, a refusal included, shows as an error in the
    /// status line, in the store's words.
    @Test func aRefusedRenewalShowsTheStoresAnswer() {
        var state = Self.managing(
            Self.subscription(phase: .active(until: Fixtures.start.addingTimeInterval(Self.hour)), willAutoRenew: false)
        )
        send(
            &state,
            .transactionManager(
                .subscriptionCommandFinished(
                    .renew,
                    .failure(.systemError("the subscription 22 is cancelled, not one that renews")))))
        #expect(state.message?.kind == .error)
        #expect(state.message?.text.contains("the subscription 22 is cancelled, not one that renews") == true)
    }

    @Test func theRowShowsWhereTheSubscriptionStandsAndTheFooterItsKeys() {
        let until = Fixtures.start.addingTimeInterval(30 * 60)
        let cases: [(ManagedSubscription, String, String)] = [
            (Self.subscription(phase: .active(until: until)), "Renews  ", "00:30:00"),
            (Self.subscription(phase: .active(until: until), willAutoRenew: false), "Auto-renew off, ends", "00:30:00"),
            (Self.subscription(phase: .active(until: until), billingIssue: true), "Billing issue, renews", "00:30:00"),
            (
                Self.subscription(phase: .gracePeriod(until: until), billingIssue: true), "Grace period until",
                "00:30:00"
            ),
            (
                Self.subscription(phase: .billingRetry(since: Fixtures.start), billingIssue: true),
                "Billing retry since", "00:00:00"
            ),
            (Self.subscription(phase: .expired(at: Fixtures.start)), "Expired  ", "00:00:00"),
        ]
        for (subscription, expected, date) in cases {
            let lines = render(Self.managing(subscription)).lines
            #expect(
                lines.contains {
                    $0.contains("22") && $0.contains("Premium Monthly") && $0.contains(expected) && $0.contains(date)
                },
                "\(expected)")
            // The keys, on the window's last rows.
            let footer = lines.filter { $0.contains("Renew ·") || $0.contains("Refund") || $0.contains("Esc") }.joined(
                separator: " · ")
            if subscription.hasEnded {
                #expect(
                    !footer.contains("n Renew") && footer.contains("f Refund") && footer.contains("Esc"),
                    "an ended subscription: \(footer)")
                continue
            }
            #expect(footer.contains("n Renew · x Expire"), "\(footer)")
            #expect(footer.contains(subscription.willAutoRenew ? "c Cancel" : "c Auto-renew on"), "\(footer)")
            let failing = subscription.hasBillingIssue || subscription.isInBillingRetry
            #expect(footer.contains(failing ? "b Resolve billing issue" : "b Billing issue"), "\(footer)")
        }
    }

    /// In billing retry because of the store's setting (no billing issue of its own), b resolves.
    @Test func bResolvesABillingFailureTheSettingCaused() {
        var state = Self.managing(Self.subscription(phase: .billingRetry(since: Fixtures.start)))
        #expect(
            send(&state, .key(.character("b"))) == [
                .subscriptionCommand(.setBillingIssue(on: false), transactionID: "22")
            ])
    }

    @Test func aScheduledDowngradeShowsOnTheRow() {
        let until = Fixtures.start.addingTimeInterval(30 * 60)
        let downgrading = ManagedSubscription(
            originalTransactionID: "20", latestTransactionID: "22", productID: Self.monthly,
            nextProductID: "com.storefront.demo.premium.yearly", phase: .active(until: until), willAutoRenew: true,
            hasBillingIssue: false)
        let lines = render(Self.managing(downgrading)).lines
        #expect(lines.contains { $0.contains("Premium Monthly →") }, "\(lines.joined(separator: "\n"))")
    }

    @Test func anInterruptedPurchaseSaysSoNotAskToBuy() {
        var state = Fixtures.loaded(width: 120, height: 40)
        send(&state, .key(.enter), .key(.enter))
        send(&state, .buySheet(.finished(productID: "com.storefront.demo.coins.100", .success(.interrupted))))
        #expect(state.message?.text == "100 Coins was interrupted: resolve it in the Transaction Manager (t, then i)")
        var pending = Fixtures.transaction("30", "com.storefront.demo.coins.100", .consumable, state: .deferred)
        pending.error = .interrupted
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(pending: [pending]))))
        let list = render(state).lines
        #expect(list.contains { $0.contains("100 Coins") && $0.contains("Interrupted") })
        #expect(!list.contains { $0.contains("Waiting for approval") })
    }

    @Test func myPurchasesHistoryLabelsScrollsAndSaysWhatIsEmpty() {
        var state = Fixtures.loaded(width: 120, height: 40)
        var upgraded = Self.period("20", startingAfter: -3)
        upgraded.isUpgraded = true
        let expired = Self.period("21", startingAfter: -2)
        var restored = Fixtures.transaction("23", Self.pro, .nonConsumable, state: .restored)
        restored.purchaseDate = Fixtures.start
        let many = (100..<160).map { Fixtures.transaction(String($0), "com.storefront.demo.coins.100", .consumable) }
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(transactions: [restored, expired, upgraded] + many))))
        send(&state, .key(.character("p")))
        let lines = render(state).lines
        #expect(lines.contains { $0.contains("20 ") && $0.contains("Upgraded") })
        #expect(lines.contains { $0.contains("21 ") && $0.contains("Expired") })
        #expect(lines.contains { $0.contains("23 ") && $0.contains("Restored") })
        send(&state, .key(.end))
        #expect(state.modal == .purchases && state.myPurchases.tab == 0 && state.myPurchases.selected == 62)
        #expect(render(state).lines.contains { $0.contains("159 ") }, "the last row scrolls into view")
        send(&state, .key(.home))
        #expect(state.modal == .purchases && state.myPurchases.tab == 0 && state.myPurchases.selected == 0)
        send(&state, .key(.tab))
        #expect(render(state).lines.contains { $0.contains("No balances") })
        send(&state, .key(.tab))
        #expect(render(state).lines.contains { $0.contains("No subscriptions") })
    }

    @Test func theIntroductoryOfferShowsOnlyWhileTheAccountIsEligible() {
        var state = Fixtures.loaded(width: 120, height: 40)
        state.catalog.selectedRow =
            state.catalog.listing.rows.firstIndex { row in
                if case .product(let index) = row { state.catalog.products?[index].id == Self.monthly } else { false }
            } ?? 0
        #expect(state.catalog.selectedProduct?.id == Self.monthly)
        send(&state, .key(.enter))
        #expect(
            render(state).lines.filter { $0.contains("1 week free, then $4.99/month") }.count == 2,
            "eligible: the sheet shows the trial (and the detail pane beneath it)")
        send(&state, .key(.escape))

        var bought = Self.period("20", startingAfter: 0)
        bought.subscriptionGroupID = "21000001"
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(transactions: [bought]))))
        #expect(render(state).lines.contains { $0.contains("— not eligible") })
        send(&state, .key(.enter))
        #expect(
            state.modal == .confirm
                && state.buySheet.confirmation == BuySheetFeature.Confirmation(productID: Self.monthly))
        #expect(
            render(state).lines.filter { $0.contains("1 week free, then") }.count == 1,
            "the detail pane's line only: the sheet shows no trial")
    }

    @Test func theListAndMyPurchasesSayGraceAndBillingRetryNotExpired() {
        let periodEnd = Fixtures.start.addingTimeInterval(-60)
        let graceEnd = Fixtures.start.addingTimeInterval(20 * 60)
        for (phase, expected) in [
            (ManagedSubscription.Phase.gracePeriod(until: graceEnd), "Grace until 00:20:00"),
            (.billingRetry(since: periodEnd), "Billing retry"),
        ] {
            var state = Fixtures.loaded(width: 120, height: 40)
            // In grace the entitlement's period has ended: its date is in the past.
            let entitled: [String: Date] = if case .gracePeriod = phase { [Self.monthly: periodEnd] } else { [:] }
            send(
                &state,
                .purchasesLoaded(
                    .success(
                        PurchasesSnapshot(
                            activeUntil: entitled, subscriptions: [Self.subscription(phase: phase, billingIssue: true)])
                    )))
            let list = render(state).lines
            #expect(list.contains { $0.contains("Premium Monthly") && $0.contains(expected) }, "\(expected)")
            #expect(!list.contains { $0.contains("Expired") })
            send(&state, .key(.character("p")), .key(.tab), .key(.tab))
            #expect(state.modal == .purchases && state.myPurchases.tab == 2 && state.myPurchases.selected == 0)
            #expect(
                render(state).lines.contains { $0.contains("Premium Monthly") && $0.contains(expected) },
                "My Purchases: \(expected)")
        }
    }
}
