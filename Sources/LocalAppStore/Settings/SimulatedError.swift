import StoreCore

/// An error the local store is told to return from one API, stored raw so names a newer
/// version adds survive a round trip (an unknown name fails as `.unknown`).
public struct SimulatedError: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `SKErrorUnknown`.
    public static let unknown = SimulatedError(rawValue: "unknown")
    /// `SKErrorClientInvalid`.
    public static let clientInvalid = SimulatedError(rawValue: "client-invalid")
    /// `SKErrorPaymentCancelled`.
    public static let cancelled = SimulatedError(rawValue: "cancelled")
    /// `SKErrorPaymentInvalid`.
    public static let invalid = SimulatedError(rawValue: "invalid")
    /// `SKErrorPaymentNotAllowed`.
    public static let notAllowed = SimulatedError(rawValue: "not-allowed")
    /// `SKErrorStoreProductNotAvailable`.
    public static let notAvailable = SimulatedError(rawValue: "not-available")
    /// A network failure (`SKErrorCloudServiceNetworkConnectionFailed`, `StoreKitError.networkError`).
    public static let network = SimulatedError(rawValue: "network")
    /// `StoreKitError.systemError`.
    public static let system = SimulatedError(rawValue: "system")

    /// Every name a person may set, in the order the help shows them.
    public static let all: [SimulatedError] = [
        .unknown, .clientInvalid, .cancelled, .invalid, .notAllowed, .notAvailable, .network, .system,
    ]

    public var description: String { rawValue }

    /// The engine's error this simulates, for a call about `productID` when there is one.
    public func storeError(productID: String? = nil) -> StoreError {
        switch self {
        case .clientInvalid: .clientInvalid
        case .cancelled: .paymentCancelled
        case .invalid: .paymentInvalid("simulated by the local store's settings")
        case .notAllowed: .paymentNotAllowed
        case .notAvailable: .productNotAvailable(productID: productID ?? "")
        case .network: .networkError("simulated by the local store's settings")
        case .system: .systemError("simulated by the local store's settings")
        default: .unknown("simulated by the local store's settings")
        }
    }
}
