import Foundation
import LocalAppStore
import Receipts
import StoreCore
import Synchronization

/// Signs what the server returns (transactions, renewal info, the app transaction) with the
/// store's chain, in the server's environment, with the app account tokens set through the API.
///
/// ECDSA signatures are randomized and cost more than the rest of a request, so each
/// transaction version keeps its signature (the cache holds at most `cacheLimit`).
final class ServerSigner: Sendable {
    private let store: LocalAppStore
    private let issuers = Mutex<[String: LocalReceiptIssuer]>([:])
    private let cache = Mutex<[String: Cached]>([:])
    private let cacheLimit = 20_000

    private struct Cached: Sendable {
        let transaction: StoreCore.Transaction
        let token: UUID?
        let environment: AppStoreEnvironment
        let jws: String
    }

    init(store: LocalAppStore) { self.store = store }

    /// The issuer for `environment` over the store's chain (made on first use).
    func issuer(_ environment: AppStoreEnvironment) throws -> LocalReceiptIssuer {
        if let known = issuers.withLock({ $0[environment.rawValue] }) { return known }
        let base = try store.receiptIssuer(settings: LocalStoreSettings(), receiptSigner: true)
        var configuration = base.configuration
        configuration.environment = environment
        let made = LocalReceiptIssuer(authority: base.authority, configuration: configuration)
        issuers.withLock { $0[environment.rawValue] = made }
        return made
    }

    /// The signed transaction (`JWSTransaction`).
    func signedTransaction(_ t: StoreCore.Transaction, token: UUID?, environment: AppStoreEnvironment, now: Date) throws -> String {
        var unsigned = t
        unsigned.signedTransaction = nil
        if let hit = cache.withLock({ $0[t.transactionID] }), hit.transaction == unsigned, hit.token == token, hit.environment == environment {
            return hit.jws
        }
        let issuer = try issuer(environment)
        var payload = issuer.transactionPayload(unsigned, now: now)
        if let token { payload.appAccountToken = token }
        let jws = try JWSSigner(authority: issuer.authority).sign(payload)
        cache.withLock { cache in
            if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[t.transactionID] = Cached(transaction: unsigned, token: token, environment: environment, jws: jws)
        }
        return jws
    }

    /// The signed renewal info (`JWSRenewalInfo`).
    func signedRenewalInfo(
        _ info: RenewalInfo, price: Decimal?, currency: String?, environment: AppStoreEnvironment, now: Date
    ) throws -> String {
        try issuer(environment).signedRenewalInfo(
            info, details: LocalReceiptIssuer.RenewalDetails(renewalPrice: price, currency: currency), now: now)
    }

    /// The signed app transaction (`JWSAppTransaction`).
    func signedAppTransaction(_ payload: AppTransaction, environment: AppStoreEnvironment) throws -> String {
        try JWSSigner(authority: issuer(environment).authority).signPayload(payload)
    }
}
