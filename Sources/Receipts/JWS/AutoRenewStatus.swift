/// Whether a subscription will renew (Apple's `autoRenewStatus`).
public enum AutoRenewStatus: Int32, Codable, Hashable, Sendable, CaseIterable {
    /// Automatic renewal is off.
    case off = 0
    /// Automatic renewal is on.
    case on = 1
}
