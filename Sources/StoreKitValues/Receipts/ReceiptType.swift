/// The kind of receipt, from attribute 0 (Apple's `receipt_type`).
public enum ReceiptType: String, Codable, Hashable, Sendable, CaseIterable {
    /// Issued by the App Store to a customer.
    case production = "Production"
    /// Issued by the sandbox.
    case productionSandbox = "ProductionSandbox"
    /// Volume purchase program, production.
    case productionVPP = "ProductionVPP"
    /// Volume purchase program, sandbox.
    case productionVPPSandbox = "ProductionVPPSandbox"
    /// Made by Xcode's StoreKit testing (or this project's local App Store).
    case xcode = "Xcode"
}
