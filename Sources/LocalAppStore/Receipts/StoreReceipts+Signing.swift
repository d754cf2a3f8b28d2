package import Crypto
import Foundation
internal import Receipts
import StoreCore

/// What the local store signs as Apple signs: one signing path for the engine's transactions,
/// renewal info and the App Store Server's answers (the store's `TransactionSigner`, which
/// keeps one JWS per transaction version), following the settings each caller names; and the
/// chain's CAs answering OCSP for the certificates they issued.
extension StoreReceipts {
    /// The issuer that signs under `settings` (kept by the store's signer, loaded on first use).
    /// - Parameter forReceipts: it must carry the receipt signer (loaded, or made on first use).
    /// - Throws: `CryptoError` naming a damaged chain file, or the file system's error.
    func issuer(for settings: LocalStoreSettings, forReceipts: Bool = false) throws -> LocalReceiptIssuer {
        try store.signer.issuer(for: settings, withReceiptSigner: forReceipts) { receiptSigner in
            try receiptIssuer(settings: settings, receiptSigner: receiptSigner)
        }
    }

    /// `transactions` signed under `settings`: the one path every signed transaction the store
    /// or its server hands out takes, so a version has one JWS wherever it is read.
    func signed(
        _ transactions: [StoreCore.Transaction], settings: LocalStoreSettings, now: Date
    ) -> [StoreCore.Transaction] {
        store.signer.sign(transactions, settings: settings, now: now) { receiptSigner in
            try receiptIssuer(settings: settings, receiptSigner: receiptSigner)
        }
    }

    /// Renewal info signed under `settings` with `details`; nil when the chain cannot be used.
    func signedRenewalInfo(
        _ info: RenewalInfo, details: LocalReceiptIssuer.RenewalDetails, settings: LocalStoreSettings, now: Date
    ) -> String? {
        store.signer.signedRenewalInfo(info, details: details, settings: settings, now: now) { receiptSigner in
            try receiptIssuer(settings: settings, receiptSigner: receiptSigner)
        }
    }

    /// The OCSP responder of this store's chain: the root answers for the intermediates, the
    /// intermediate for the signing certificates, every set ever issued included.
    /// - Throws: `CryptoError` naming a missing or damaged chain file.
    package func ocspResponder() throws -> OCSPResponder {
        let fileSystem = store.configuration.fileSystem
        let base = try CertificateAuthority.load(from: certificatesDirectoryURL, fileSystem: fileSystem)
        let issued = try CertificateAuthority.issuedCertificates(in: certificatesDirectoryURL, fileSystem: fileSystem)
        return OCSPResponder(authorities: [
            .init(certificate: base.authority.root, key: base.rootKey, issued: issued.intermediates),
            .init(certificate: base.authority.intermediate, key: base.intermediateKey, issued: issued.signers),
        ])
    }

    /// Answers an OCSP request (the DER body of a POST to `server-url` + `/ocsp`) with a DER
    /// OCSP response: `good` for the certificates this store issued, signed by their issuer;
    /// `unauthorized` for others and while the store has no chain yet; `malformedRequest` for
    /// bytes that are not a request. Reads the chain from disk each time, so certificates
    /// issued by another process since are known.
    /// - Parameter now: the answer's `thisUpdate`; the wall clock by default, since clients
    ///   compare it with theirs.
    public func respondToOCSP(_ requestDER: Data, now: Date = Date()) -> Data {
        ((try? ocspResponder()) ?? OCSPResponder(authorities: [])).respond(to: requestDER, at: now)
    }
}
