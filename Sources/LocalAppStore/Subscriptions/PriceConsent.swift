/// What the customer does with a price increase that needs consent
/// (`Subscriptions.priceIncrease(_:consent:price:)`).
public enum PriceConsent: String, Sendable, CaseIterable {
    /// Agrees: the subscription renews (`PRICE_INCREASE`/`ACCEPTED`).
    case accept
    /// Declines (the customer does not consent): nothing is sent now and auto-renew stays
    /// as it is; at the renewal date the subscription expires (`EXPIRED`/`PRICE_INCREASE`,
    /// expiration intent 3), as one left unanswered does.
    case decline
}
