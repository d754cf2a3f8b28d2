import Foundation
import LocalAppStore
import Receipts
import StoreCore

/// The App Store's side of a Get Retention Message exchange: when a customer begins to cancel
/// a subscription, it POSTs Apple's signed `RealtimeRequestBody` to the realtime URL of the
/// store's environment, waits at most the `realtime-timeout` setting (Apple's ~700 ms) for the
/// answer, judges it as Apple does (`RealtimeAnswerCheck`, and the offer's signature by the
/// store), and otherwise falls back to the default message for the product and locale, else to
/// none. Every exchange goes in the store's log (`store retention-log`).
///
/// A redirect is not followed: its 3xx is the answer, and a failed one.
public struct RealtimeRetention: Sendable {
    /// Why no retention message can be asked for.
    public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        /// No subscription of the account has this original transaction ID.
        case unknownSubscription(String)
        /// The subscription has ended, or its auto-renew is off already: there is nothing to cancel.
        case notRenewing(String)
        /// The store's state cannot be read.
        case store(String)

        /// What went wrong.
        public var description: String {
            switch self {
            case .unknownSubscription(let id): "No subscription has the original transaction ID \(id)."
            case .notRenewing(let id): "The subscription \(id) does not renew (it ended, or auto-renew is off already)."
            case .store(let why): why
            }
        }
    }

    private let store: LocalAppStore
    private let poster: OutboundPost

    /// Asks on behalf of `store`'s customer, POSTing through `poster` (redirects not followed).
    public init(store: LocalAppStore, poster: OutboundPost = OutboundPost(followsRedirects: false)) {
        self.store = store
        self.poster = poster
    }

    /// What the customer sees on beginning to cancel the subscription `originalTransactionID`.
    /// - Parameter userLocale: the customer's locale as Apple writes it (`en-US`); the store's
    ///   display locale by default.
    /// - Throws: `Refusal` when there is no renewing subscription to cancel, or the store cannot be read.
    public func offer(
        originalTransactionID: String, userLocale: String? = nil
    ) async throws(Refusal) -> RetentionOffer {
        let snapshot: StoreSnapshot
        let state: RetentionState
        do {
            snapshot = try await store.server.snapshot()
            state = try store.retention.state()
        } catch {
            throw .store("\(error)")
        }
        guard
            let subscription = snapshot.subscriptions.first(where: {
                $0.lifecycle.originalTransactionID == originalTransactionID
            })?.lifecycle
        else { throw .unknownSubscription(originalTransactionID) }
        guard subscription.isActive(at: snapshot.now), subscription.willAutoRenew else {
            throw .notRenewing(originalTransactionID)
        }
        var locale = userLocale
        if locale == nil { locale = await store.settings.locale.replacingOccurrences(of: "_", with: "-") }
        let environment = snapshot.settings.environment
        let request = DecodedRealtimeRequestBody(
            originalTransactionId: originalTransactionID, appAppleId: snapshot.settings.appAppleID,
            productId: subscription.productID, userLocale: locale ?? "en-US", requestIdentifier: UUID(),
            signedDate: Int64((snapshot.now.timeIntervalSince1970 * 1000).rounded(.down)),
            environment: environment.rawValue)
        let url = state.realtimeURLs[environment.rawValue]
        var answer: OutboundPost.Answer?
        var judged: Result<RealtimeAnswerCheck.Choice, RealtimeAnswerCheck.Refusal>
        if let url {
            let sent = await send(request, to: url, in: snapshot)
            answer = sent
            judged = await judge(sent, request: request, state: state)
        } else {
            judged = .failure(.init("no realtime URL is configured for \(environment.rawValue)"))
        }
        let offer = RetentionOffer(judged, request: request, state: state)
        let exchange = RealtimeExchange(
            requestIdentifier: offer.requestIdentifier, date: snapshot.now,
            originalTransactionID: originalTransactionID, productID: request.productId,
            userLocale: request.userLocale, environment: request.environment, url: url,
            result: answer?.result.rawValue, status: answer?.status, milliseconds: answer?.milliseconds,
            answer: answer?.body, shown: offer.shown, messageIdentifier: offer.message?.identifier,
            alternateProductID: offer.alternateProductID, offerIdentifier: offer.promotionalOffer?.offer.offerID,
            fallbackReason: offer.fallbackReason)
        do {
            try store.retention.record(exchange)
        } catch {
            throw .store("\(error)")
        }
        return offer
    }

    /// POSTs one signed request to `url`, waiting the store's `realtime-timeout` at most.
    func send(
        _ request: DecodedRealtimeRequestBody, to url: String, in snapshot: StoreSnapshot
    ) async -> OutboundPost.Answer {
        guard let target = URL(string: url) else {
            return OutboundPost.Answer(result: .other, status: nil, body: Data(), elapsed: .zero)
        }
        let signed: String
        do {
            signed = try store.server.signedRealtimeRequest(request, in: snapshot)
        } catch {
            return OutboundPost.Answer(result: .other, status: nil, body: Data(), elapsed: .zero)
        }
        let timeout = Duration.milliseconds(snapshot.settings.realtimeTimeoutMilliseconds)
        return await poster.post(NotificationDelivery.body(signedPayload: signed), to: target, timeout: timeout)
    }

    /// Judges an answer: its HTTP outcome, its body, and a promotional offer's signature.
    private func judge(
        _ answer: OutboundPost.Answer, request: DecodedRealtimeRequestBody, state: RetentionState
    ) async -> Result<RealtimeAnswerCheck.Choice, RealtimeAnswerCheck.Refusal> {
        guard answer.result == .success, answer.status == 200 else {
            return .failure(.init(Self.failure(answer)))
        }
        let check = RealtimeAnswerCheck(
            catalog: store.configuration.catalog, state: state, productID: request.productId)
        let judged = check.check(answer.body)
        if case .success(.promotionalOffer(_, let offer)) = judged,
            let refused = await store.offers.judgePromotionalOffer(
                offer.offer, productID: offer.productID, appAccountToken: offer.appAccountToken)
        {
            return .failure(.init("the promotional offer's signature is refused: \(refused.localizedDescription)"))
        }
        return judged
    }

    /// Why an answer's HTTP outcome is a failure.
    static func failure(_ answer: OutboundPost.Answer) -> String {
        switch answer.result {
        case .timedOut: "no answer within the realtime timeout (\(answer.milliseconds) ms; TIMED_OUT)"
        case .success, .unsuccessfulHTTPResponseCode:
            "the answer's status is \(answer.status.map(String.init) ?? "missing"), not 200"
        default: "the request failed: \(answer.result.rawValue)"
        }
    }
}

extension RealtimeRetention.Refusal: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
