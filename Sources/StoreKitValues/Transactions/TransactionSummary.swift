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
    /// Where a monthly payment of a 12-month commitment stands in it ("payment 3 of 12").
    public let commitmentInfo: Transaction.CommitmentInfo?

    /// Creates a summary from its members (`TransactionSummaryScanner` reads them from a ledger's bytes).
    package init(
        transactionID: String, originalTransactionID: String, productID: String, productType: ProductType,
        quantity: Int, purchaseDate: Date, state: TransactionState, revocationDate: Date?,
        commitmentInfo: Transaction.CommitmentInfo? = nil
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.productID = productID
        self.productType = productType
        self.quantity = quantity
        self.purchaseDate = purchaseDate
        self.state = state
        self.revocationDate = revocationDate
        self.commitmentInfo = commitmentInfo
    }
}

extension TransactionSummary {
    /// The summary of `transaction`.
    public init(_ transaction: Transaction) {
        self.init(
            transactionID: transaction.transactionID, originalTransactionID: transaction.originalTransactionID,
            productID: transaction.productID, productType: transaction.productType, quantity: transaction.quantity,
            purchaseDate: transaction.purchaseDate, state: transaction.state,
            revocationDate: transaction.revocationDate,
            commitmentInfo: transaction.commitmentInfo)
    }

    /// Decodes the members `Transaction` encodes under the same keys, and nothing else.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Transaction.CodingKeys.self)
        try self.init(
            c,
            quantity: c.nestedContainer(keyedBy: PaymentKeys.self, forKey: .payment).decode(Int.self, forKey: .quantity)
        )
    }

    /// Decodes the members other than the quantity from a transaction's container, by the rules
    /// `Transaction` decodes them with (it decodes them here): an absent original transaction
    /// is the transaction itself.
    init(_ c: KeyedDecodingContainer<Transaction.CodingKeys>, quantity: Int) throws {
        let transactionID = try c.decode(String.self, forKey: .transactionID)
        self.init(
            transactionID: transactionID,
            originalTransactionID: try c.decodeIfPresent(String.self, forKey: .originalTransactionID) ?? transactionID,
            productID: try c.decode(String.self, forKey: .productID),
            productType: try c.decode(ProductType.self, forKey: .productType), quantity: quantity,
            purchaseDate: try c.decode(Date.self, forKey: .purchaseDate),
            state: try c.decode(TransactionState.self, forKey: .state),
            revocationDate: try c.decodeIfPresent(Date.self, forKey: .revocationDate),
            commitmentInfo: try c.decodeIfPresent(Transaction.CommitmentInfo.self, forKey: .commitmentInfo))
    }

    private enum PaymentKeys: String, CodingKey {
        case quantity
    }
}
