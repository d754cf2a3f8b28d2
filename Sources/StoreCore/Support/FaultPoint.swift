/// A named point where tests kill the real process (`STOREFRONT_FAULT=POINT`).
///
/// Libraries never read the environment: they call an injected `FaultHook` at each point,
/// and the `storefront` executable maps the variable to `SIGKILL`.
public struct FaultPoint: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The store queued the payment (durably) and has not charged it yet.
    public static let beforeCharge = FaultPoint(rawValue: "before-charge")
    /// The store recorded the charge; the app has not heard of it yet.
    public static let afterCharge = FaultPoint(rawValue: "after-charge")
    /// The app recorded the purchase; the store has not been told to finish it.
    public static let beforeFinish = FaultPoint(rawValue: "before-finish")
    /// Part of a hosted-content download is on disk.
    public static let midDownload = FaultPoint(rawValue: "mid-download")
    /// Part of a vault record is on disk.
    public static let midVaultWrite = FaultPoint(rawValue: "mid-vault-write")

    public var description: String { rawValue }
}

/// Called at every fault point; the production default does nothing.
public typealias FaultHook = @Sendable (FaultPoint) -> Void
