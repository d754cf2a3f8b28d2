import Foundation
import StoreCore
import Synchronization

/// Signs what the store hands out (StoreKit 2 signed transactions and renewal info: JWS,
/// ES256, `x5c` chain), keeping one JWS per transaction version: the one signing path of the
/// engine's transactions and the App Store Server's answers, so both hand out the same JWS.
///
/// ECDSA signatures are randomized, so signing a version again would give it another JWS;
/// the cache hands out the first one again until the transaction changes (a refund, a new
/// expiry, an app account token). Issuers are kept per identity (environment, app Apple ID,
/// OCSP URL): each call names the settings to sign under, so a change made in another process,
/// or a server answering as another environment, gets its own issuer and signatures. An issuer
/// is loaded on first use by the loader each call passes (the store's
/// `receiptIssuer(settings:receiptSigner:)`), and loaded again on the next call when that
/// fails: until then transactions go out unsigned.
///
/// Callable from any thread: the state is behind one lock, and signing happens outside it (a
/// version two threads sign at once keeps the JWS stored first).
final class TransactionSigner: Sendable {
    /// What an issuer says that the settings decide.
    private struct Identity: Hashable {
        let environment: String
        let appAppleID: Int64
        let ocspURL: String

        init(_ settings: LocalStoreSettings) {
            environment = settings.environment.rawValue
            appAppleID = settings.appAppleID
            ocspURL = settings.ocspURL
        }
    }

    private struct Signed: Sendable {
        let version: StoreCore.Transaction
        let jws: String
    }

    private struct Slot: Sendable {
        var issuer: LocalReceiptIssuer
        /// The JWS of each transaction version signed, by transaction ID (the last version only).
        var signatures: [String: Signed] = [:]
    }

    /// Identities kept at once; a settings change past it drops the others.
    private static let identityLimit = 4
    /// Signatures kept per identity; past it they are dropped and signed again on demand.
    private static let signatureLimit = 50_000

    private let slots = Mutex<[Identity: Slot]>([:])

    /// A signer that loads its issuers on first use.
    init() {}

    /// `transactions` with their signed transaction under `settings`: a version signed before
    /// keeps its JWS, others are signed `now`. Any JWS a transaction carries in is replaced.
    /// - Parameter load: makes the issuer when there is none yet for these settings (told
    ///   whether it must carry the receipt signer); when it throws, the transactions come back
    ///   as they came in.
    func sign(
        _ transactions: [StoreCore.Transaction], settings: LocalStoreSettings, now: Date,
        load: (_ receiptSigner: Bool) throws -> LocalReceiptIssuer
    ) -> [StoreCore.Transaction] {
        guard !transactions.isEmpty else { return transactions }
        let identity = Identity(settings)
        var versions = transactions
        for index in versions.indices { versions[index].signedTransaction = nil }
        // One lock for the issuer and every kept signature (a history page asks for twenty;
        // a lock taken per transaction by several HTTP threads at once is contended), the
        // versions compared outside it.
        let (keptIssuer, kept) = slots.withLock { slots -> (LocalReceiptIssuer?, [Signed?]) in
            guard let slot = slots[identity] else { return (nil, []) }
            return (slot.issuer, versions.map { slot.signatures[$0.transactionID] })
        }
        var missing: [Int] = []
        for index in versions.indices {
            if index < kept.count, let cached = kept[index], cached.version == versions[index] {
                versions[index].signedTransaction = cached.jws
            } else {
                missing.append(index)
            }
        }
        if missing.isEmpty { return versions }
        guard let issuer = keptIssuer ?? (try? issuer(for: settings, withReceiptSigner: false, load: load)) else {
            return transactions
        }
        var fresh: [(index: Int, jws: String)] = []
        for index in missing {
            if let jws = try? issuer.signedTransaction(versions[index], now: now) { fresh.append((index, jws)) }
        }
        guard !fresh.isEmpty else { return versions }
        let stored = slots.withLock { slots -> [String] in
            guard slots[identity] != nil else { return fresh.map(\.jws) }
            // In place: a copy of the slot would copy every kept signature at each call (one
            // purchase's signing cost O(history); importing 10,000 transactions took minutes).
            return fresh.map { index, jws -> String in
                let version = versions[index]
                if let first = slots[identity]?.signatures[version.transactionID], first.version == version {
                    return first.jws
                }
                if (slots[identity]?.signatures.count ?? 0) >= Self.signatureLimit {
                    slots[identity]?.signatures.removeAll(keepingCapacity: true)
                }
                slots[identity]?.signatures[version.transactionID] = Signed(version: version, jws: jws)
                return jws
            }
        }
        for (item, jws) in zip(fresh, stored) { versions[item.index].signedTransaction = jws }
        return versions
    }

    /// The JWS of `info` signed `now` under `settings` (with `details`), or `nil` when there is
    /// no issuer or signing fails.
    func signedRenewalInfo(
        _ info: RenewalInfo, details: LocalReceiptIssuer.RenewalDetails = .init(), settings: LocalStoreSettings,
        now: Date,
        load: (_ receiptSigner: Bool) throws -> LocalReceiptIssuer
    ) -> String? {
        try? issuer(for: settings, withReceiptSigner: false, load: load).signedRenewalInfo(
            info, details: details, now: now)
    }

    /// The issuer for `settings`, loaded now when there is none or when `withReceiptSigner`
    /// asks for the receipt signer it lacks (the loader is told whether it must make it).
    /// - Throws: what the loader throws.
    func issuer(
        for settings: LocalStoreSettings, withReceiptSigner: Bool,
        load: (_ receiptSigner: Bool) throws -> LocalReceiptIssuer
    ) throws -> LocalReceiptIssuer {
        let identity = Identity(settings)
        if let known = slots.withLock({ $0[identity]?.issuer }),
            !withReceiptSigner || known.authority.receiptSigningCertificate != nil
        {
            return known
        }
        // Loaded outside the lock: making a chain reads files and may make keys.
        let loaded = try load(withReceiptSigner)
        return slots.withLock { slots in
            if var slot = slots[identity] {
                if withReceiptSigner && slot.issuer.authority.receiptSigningCertificate == nil {
                    slot.issuer = loaded
                    slots[identity] = slot
                }
                return slot.issuer
            }
            if slots.count >= Self.identityLimit { slots.removeAll() }
            slots[identity] = Slot(issuer: loaded)
            return loaded
        }
    }
}
