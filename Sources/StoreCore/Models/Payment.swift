import Foundation

/// A request to buy a product: what the app adds to the payment queue.
public struct Payment: Codable, Hashable, Sendable {
    /// The product to buy.
    public let productID: String
    /// How many (consumables only may buy more than one).
    public let quantity: Int
    /// An opaque account identifier of the app's user (see `ApplicationUsername.hash`).
    public let applicationUsername: String?
    /// The app's own order data (such as an order number), kept with the transaction and
    /// returned with it, also after a crash.
    public let orderData: [String: String]
    /// A promotional offer to apply, by its identifier.
    public let offerID: String?
    /// Ties this payment to its caller: two payments of one product each get their own result.
    public let requestID: String

    /// The most units one payment may buy, as the App Store allows (`SKMutablePayment.quantity`).
    public static let quantities = 1...10

    /// Creates a payment; each gets its own `requestID` unless one is given.
    public init(
        productID: String, quantity: Int = 1, applicationUsername: String? = nil,
        orderData: [String: String] = [:], offerID: String? = nil, requestID: String = UUID().uuidString
    ) {
        self.productID = productID
        self.quantity = quantity
        self.applicationUsername = applicationUsername
        self.orderData = orderData
        self.offerID = offerID
        self.requestID = requestID
    }
}
