import Foundation
import LocalAppStore
import StoreCore

/// Send Consumption Information (v1 and v2), Set App Account Token and Finish Transaction:
/// what an app's server tells the App Store, recorded in the store's journal.
extension AppStoreServer {
    /// Finish Transaction: the transaction is finished as the app's own finish would finish it
    /// (durably: the answer promises it), so no later start of the app delivers it again. A
    /// finished one answers the same (idempotent); one the server does not know (another
    /// account's, or one that is not a purchase: failed, deferred or still purchasing) is not found.
    func finishTransaction(_ id: String, _ context: RequestContext) async throws -> HTTPResponse {
        guard Self.isNumericID(id) else { throw APIError.invalidTransactionId }
        guard context.snapshot.transaction(id) != nil else { throw APIError.transactionIdNotFound }
        guard !context.snapshot.isFinished(id) else { return .empty(200) }
        try context.checkReads()
        let known: Bool
        do {
            known = try await store.server.finish(transactionID: id)
        } catch {
            throw APIError.generalInternal
        }
        guard known else { throw APIError.transactionIdNotFound }
        return .empty(200)
    }

    func consumption(
        _ id: String, _ request: HTTPRequest, _ context: RequestContext, version: Int
    ) async throws -> HTTPResponse {
        guard Self.isNumericID(id) else { throw APIError.invalidTransactionId }
        let fields = try version == 1 ? Self.checkConsumptionV1(request.body) : Self.checkConsumptionV2(request.body)
        guard context.snapshot.transaction(id) != nil else { throw APIError.transactionIdNotFound }
        let record = ConsumptionRecord(
            transactionID: id, receivedDate: context.snapshot.now, version: version, fields: fields)
        let known: Bool
        try context.checkReads()
        do {
            known = try await store.server.recordConsumption(record)
        } catch {
            throw APIError.generalInternal
        }
        guard known else { throw APIError.transactionIdNotFound }
        return .empty(202)
    }

    func setAppAccountToken(
        _ id: String, _ request: HTTPRequest, _ context: RequestContext
    ) async throws -> HTTPResponse {
        guard Self.isNumericID(id) else { throw APIError.invalidOriginalTransactionId }
        let body: UpdateAppAccountTokenRequest = try Self.decode(
            request.body, fields: ["appAccountToken": .invalidAppAccountTokenUUID])
        guard let text = body.appAccountToken, let token = UUID(uuidString: text) else {
            throw APIError.invalidAppAccountTokenUUID
        }
        guard let t = context.snapshot.transaction(id) else { throw APIError.transactionIdNotFound }
        guard t.originalTransactionID == id, t.state == .purchased else { throw APIError.transactionIdIsNotOriginal }
        let known: Bool
        try context.checkReads()
        do {
            known = try await store.server.setAppAccountToken(token, originalTransactionID: id)
        } catch {
            throw APIError.generalInternal
        }
        guard known else { throw APIError.transactionIdNotFound }
        return .empty(200)
    }

    /// `ConsumptionRequestV1`: every member Apple requires, each in its range.
    static func checkConsumptionV1(_ body: Data) throws -> [String: String] {
        let r: ConsumptionRequestV1 = try decode(
            body,
            fields: [
                "customerConsented": .invalidCustomerConsented, "consumptionStatus": .invalidConsumptionStatus,
                "platform": .invalidPlatform, "sampleContentProvided": .invalidSampleContentProvided,
                "deliveryStatus": .invalidDeliveryStatus, "appAccountToken": .invalidAppAccountToken,
                "accountTenure": .invalidAccountTenure, "playTime": .invalidPlayTime,
                "lifetimeDollarsRefunded": .invalidLifetimeDollarsRefunded,
                "lifetimeDollarsPurchased": .invalidLifetimeDollarsPurchased, "userStatus": .invalidUserStatus,
            ])
        func check(_ value: Int32?, _ range: ClosedRange<Int32>, _ error: APIError) throws {
            guard let value, range.contains(value) else { throw error }
        }
        guard r.customerConsented == true else { throw APIError.invalidCustomerConsented }
        try check(r.consumptionStatus, 0...3, .invalidConsumptionStatus)
        try check(r.platform, 0...2, .invalidPlatform)
        guard r.sampleContentProvided != nil else { throw APIError.invalidSampleContentProvided }
        try check(r.deliveryStatus, 0...5, .invalidDeliveryStatus)
        guard let token = r.appAccountToken, token.isEmpty || UUID(uuidString: token) != nil else {
            throw APIError.invalidAppAccountToken
        }
        try check(r.accountTenure, 0...7, .invalidAccountTenure)
        try check(r.playTime, 0...7, .invalidPlayTime)
        try check(r.lifetimeDollarsRefunded, 0...7, .invalidLifetimeDollarsRefunded)
        try check(r.lifetimeDollarsPurchased, 0...7, .invalidLifetimeDollarsPurchased)
        try check(r.userStatus, 0...4, .invalidUserStatus)
        if let preference = r.refundPreference { try check(preference, 0...3, .generalBadRequest) }
        return try fields(of: r)
    }

    /// `ConsumptionRequest` (v2): consent, sample content and delivery status required.
    static func checkConsumptionV2(_ body: Data) throws -> [String: String] {
        let r: ConsumptionRequest = try decode(
            body,
            fields: [
                "customerConsented": .invalidCustomerConsented, "sampleContentProvided": .invalidSampleContentProvided,
                "deliveryStatus": .invalidDeliveryStatus,
            ])
        guard r.customerConsented == true else { throw APIError.invalidCustomerConsented }
        guard r.sampleContentProvided != nil else { throw APIError.invalidSampleContentProvided }
        let deliveries = [
            "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE",
            "UNDELIVERED_OTHER",
        ]
        guard let delivery = r.deliveryStatus, deliveries.contains(delivery) else {
            throw APIError.invalidDeliveryStatus
        }
        if let percentage = r.consumptionPercentage, !(0...100_000).contains(percentage) {
            throw APIError.generalBadRequest
        }
        if let preference = r.refundPreference, !["DECLINE", "GRANT_FULL", "GRANT_PRORATED"].contains(preference) {
            throw APIError.generalBadRequest
        }
        return try fields(of: r)
    }

    /// Each member of a checked request as JSON text, for the record.
    private static func fields<T: Encodable>(of request: T) throws -> [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let object = try JSONSerialization.jsonObject(with: encoder.encode(request)) as? [String: Any] else {
            return [:]
        }
        var result: [String: String] = [:]
        for (key, value) in object {
            let data = try JSONSerialization.data(withJSONObject: [value])
            result[key] = String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
        }
        return result
    }
}
