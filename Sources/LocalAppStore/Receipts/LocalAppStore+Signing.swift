package import Crypto
import Foundation
internal import Receipts
import StoreCore

/// What the local store signs as Apple signs: the signer follows the settings (environment,
/// app Apple ID, server URL) as other processes change them, renewal info carries its price,
/// offer and run start, the app transaction is issued on demand, and the chain's CAs answer
/// OCSP for the certificates they issued.
extension LocalAppStore {
    /// The issuer that signs now, following the settings (environment, app Apple ID, OCSP
    /// URL) as they are in the journal, changed here or in another process.
    /// - Parameter forReceipts: it must carry the receipt signer (loaded, or made on first use).
    /// - Throws: `CryptoError` naming a damaged chain file, or the file system's error.
    func currentSigner(forReceipts: Bool = false) throws -> LocalReceiptIssuer {
        try issuer(for: journal.state.settings, forReceipts: forReceipts)
    }

    /// The issuer that signs under `settings` (kept by `signer`, loaded on first use).
    /// - Throws: `CryptoError` naming a damaged chain file, or the file system's error.
    nonisolated func issuer(for settings: LocalStoreSettings, forReceipts: Bool = false) throws -> LocalReceiptIssuer {
        try signer.issuer(for: settings, withReceiptSigner: forReceipts) { receiptSigner in
            try receiptIssuer(settings: settings, receiptSigner: receiptSigner)
        }
    }

    /// `transactions` signed under `settings`: the one path every signed transaction the store
    /// or its server hands out takes, so a version has one JWS wherever it is read.
    nonisolated func signed(
        _ transactions: [StoreCore.Transaction], settings: LocalStoreSettings, now: Date
    )
        -> [StoreCore.Transaction]
    {
        signer.sign(transactions, settings: settings, now: now) { receiptSigner in
            try receiptIssuer(settings: settings, receiptSigner: receiptSigner)
        }
    }

    /// The subscription's renewal info signed with everything Apple's says (see
    /// `renewalDetails(_:of:in:priceIncrease:fallbackStorefront:)`). Nil when the chain cannot be used.
    func signedRenewalInfo(_ info: RenewalInfo, of stored: StoredSubscription, now: Date) -> String? {
        let state = journal.state
        return signedRenewalInfo(
            info, details: renewalDetails(info, of: stored, in: state, fallbackStorefront: localizer.storefront),
            settings: state.settings, now: now)
    }

    /// Renewal info signed under `settings` with `details`; nil when the chain cannot be used.
    nonisolated func signedRenewalInfo(
        _ info: RenewalInfo, details: LocalReceiptIssuer.RenewalDetails, settings: LocalStoreSettings, now: Date
    ) -> String? {
        signer.signedRenewalInfo(info, details: details, settings: settings, now: now) { receiptSigner in
            try receiptIssuer(settings: settings, receiptSigner: receiptSigner)
        }
    }

