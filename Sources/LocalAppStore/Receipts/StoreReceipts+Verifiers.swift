import Foundation
internal import Receipts
import StoreCore

/// The engine's verifiers, set up for this store in one call each (the store's
/// `receiptVerifier()`, `signedTransactionVerifier()` and `appTransactionVerifier()` are these):
/// the chain is made and its root exported on first use, and the receipt's expectations
/// (bundle ID, app version, this device's identifier bytes) come from the store's configuration.
extension StoreReceipts {
    /// What a receipt issued by this store must match: its root, bundle ID, app version and
    /// this device's identifier (for an `AppReceiptVerifier` an app builds itself, or a server).
    /// - Parameter verificationDate: when to check the certificates; nil: each receipt's creation date.
    /// - Throws: `LocalAppStoreError.io` naming the certificates directory when the chain cannot
    ///   be made or read.
    public func receiptVerifierConfiguration(
        verificationDate: Date? = nil
    ) async throws(LocalAppStoreError) -> AppReceiptVerifier.Configuration {
        let issuer = try await verifiedIssuer()
        return AppReceiptVerifier.Configuration(
            trustedRoots: [try rootCertificate()], bundleID: issuer.configuration.bundleID,
            appVersion: issuer.configuration.appVersion, deviceIdentifier: issuer.configuration.deviceIdentifier,
            verificationDate: verificationDate)
    }

    /// A verifier that checks each purchase against this store's app receipt, refreshing the
    /// receipt once when it lacks the purchase (see `LocalAppStore.receiptVerifier`).
    func receiptVerifier(verificationDate: Date?) async throws(LocalAppStoreError) -> AppReceiptVerifier {
        let configuration = try await receiptVerifierConfiguration(verificationDate: verificationDate)
        let store = self.store
        do {
            return try AppReceiptVerifier(configuration: configuration) { () async throws -> Data in
                try await store.refreshReceipt()
            }
        } catch {
            throw certificateError("\(error)")
        }
    }

    /// A verifier of the StoreKit 2 signed transactions (JWS) this store issues, trusting its
    /// root and the environment it signs for.
    func signedTransactionVerifier() async throws(LocalAppStoreError) -> SignedTransactionVerifier {
        let issuer = try await verifiedIssuer()
        do {
            return try SignedTransactionVerifier(
                configuration: .init(
                    trustedRoots: [try rootCertificate()], bundleID: issuer.configuration.bundleID,
                    environments: [issuer.configuration.environment]))
        } catch {
            throw certificateError("\(error)")
        }
    }

    /// A verifier of the app transactions this store signs: its root, bundle ID and
    /// environment, and this device's identifier for the device verification hash.
    func appTransactionVerifier() async throws(LocalAppStoreError) -> AppTransactionVerifier {
        let issuer = try await verifiedIssuer()
        let device: UUID
        do {
            device = try deviceIdentifier()
        } catch {
            throw .io(
                path: store.configuration.stateDirectory.appendingPathComponent("device-id").path, reason: "\(error)")
        }
        do {
            return try AppTransactionVerifier(
                configuration: .init(
                    trustedRoots: [try rootCertificate()], bundleID: issuer.configuration.bundleID,
                    environments: [issuer.configuration.environment], deviceIdentifier: device))
        } catch {
            throw certificateError("\(error)")
        }
    }

    /// The receipt issuer, its chain made and its root exported when this is the first use.
    private func verifiedIssuer() async throws(LocalAppStoreError) -> LocalReceiptIssuer {
        do {
            return try await receiptIssuer()
        } catch {
            throw certificateError("cannot make or read the store's certificate chain: \(error)")
        }
    }

    /// The DER of the exported root certificate.
    private func rootCertificate() throws(LocalAppStoreError) -> Data {
        do {
            return try Data(contentsOf: rootCertificateURL)
        } catch {
            throw .io(
                path: rootCertificateURL.path, reason: "cannot read the root certificate: \(error.localizedDescription)"
            )
        }
    }

    /// An error about the store's certificate chain, naming its directory.
    private func certificateError(_ reason: String) -> LocalAppStoreError {
        .io(path: rootCertificateURL.deletingLastPathComponent().path, reason: reason)
    }
}
