import Foundation
internal import Receipts
import StoreCore

/// Why the server could not sign.
package enum ServerSigningError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The chain in the state directory cannot be used (damaged or unreadable).
    case unavailable(String)
    /// No subscription has this original transaction ID.
    case unknownSubscription(String)

    /// What went wrong.
    package var description: String {
        switch self {
        case .unavailable(let why): "The local App Store cannot sign: \(why)"
        case .unknownSubscription(let id): "No subscription has the original transaction ID \(id)."
        }
    }
}

extension ServerSigningError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    package var errorDescription: String? { description }
}

/// What the App Store Server signs, through the store's one signing path (`StoreReceipts`):
/// the same issuer and the same kept signatures as the engine's transactions (so a transaction
/// version has one JWS in the app and in the server's answers), under the snapshot's
/// settings. Callable from any thread, off the store's actor.
extension ServerView {
    /// The settings the server signs under: the snapshot's, answering as `environment` when given.
    static func signingSettings(
        _ snapshot: StoreSnapshot, environment: AppStoreEnvironment? = nil
    ) -> LocalStoreSettings {
        var settings = snapshot.settings
        if let environment { settings.rawEnvironment = environment.rawValue }
        return settings
    }

    /// A transaction's `JWSTransaction`, as the app gets it.
    /// - Parameter environment: the environment to answer as (the store's when nil).
    /// - Throws: `ServerSigningError.unavailable` when the chain cannot be used.
    package func signedTransaction(
        _ transaction: StoreCore.Transaction, in snapshot: StoreSnapshot, environment: AppStoreEnvironment? = nil
    ) throws(ServerSigningError) -> String {
        let settings = Self.signingSettings(snapshot, environment: environment)
        guard
            let jws = store.receipts.signed([transaction], settings: settings, now: snapshot.now).first?
                .signedTransaction
        else {
            throw .unavailable("the store's certificate chain cannot sign")
        }
        return jws
    }

    /// A subscription's `JWSRenewalInfo` now, with what the engine's says (renewal price in the
    /// subscriber's storefront, offer, run start, app account token).
    /// - Throws: `ServerSigningError` when there is no such subscription or the chain cannot be used.
    package func signedRenewalInfo(
        originalTransactionID: String, in snapshot: StoreSnapshot, environment: AppStoreEnvironment? = nil
    ) throws(ServerSigningError) -> String {
        // A member's shared subscription renews as its purchaser's does, under its own ID.
        let share = snapshot.state.family.share(memberOriginalTransactionID: originalTransactionID)
        guard
            let stored = snapshot.state.subscriptions[originalTransactionID]
                ?? share.flatMap({ snapshot.state.subscriptions[$0.purchaserOriginalTransactionID] })
        else {
            throw .unknownSubscription(originalTransactionID)
        }
        let catalog = store.configuration.catalog
        var info = stored.lifecycle.renewalInfo(at: snapshot.now)
        var details = LocalReceiptIssuer.RenewalDetails(
            info, of: stored, in: snapshot.state, catalog: catalog, fallbackStorefront: catalog.defaultStorefront)
        if share != nil {
            SharedRenewal.memberView(&info, &details, memberOriginalTransactionID: originalTransactionID)
        }
        let settings = Self.signingSettings(snapshot, environment: environment)
        guard
            let jws = store.receipts.signedRenewalInfo(info, details: details, settings: settings, now: snapshot.now)
        else {
            throw .unavailable("the store's certificate chain cannot sign")
        }
        return jws
    }

    /// The app transaction the server returns (Get App Transaction Info): the app's, as
    /// `StoreReceipts.signedAppTransaction()` gives it, without the device verification (no
    /// device asked).
    /// - Throws: `ServerSigningError.unavailable` when the chain cannot be used.
    package func signedAppTransaction(
        in snapshot: StoreSnapshot, environment: AppStoreEnvironment? = nil
    ) throws(ServerSigningError) -> String {
        do {
            let issuer = try store.receipts.issuer(for: Self.signingSettings(snapshot, environment: environment))
            var payload = try issuer.appTransactionPayload(now: snapshot.now, nonce: UUID())
            payload.deviceVerification = nil
            payload.deviceVerificationNonce = nil
            return try issuer.jwsSigner().sign(payload)
        } catch {
            throw .unavailable("\(error)")
        }
    }

    /// A Get Retention Message request's `signedPayload`: `body` signed as the App Store signs
    /// what it sends (ES256, the store's `x5c` chain), in the snapshot's environment.
    /// - Throws: `ServerSigningError.unavailable` when the chain cannot be used.
    package func signedRealtimeRequest(
        _ body: DecodedRealtimeRequestBody, in snapshot: StoreSnapshot
    ) throws(ServerSigningError) -> String {
        do {
            let issuer = try store.receipts.issuer(for: Self.signingSettings(snapshot))
            return try issuer.jwsSigner().signPayload(body)
        } catch {
            throw .unavailable("\(error)")
        }
    }

    /// The app transaction's identifier (`appTransactionId`), which every signed item carries.
    /// - Throws: `ServerSigningError.unavailable` when the app download cannot be read.
    package func appTransactionID() throws(ServerSigningError) -> String {
        do {
            return try store.receipts.appDownload().appTransactionID
        } catch {
            throw .unavailable("\(error)")
        }
    }

    /// The account's app receipt as the store is now (finished consumables dropped), of the
    /// receipt type `environment` gives (what `latest_receipt` returns).
    /// - Throws: `ServerSigningError.unavailable` when the chain cannot be used.
    package func receipt(
        in snapshot: StoreSnapshot, environment: AppStoreEnvironment
    ) throws(ServerSigningError) -> Data {
        do {
            let issuer = try store.receipts.issuer(
                for: Self.signingSettings(snapshot, environment: environment), forReceipts: true)
            let all = snapshot.accountTransactions
            let finished = Set(all.map(\.transactionID).filter(snapshot.isFinished))
            return try issuer.issueReceipt(transactions: all, finishedTransactionIDs: finished, now: snapshot.now)
        } catch {
            throw .unavailable("\(error)")
        }
    }

    /// The root certificate (DER) everything the store signs chains to, the chain made first
    /// when the store has none yet.
    /// - Throws: `ServerSigningError.unavailable` when the chain cannot be made or read.
    package func rootCertificate(in snapshot: StoreSnapshot) throws(ServerSigningError) -> Data {
        do {
            _ = try store.receipts.issuer(for: snapshot.settings)
            return try Data(contentsOf: store.receipts.rootCertificateURL)
        } catch {
            throw .unavailable("\(error)")
        }
    }
}
