import Foundation

/// What a history listing shows of a transaction (`storefront history`'s table): decoded from
/// a ledger's stored JSON without the rest (payment details, prices, offers, signatures), so a
/// long history costs what its rows cost (issue 13).
public struct TransactionSummary: Sendable, Hashable, Decodable {
    /// The transaction's ID.
    public let transactionID: String
    /// The purchase it restores or renews (its own ID for a first purchase).
    public let originalTransactionID: String
    /// The product bought.
    public let productID: String
    /// The product's type.
    public let productType: ProductType
    /// Units bought.
    public let quantity: Int
    /// When it was bought.
    public let purchaseDate: Date
    /// Its state.
    public let state: TransactionState
    /// When it was refunded, if it was.
    public let revocationDate: Date?

    /// The summary of `transaction`.
    public init(_ transaction: Transaction) {
        transactionID = transaction.transactionID
        originalTransactionID = transaction.originalTransactionID
        productID = transaction.productID
        productType = transaction.productType
        quantity = transaction.quantity
        purchaseDate = transaction.purchaseDate
        state = transaction.state
        revocationDate = transaction.revocationDate
    }

    /// A summary of these members (`TransactionSummaryScanner` makes them from a ledger's JSON).
    init(
        transactionID: String, originalTransactionID: String, productID: String, productType: ProductType, quantity: Int,
        purchaseDate: Date, state: TransactionState, revocationDate: Date?
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.productType = productType
        self.quantity = quantity
        self.purchaseDate = purchaseDate
        self.state = state
        self.revocationDate = revocationDate
    }

    private enum CodingKeys: String, CodingKey {
        case transactionID, originalTransactionID, productID, productType, payment, state, purchaseDate, revocationDate
    }

    private enum PaymentKeys: String, CodingKey {
        case quantity
    }

    /// Decodes the members `Transaction` encodes under the same keys, and nothing else.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transactionID = try c.decode(String.self, forKey: .transactionID)
        originalTransactionID = try c.decodeIfPresent(String.self, forKey: .originalTransactionID) ?? transactionID
        productID = try c.decode(String.self, forKey: .productID)
        productType = try c.decode(ProductType.self, forKey: .productType)
        quantity = try c.nestedContainer(keyedBy: PaymentKeys.self, forKey: .payment).decode(Int.self, forKey: .quantity)
        state = try c.decode(TransactionState.self, forKey: .state)
        purchaseDate = try c.decode(Date.self, forKey: .purchaseDate)
        revocationDate = try c.decodeIfPresent(Date.self, forKey: .revocationDate)
    }
}
