import Foundation

/// A purchase the store reported but the app could not yet verify.
public struct UnverifiedOrder: Codable, Hashable, Sendable {
    /// The charged transaction, unfinished at the store until it is verified or removed.
    public let transaction: Transaction
    /// The app receipt at the time of the purchase, if there was one.
    public let receipt: Data?
    /// Why verification did not complete the last time.
    public var lastFailure: String
    /// How many times verification was tried.
    public var attempts: Int

    /// Creates an order waiting for verification (the engine keeps them; an app makes one for a
    /// test fixture or a preview).
    /// - Parameters:
    ///   - transaction: the charged transaction.
    ///   - receipt: the app receipt at the time of the purchase, if there was one.
    ///   - lastFailure: why verification did not complete the last time.
    ///   - attempts: how many times verification was tried.
    public init(transaction: Transaction, receipt: Data?, lastFailure: String, attempts: Int = 1) {
        self.transaction = transaction
        self.receipt = receipt
        self.lastFailure = lastFailure
        self.attempts = attempts
    }
}
