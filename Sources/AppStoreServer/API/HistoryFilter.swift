import Foundation
import Receipts
import StoreCore

/// The query of Get Transaction History, parsed and checked as Apple checks it.
struct HistoryFilter: Sendable {
    /// In milliseconds since 1970, as the signed transactions show purchase dates.
    var startDate: Int64?
    /// In milliseconds since 1970 (exclusive).
    var endDate: Int64?
    var productIDs: Set<String> = []
    var productTypes: Set<ProductType> = []
    var ascending = true
    var groupIDs: Set<String> = []
    var revoked: Bool?
    var revision: RevisionToken?

    /// Parses the query.
    /// - Throws: the `APIError` Apple sends for the first bad parameter.
    init(_ request: HTTPRequest) throws(APIError) {
        if let text = try request.parameter("startDate", invalid: .invalidStartDate).last {
            guard let ms = Int64(text), ms >= 0 else { throw .invalidStartDate }
            startDate = ms
        }
        if let text = try request.parameter("endDate", invalid: .invalidEndDate).last {
            guard let ms = Int64(text), ms >= 0 else { throw .invalidEndDate }
            endDate = ms
        }
        if let startDate, let endDate, startDate > endDate { throw .startDateAfterEndDate }
        for id in try request.parameter("productId", invalid: .invalidProductId) {
            guard !id.isEmpty, id.count <= 256 else { throw .invalidProductId }
            productIDs.insert(id)
        }
        for type in try request.parameter("productType", invalid: .invalidProductType) {
            switch type {
            case "AUTO_RENEWABLE": productTypes.insert(.autoRenewable)
            case "NON_RENEWABLE": productTypes.insert(.nonRenewing)
            case "CONSUMABLE": productTypes.insert(.consumable)
            case "NON_CONSUMABLE": productTypes.insert(.nonConsumable)
            default: throw .invalidProductType
            }
        }
        if let sort = try request.parameter("sort", invalid: .invalidSort).last {
            switch sort {
            case "ASCENDING": ascending = true
            case "DESCENDING": ascending = false
            default: throw .invalidSort
            }
        }
        for group in try request.parameter("subscriptionGroupIdentifier", invalid: .invalidSubscriptionGroupIdentifier)
        {
            guard !group.isEmpty, group.count <= 256 else { throw .invalidSubscriptionGroupIdentifier }
            groupIDs.insert(group)
        }
        if let ownership = try request.parameter("inAppOwnershipType", invalid: .invalidInAppOwnershipType).last {
            let type = StoreCore.Transaction.OwnershipType(rawValue: ownership)
            guard type == .purchased || type == .familyShared else { throw .invalidInAppOwnershipType }
            ownershipType = type
        }
        if let text = try request.parameter("revoked", invalid: .invalidRevoked).last {
            switch text.lowercased() {
            case "true": revoked = true
            case "false": revoked = false
            default: throw .invalidRevoked
            }
        }
        if let text = try request.parameter("revision", invalid: .invalidRequestRevision).last {
            guard let token = RevisionToken(text: text), token.ascending == ascending else {
                throw .invalidRequestRevision
            }
            revision = token
        }
    }

    /// Only purchases the customer made (`PURCHASED`) or has through Family Sharing (`FAMILY_SHARED`).
    var ownershipType: StoreCore.Transaction.OwnershipType?

    /// Whether a transaction passes the filter. Dates compare as Apple's: purchaseDate >=
    /// startDate and < endDate, in the milliseconds the signed transaction shows (the store
    /// keeps finer times, which would put a purchase shown at `startDate` before it).
    func matches(_ t: StoreCore.Transaction) -> Bool {
        if let ownershipType, t.ownershipType != ownershipType { return false }
        if startDate != nil || endDate != nil {
            let purchased = t.purchaseDate.appStoreMilliseconds
            if let startDate, purchased < startDate { return false }
            if let endDate, purchased >= endDate { return false }
        }
        if !productIDs.isEmpty, !productIDs.contains(t.productID) { return false }
        if !productTypes.isEmpty, !productTypes.contains(t.productType) { return false }
        if !groupIDs.isEmpty, !groupIDs.contains(t.subscriptionGroupID ?? "") { return false }
        if let revoked, (t.revocationDate != nil) != revoked { return false }
        return true
    }
}
