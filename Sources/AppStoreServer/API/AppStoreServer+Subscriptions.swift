import Catalog
import Foundation
import LocalAppStore
import Receipts
import StoreCore

/// Get All Subscription Statuses, Extend a Subscription Renewal Date, and Extend Subscription
/// Renewal Dates for All Active Subscribers with its status request.
extension AppStoreServer {
    func subscriptionStatuses(_ id: String, _ request: HTTPRequest, _ context: RequestContext) throws -> HTTPResponse {
        _ = try transaction(id, context)
        var wanted: Set<Int32> = []
        for text in try request.parameter("status", invalid: .invalidStatus) {
            guard let value = Int32(text), SubscriptionStatusCode(rawValue: value) != nil else {
                throw APIError.invalidStatus
            }
            wanted.insert(value)
        }
        let now = context.snapshot.now
        var groups: [(String, [LastTransactionsItem])] = []
        let own = context.snapshot.subscriptions.map { ($0.lifecycle, $0.lifecycle.originalTransactionID, $0.latest) }
        for (lifecycle, original, latest) in own + context.snapshot.sharedSubscriptions {
            let status = Self.status(of: lifecycle, latest: latest, now: now)
            guard wanted.isEmpty || wanted.contains(status.rawValue) else { continue }
            let item = LastTransactionsItem(
                status: status, originalTransactionId: original, signedTransactionInfo: try signed(latest, context),
                signedRenewalInfo: try signedRenewalInfo(original, context))
            if let index = groups.firstIndex(where: { $0.0 == lifecycle.groupID }) {
                groups[index].1.append(item)
            } else {
                groups.append((lifecycle.groupID, [item]))
            }
        }
        return try json(
            StatusResponse(
                environment: context.environment.rawValue, bundleId: context.bundleID, appAppleId: context.appAppleID,
                data: groups.map {
                    SubscriptionGroupIdentifierItem(subscriptionGroupIdentifier: $0.0, lastTransactions: $0.1)
                }))
    }

    /// A subscription's status code at `now`.
    static func status(
        of lifecycle: SubscriptionLifecycle, latest: StoreCore.Transaction, now: Date
    ) -> SubscriptionStatusCode {
        if latest.revocationDate != nil { return .revoked }
        if lifecycle.isExpired { return .expired }
        if lifecycle.billingRetryStart != nil {
            return lifecycle.isInGracePeriod(at: now) ? .billingGracePeriod : .billingRetry
        }
        return lifecycle.isActive(at: now) || lifecycle.willAutoRenew ? .active : .expired
    }

    /// Signed renewal info of a subscription (or a member's share of one), as the engine's (the
    /// store's one signing path).
    func signedRenewalInfo(_ originalTransactionID: String, _ context: RequestContext) throws -> String {
        do {
            return try store.server.signedRenewalInfo(
                originalTransactionID: originalTransactionID, in: context.snapshot, environment: context.override)
        } catch {
            throw APIError.generalInternal
        }
    }

