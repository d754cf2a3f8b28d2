/// Why a deferred transaction waits, stored raw so newer reasons survive a round trip.
public struct PendingReason: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Ask to Buy: waits for `approve` or `decline`.
    public static let askToBuy = PendingReason(rawValue: "ask-to-buy")
    /// An interrupted purchase: waits for `resolve`.
    public static let interrupted = PendingReason(rawValue: "interrupted")

    public var description: String { rawValue }
}
