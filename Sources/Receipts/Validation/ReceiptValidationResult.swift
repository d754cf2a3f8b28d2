import StoreKitValues

/// The outcome of validating a receipt: valid with its decoded payload, or invalid with a reason.
public enum ReceiptValidationResult: Hashable, Sendable {
    /// The receipt is genuine and matches every given expectation.
    case valid(AppReceipt)
    /// The receipt is not acceptable, and why.
    case invalid(ReceiptInvalidReason)

    /// The receipt when valid.
    public var receipt: AppReceipt? {
        if case .valid(let receipt) = self { return receipt }
        return nil
    }

    /// The reason when invalid.
    public var reason: ReceiptInvalidReason? {
        if case .invalid(let reason) = self { return reason }
        return nil
    }
}
