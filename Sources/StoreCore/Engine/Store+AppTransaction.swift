import Foundation

/// The app's own purchase: the signed app transaction, verified (StoreKit 2's `AppTransaction`).
extension Store {
    /// The signed-in account's app transaction on this device, verified by
    /// `StoreConfiguration.appTransactionVerifier` (StoreKit 2's `AppTransaction.shared`): its
    /// original app version and purchase date say since when the customer has the app.
    /// - Parameter refresh: ask the store for a new one (StoreKit 2's `AppTransaction.refresh()`).
    /// - Returns: `.verified`, or `.unverified` with what the store's JWS claims and why it is not
    ///   trusted (always so when no verifier is configured).
    /// - Throws: `StoreError` from the store, or `.verificationFailed` when the JWS cannot be read at all.
    public func appTransaction(refresh: Bool = false) async throws(StoreError) -> VerificationResult<AppTransaction> {
        let jws = try await backend.signedAppTransaction(refresh: refresh)
        do throws(AppTransactionVerifier.VerificationError) {
            guard let verifier = configuration.appTransactionVerifier else {
                let (transaction, _) = try AppTransactionVerifier.decode(jws)
                return .unverified(
                    transaction,
                    .invalidCertificateChain(
                        "no root is trusted: set StoreConfiguration.appTransactionVerifier"))
            }
            return try verifier.verify(jws)
        } catch {
            throw .verificationFailed("the app transaction cannot be read: \(error)")
        }
    }
}
