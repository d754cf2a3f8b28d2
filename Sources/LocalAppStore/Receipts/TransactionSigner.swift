import Foundation
import StoreCore

/// Signs what the store hands out (StoreKit 2 signed transactions and renewal info: JWS,
/// ES256, `x5c` chain), keeping one JWS per transaction version.
///
/// ECDSA signatures are randomized, so signing a version again would give it another JWS;
/// the cache hands out the first one again until the transaction changes (a refund, a new
/// expiry). The issuer is loaded on first use, from the loader each call passes (the store's
/// `receiptIssuer(settings:receiptSigner:)`), and loaded again on the next call when that
/// fails: until then transactions go out unsigned. It follows the store's settings: when the
/// environment, app Apple ID or OCSP URL change, the issuer and the kept signatures are dropped.
/// The owner (the `LocalAppStore` actor) serializes calls.
struct TransactionSigner {
    private var issuer: LocalReceiptIssuer?
    /// The JWS of each transaction version signed, by transaction ID (the last version only).
    private var signatures: [String: (version: StoreCore.Transaction, jws: String)] = [:]

    /// A signer that loads its issuer on first use.
    init() {}

    /// A signer over `issuer`.
    init(issuer: LocalReceiptIssuer) {
        self.issuer = issuer
    }

    /// `transactions` with their signed transaction: a version signed before keeps its JWS,
    /// others are signed `now`. Any JWS a transaction carries in is replaced.
    /// - Parameter loadIssuer: makes the issuer when there is none yet; when it throws, the
    ///   transactions come back as they came in.
    mutating func sign(
        _ transactions: [StoreCore.Transaction], now: Date, loadIssuer: () throws -> LocalReceiptIssuer
    ) -> [StoreCore.Transaction] {
        guard !transactions.isEmpty else { return transactions }
        guard let issuer = loadedIssuer(loadIssuer) else { return transactions }
        return transactions.map { transaction in
            var t = transaction
            t.signedTransaction = nil
            if let cached = signatures[t.transactionID], cached.version == t {
                t.signedTransaction = cached.jws
            } else if let jws = try? issuer.signedTransaction(t, now: now) {
                signatures[t.transactionID] = (t, jws)
                t.signedTransaction = jws
            }
            return t
        }
    }

    /// The JWS of `info` signed `now` (with `details`), or `nil` when there is no issuer or
    /// signing fails.
    mutating func signedRenewalInfo(
        _ info: RenewalInfo, details: LocalReceiptIssuer.RenewalDetails = .init(), now: Date,
        loadIssuer: () throws -> LocalReceiptIssuer
    ) -> String? {
        try? loadedIssuer(loadIssuer)?.signedRenewalInfo(info, details: details, now: now)
    }

    /// Drops the issuer, and the signatures it made, when it does not say what `settings` say.
    mutating func follow(_ settings: LocalStoreSettings) {
        guard let issuer, !issuer.follows(settings) else { return }
        self.issuer = nil
        signatures = [:]
    }

    /// The issuer, loaded now when there is none or when `withReceiptSigner` asks for the
    /// receipt signer it lacks (the loader is told whether it must make it).
    /// - Throws: what the loader throws.
    mutating func issuer(
        withReceiptSigner: Bool, load: (_ receiptSigner: Bool) throws -> LocalReceiptIssuer
    ) throws -> LocalReceiptIssuer {
        if let issuer, !withReceiptSigner || issuer.authority.receiptSigningCertificate != nil { return issuer }
        let loaded = try load(withReceiptSigner)
        issuer = loaded
        return loaded
    }

    private mutating func loadedIssuer(_ load: () throws -> LocalReceiptIssuer) -> LocalReceiptIssuer? {
        if issuer == nil { issuer = try? load() }
        return issuer
    }
}
