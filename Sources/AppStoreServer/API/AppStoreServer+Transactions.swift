import Foundation
import LocalAppStore
import StoreCore

/// Get Transaction Info, Get Transaction History (v1, v2), Look Up Order ID, Get Refund
/// History and Get App Transaction Info.
extension AppStoreServer {
    /// Apple's page size for histories.
    static let pageSize = 20

    func transactionInfo(_ id: String, _ context: RequestContext) throws -> HTTPResponse {
        let t = try transaction(id, context)
        return try json(TransactionInfoResponse(signedTransactionInfo: signed(t, context)))
    }

    func history(_ id: String, _ request: HTTPRequest, _ context: RequestContext, version: Int) throws -> HTTPResponse {
        _ = try transaction(id, context)
        let filter = try HistoryFilter(request)
        let snapshot = context.snapshot
        // v1 leaves out consumables the app finished, unless refunded (Apple's v1 rule).
        let page = snapshot.page(from: filter.revision?.position, ascending: filter.ascending, limit: Self.pageSize) {
            t in
            guard filter.matches(t) else { return false }
            if version == 1, t.productType == .consumable, t.revocationDate == nil, snapshot.isFinished(t.transactionID)
            {
                return false
            }
            return true
        }
        return try json(
            HistoryResponse(
                revision: RevisionToken(position: page.next, ascending: filter.ascending).text, hasMore: page.hasMore,
                bundleId: context.bundleID, appAppleId: context.appAppleID, environment: context.environment.rawValue,
                signedTransactions: page.transactions.map { try signed($0, context) }))
    }

    func orderLookup(_ orderID: String, _ context: RequestContext) throws -> HTTPResponse {
        guard let t = context.snapshot.transaction(orderID: orderID) else {
            return try json(OrderLookupResponse(rawStatus: 1, signedTransactions: []))
        }
        return try json(OrderLookupResponse(rawStatus: 0, signedTransactions: [signed(t, context)]))
    }

    /// Get Refund History: refunds by revocation date (Apple's order); the revision is the last
    /// one returned, so a kept revision also brings later refunds of older purchases.
    func refundHistory(_ id: String, _ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        _ = try transaction(id, context)
        var revision = RefundRevision(mark: nil)
        if let text = try request.parameter("revision", invalid: .invalidRequestRevision).last {
            guard let token = RefundRevision(text: text) else { throw APIError.invalidRequestRevision }
            revision = token
        }
        let page = context.snapshot.refunds(after: revision.mark, limit: Self.pageSize)
        if let last = page.transactions.last, let date = last.revocationDate {
            revision = RefundRevision(mark: .init(revocationDate: date, transactionID: last.transactionID))
        }
        return try json(
            RefundHistoryResponse(
                signedTransactions: page.transactions.map { try signed($0, context) }, revision: revision.text,
                hasMore: page.hasMore))
    }

    func appTransactionInfo(_ id: String, _ context: RequestContext) throws -> HTTPResponse {
        guard Self.isNumericID(id) else { throw APIError.invalidTransactionId }
        // Apple's path takes an original transaction ID, a transaction ID or the appTransactionId.
        guard id == (try? store.server.appTransactionID()) || context.snapshot.transaction(id) != nil else {
            throw APIError.transactionIdNotFound
        }
        let jws: String
        do {
            jws = try store.server.signedAppTransaction(in: context.snapshot, environment: context.override)
        } catch {
            throw APIError.generalInternal
        }
        return try json(AppTransactionInfoResponse(signedAppTransactionInfo: jws))
    }
}
