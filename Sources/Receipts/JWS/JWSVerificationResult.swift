import StoreKitValues

/// The outcome of verifying a JWS: valid with its decoded payload, or invalid with a reason.
public enum JWSVerificationResult<Payload: Hashable & Sendable>: Hashable, Sendable {
    /// The JWS is genuine.
    case valid(Payload)
    /// The JWS is not acceptable, and why.
    case invalid(JWSInvalidReason)

    /// The payload when valid.
    public var payload: Payload? {
        if case .valid(let payload) = self { return payload }
        return nil
    }

    /// The reason when invalid.
    public var reason: JWSInvalidReason? {
        if case .invalid(let reason) = self { return reason }
        return nil
    }
}