    func extendRenewalDate(_ id: String, _ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse
    {
        guard Self.isNumericID(id) else { throw APIError.invalidOriginalTransactionId }
        let body: ExtendRenewalDateRequest = try Self.decode(
            request.body,
            fields: [
                "extendByDays": .invalidExtendByDays, "extendReasonCode": .invalidExtendReasonCode,
                "requestIdentifier": .invalidRequestIdentifier,
            ])
        let (days, reason, identifier) = try Self.checkExtension(
            body.extendByDays, body.extendReasonCode, body.requestIdentifier)
        guard let original = context.snapshot.transaction(id), original.productType == .autoRenewable else {
            throw APIError.originalTransactionIdNotFound
        }
        guard original.originalTransactionID == id else { throw APIError.transactionIdIsNotOriginal }
        let outcome: ExtensionOutcome
        try context.checkReads()
        do {
            outcome = try await store.server.extendRenewalDate(
                originalTransactionID: id, days: days, reasonCode: reason, requestIdentifier: identifier)
        } catch {
            throw APIError.generalInternal
        }
        switch outcome {
        case .notFound: throw APIError.originalTransactionIdNotFound
        case .ineligible: throw APIError.subscriptionExtensionIneligible
        case .limitReached: throw APIError.subscriptionMaxExtension
        case .extended(let record):
            return try json(
                ExtendRenewalDateResponse(
                    originalTransactionId: record.originalTransactionID, webOrderLineItemId: record.webOrderLineItemID,
                    success: record.success, effectiveDate: record.effectiveDate.appStoreMilliseconds))
        }
    }

    func massExtendRenewalDate(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        let body: MassExtendRenewalDateRequest = try Self.decode(
            request.body,
            fields: [
                "extendByDays": .invalidExtendByDays, "extendReasonCode": .invalidExtendReasonCode,
                "requestIdentifier": .invalidRequestIdentifier, "storefrontCountryCodes": .invalidStorefrontCountryCode,
                "productId": .invalidProductId,
            ])
        let (days, reason, identifier) = try Self.checkExtension(
            body.extendByDays, body.extendReasonCode, body.requestIdentifier)
        guard let productID = body.productId, store.configuration.catalog.product(id: productID)?.subscription != nil
        else {
            throw APIError.invalidProductId
        }
        if let codes = body.storefrontCountryCodes {
            guard !codes.isEmpty else { throw APIError.invalidEmptyStorefrontCountryCodeList }
            guard codes.allSatisfy({ Storefront.named($0) != nil }) else { throw APIError.invalidStorefrontCountryCode }
        }
        try context.checkReads()
        do {
            _ = try await store.server.extendRenewalDates(
                productID: productID, days: days, reasonCode: reason, requestIdentifier: identifier,
                storefronts: body.storefrontCountryCodes?.map { $0.uppercased() } ?? [])
        } catch {
            throw APIError.generalInternal
        }
        return try json(MassExtendRenewalDateResponse(requestIdentifier: identifier))
    }

    func massExtendStatus(_ productID: String, _ identifier: String, _ context: RequestContext) throws -> HTTPResponse {
        // A decoded NUL in the path (`%00`) is no product or identifier.
        guard !productID.utf8.contains(0) else { throw APIError.invalidProductId }
        guard !identifier.utf8.contains(0) else { throw APIError.invalidRequestIdentifier }
        guard let mass = context.snapshot.massExtension(productID: productID, requestIdentifier: identifier) else {
            throw APIError.statusRequestNotFound
        }
        return try json(
            MassExtendRenewalDateStatusResponse(
                requestIdentifier: mass.requestIdentifier, complete: true,
                completeDate: mass.completeDate.appStoreMilliseconds,
                succeededCount: Int64(mass.succeededCount), failedCount: Int64(mass.failedCount)))
    }

    /// Apple's ranges: 1…90 days, reason 0…3, an identifier of 1…128 characters.
    static func checkExtension(_ days: Int32?, _ reason: Int32?, _ identifier: String?) throws -> (Int, Int, String) {
        guard let days, (1...90).contains(days) else { throw APIError.invalidExtendByDays }
        guard let reason, (0...3).contains(reason) else { throw APIError.invalidExtendReasonCode }
        guard let identifier, (1...128).contains(identifier.count) else { throw APIError.invalidRequestIdentifier }
        return (Int(days), Int(reason), identifier)
    }

    /// Decodes a JSON body; a member of the wrong type gets that member's error, anything
    /// else that is not a JSON object `GeneralBadRequestError`.
    static func decode<T: Decodable>(_ body: Data, fields: [String: APIError]) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch let DecodingError.typeMismatch(_, context) {
            throw context.codingPath.first.flatMap { fields[$0.stringValue] } ?? APIError.generalBadRequest
        } catch let DecodingError.valueNotFound(_, context) {
            throw context.codingPath.first.flatMap { fields[$0.stringValue] } ?? APIError.generalBadRequest
        } catch let DecodingError.dataCorrupted(context) {
            throw context.codingPath.first.flatMap { fields[$0.stringValue] } ?? APIError.generalBadRequest
        } catch {
            throw APIError.generalBadRequest
        }
    }
}
