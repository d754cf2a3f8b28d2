import Foundation

/// The outcome of verifying one purchase, as an app's own server would answer.
public enum VerificationOutcome: Sendable, Hashable {
    /// The purchase is genuine: deliver it.
    case valid
    /// The purchase is not genuine: fail the transaction and finish it.
    case invalid(reason: String)
    /// Verification could not be completed (network down, server error): keep the transaction
    /// unfinished and retry later (RMStore's error 200).
    case unableToComplete(reason: String)
}

/// Verifies a purchase before the engine delivers it: against the receipt, a signed
/// transaction, or the app's own server.
public protocol PurchaseVerifier: Sendable {
    /// Whether `verify` reads the app receipt (issuing one costs time that grows with the
    /// history, so the engine fetches it only for verifiers that read it).
    var needsReceipt: Bool { get }

    /// Verifies `transaction`, given the app receipt as it is now.
    func verify(_ transaction: Transaction, receipt: Data?) async -> VerificationOutcome
}

extension PurchaseVerifier {
    /// By default a verifier reads the receipt.
    public var needsReceipt: Bool { true }
}

/// A verifier that accepts everything: verification turned off.
public struct AcceptingVerifier: PurchaseVerifier {
    /// Creates the verifier.
    public init() {}
    /// Never: it reads nothing.
    public var needsReceipt: Bool { false }
    /// Accepts the purchase.
    public func verify(_ transaction: Transaction, receipt: Data?) async -> VerificationOutcome { .valid }
}