    /// What a subscription's renewal info says beyond `RenewalInfo`: the renewal price in the
    /// subscriber's storefront (at the offer's price while one applies, at a price increase's
    /// from its announcement), the price increase's status, the offer, the start of the current
    /// run of periods and the app account token.
    /// - Parameters:
    ///   - priceIncrease: the subscription's price increase as of the renewal info (a
    ///     notification's, as of its event); the journal's last one by default.
    ///   - fallbackStorefront: the storefront of a subscriber whose transaction names none.
    nonisolated func renewalDetails(
        _ info: RenewalInfo, of stored: StoredSubscription, in state: JournalState,
        priceIncrease: PriceIncrease?? = nil,
        fallbackStorefront: Storefront
    ) -> LocalReceiptIssuer.RenewalDetails {
        let latest = state.entries[stored.latestTransactionID]?.transaction
        let catalog = configuration.catalog
        var details = LocalReceiptIssuer.RenewalDetails(
            recentSubscriptionStartDate: Self.recentSubscriptionStart(of: stored, in: state),
            appAccountToken: latest?.appAccountToken)
        let increase = priceIncrease ?? state.notifications.priceIncreases[stored.lifecycle.originalTransactionID]
        if let increase, increase.date >= stored.lifecycle.periodStart {
            details.priceIncreaseStatus = increase.priceIncreaseStatus
        }
        if info.willAutoRenew, let product = catalog.product(id: info.autoRenewProductID) {
            let storefront = latest?.storefront.flatMap(Storefront.named) ?? fallbackStorefront
            let listed = catalog.price(for: product, in: storefront)
            let price =
                increase?.renewalPrice(of: stored, into: product.id, currencyCode: listed.currencyCode, in: state)
                .map { Price(amount: $0, currencyCode: listed.currencyCode) } ?? listed
            details.renewalPrice = price.amount
            details.currency = price.currencyCode
            // As the renewal will be charged (SubscriptionDesk.renewals).
            if let discount = SubscriptionDesk.discountedRenewal(
                of: stored, into: product, in: storefront, catalog: catalog)
            {
                details.offer = discount.offer
                details.offerType = discount.kind
                details.offerID = discount.offerID
                details.renewalPrice = discount.price.amount
                details.currency = discount.price.currencyCode
            }
        }
        return details
    }

    /// The earliest start of the subscription's periods reached back through gaps of at most
    /// 60 days, as Apple's `recentSubscriptionStartDate` ignores shorter lapses.
    static func recentSubscriptionStart(of stored: StoredSubscription, in state: JournalState) -> Date? {
        let periods = state.entries(originalTransactionID: stored.lifecycle.originalTransactionID).map(\.transaction)
            .filter {
                $0.state == .purchased
            }.sorted { $0.purchaseDate < $1.purchaseDate }
        guard var start = periods.last?.purchaseDate else { return nil }
        for period in periods.dropLast().reversed() {
            let end = period.expiresDate ?? period.purchaseDate
            guard start.timeIntervalSince(end) <= 60 * 86_400 else { break }
            start = min(start, period.purchaseDate)
        }
        return start
    }

    /// The signed-in account's app transaction on this device (JWS, ES256, `x5c` chain), as
    /// `AppTransaction.shared` gives it: signed now with a fresh device verification nonce.
    /// - Throws: `LocalAppStoreError` when the state cannot be read, `CryptoError` when the
    ///   chain is damaged, or the file system's error.
    public func signedAppTransaction() throws -> String {
        try refresh()
        return try currentSigner().signedAppTransaction(now: configuration.clock.now)
    }

    /// The OCSP responder of this store's chain: the root answers for the intermediates, the
    /// intermediate for the signing certificates, every set ever issued included.
    /// - Throws: `CryptoError` naming a missing or damaged chain file.
    package nonisolated func ocspResponder() throws -> OCSPResponder {
        let base = try CertificateAuthority.load(from: certificatesDirectoryURL, fileSystem: configuration.fileSystem)
        let issued = try CertificateAuthority.issuedCertificates(
            in: certificatesDirectoryURL, fileSystem: configuration.fileSystem)
        return OCSPResponder(authorities: [
            .init(certificate: base.root, key: base.rootKey, issued: issued.intermediates),
            .init(certificate: base.intermediate, key: base.intermediateKey, issued: issued.signers),
        ])
    }

    /// Answers an OCSP request (the DER body of a POST to `server-url` + `/ocsp`) with a DER
    /// OCSP response: `good` for the certificates this store issued, signed by their issuer;
    /// `unauthorized` for others and while the store has no chain yet; `malformedRequest` for
    /// bytes that are not a request. Reads the chain from disk each time, so certificates
    /// issued by another process since are known.
    /// - Parameter now: the answer's `thisUpdate`; the wall clock by default, since clients
    ///   compare it with theirs.
    public nonisolated func respondToOCSP(_ requestDER: Data, now: Date = Date()) -> Data {
        ((try? ocspResponder()) ?? OCSPResponder(authorities: [])).respond(to: requestDER, at: now)
    }
}
