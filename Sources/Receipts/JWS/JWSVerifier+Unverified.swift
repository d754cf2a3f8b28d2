import Foundation
import StoreKitValues

extension JWSVerifier {
    /// Decodes the payload of an App Store JWS without checking its signature or chain, as
    /// StoreKit 2's `VerificationResult.unsafePayloadValue` gives what an unverified JWS says.
    /// - Returns: the payload, or why the JWS cannot be read (`.malformed`, `.unreadablePayload`).
    public static func decodeUnverifiedPayload<Payload: Decodable>(
        _ jws: String, as type: Payload.Type
    ) -> Result<Payload, JWSInvalidReason> {
        let parts = JWSText.parts(JWSText.trimmingWhitespace(jws, andNewlines: true))
        guard parts.count == 3 else {
            return .failure(.malformed("expected 3 dot-separated parts, found \(parts.count)"))
        }
        guard let payloadBytes = Base64URL.decode(parts[1]) else {
            return .failure(.malformed("the payload is not base64url"))
        }
        do {
            return .success(try JWSCoding.decoder().decode(Payload.self, from: Data(payloadBytes)))
        } catch {
            return .failure(.unreadablePayload("\(error)"))
        }
    }
}
