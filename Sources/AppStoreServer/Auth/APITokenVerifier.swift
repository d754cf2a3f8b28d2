import Crypto
import Foundation
import Receipts
import Synchronization

/// Checks the `Authorization: Bearer` JWT of an App Store Server API request as Apple does:
/// ES256 over the API key, header `alg` ES256 with the key's `kid` (and `typ` JWT when
/// present), payload `iss` the issuer ID, `aud` `appstoreconnect-v1`, `bid` the bundle ID,
/// `exp` in the future and at most 60 minutes after `iat` (or after now, when the token has no
/// `iat`: Apple's own Python library sends none).
public struct APITokenVerifier: Sendable {
    /// Why a token was refused (the server answers 401 with no body for each).
    public enum Rejection: Error, Hashable, Sendable {
        /// No `Authorization: Bearer` header.
        case missing
        /// Not three base64url parts of JSON.
        case malformed(String)
        /// `alg` is not ES256, or `typ` is not JWT.
        case wrongAlgorithm
        /// `kid` is not the key's ID.
        case wrongKey
        /// The signature does not check with the key.
        case badSignature
        /// `iss` is not the issuer ID.
        case wrongIssuer
        /// `aud` is not `appstoreconnect-v1`.
        case wrongAudience
        /// `bid` is not the app's bundle ID.
        case wrongBundle
        /// `exp` has passed, is missing, or is more than 60 minutes after `iat`.
        case expired
        /// `iat` is in the future.
        case notYetValid
    }

    /// The audience Apple's API requires.
    public static let audience = "appstoreconnect-v1"
    /// The longest a token may live.
    public static let maximumLifetime: TimeInterval = 3600
    /// Clock skew tolerated for `iat` in the future.
    public static let allowedSkew: TimeInterval = 60

    /// The key's ID.
    public let keyID: String
    /// The issuer ID.
    public let issuerID: String
    /// The app's bundle ID.
    public let bundleID: String
    private let publicKey: PublicKey
    /// Tokens already verified, with their expiry: a backend reuses a token for many requests,
    /// and an ECDSA check costs more than the rest of a request. Only `exp` is checked again.
    private let verified = VerifiedTokens()

    private final class VerifiedTokens: Sendable {
        let expiries = Mutex<[String: Double]>([:])
        static let limit = 10_000
    }

    /// Creates a verifier for one key, issuer and app.
    public init(keyID: String, issuerID: String, bundleID: String, publicKey: PublicKey) {
        self.keyID = keyID
        self.issuerID = issuerID
        self.bundleID = bundleID
        self.publicKey = publicKey
    }

    private struct Header: Decodable {
        let alg: String?
        let kid: String?
        let typ: String?
    }

    private struct Claims: Decodable {
        let iss: String?
        let iat: Double?
        let exp: Double?
        let aud: Audience?
        let bid: String?
    }

    /// `aud` may be a string or an array of strings (RFC 7519 §4.1.3).
    private enum Audience: Decodable {
        case one(String)
        case many([String])
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                self = .one(one)
            } else {
                self = .many(try container.decode([String].self))
            }
        }
        var values: [String] {
            switch self {
            case .one(let value): [value]
            case .many(let values): values
            }
        }
    }

    /// Checks the `Authorization` header's value at `now`.
    public func verify(authorization: String?, now: Date) -> Result<Void, Rejection> {
        // A text of fewer UTF-8 bytes has fewer Characters: counting them is needed only past that.
        guard let authorization, authorization.utf8.count < 16_384 || authorization.count < 16_384 else {
            return .failure(.missing)
        }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return .failure(.missing) }
        let token = String(parts[1])
        if let exp = verified.expiries.withLock({ $0[token] }) {
            return exp > now.timeIntervalSince1970 ? .success(()) : .failure(.expired)
        }
        let result = check(token, now: now)
        if case .success(let exp) = result {
            verified.expiries.withLock { cache in
                if cache.count >= VerifiedTokens.limit { cache.removeAll(keepingCapacity: true) }
                cache[token] = exp
            }
        }
        return result.map { _ in () }
    }

    /// The whole check of one token; returns its `exp`.
    private func check(_ token: String, now: Date) -> Result<Double, Rejection> {
        let segments = JWSText.parts(JWSText.trimmingWhitespace(token, andNewlines: false))
        guard segments.count == 3, let headerBytes = Base64URL.decode(segments[0]),
            let claimBytes = Base64URL.decode(segments[1]),
            let signature = Base64URL.decode(segments[2])
        else { return .failure(.malformed("not a compact JWS")) }
        let decoder = JSONDecoder()
        guard let header = try? decoder.decode(Header.self, from: Data(headerBytes)),
            let claims = try? decoder.decode(Claims.self, from: Data(claimBytes))
        else {
            return .failure(.malformed("header or payload is not JSON"))
        }
        guard header.alg == "ES256", header.typ == nil || header.typ == "JWT" else { return .failure(.wrongAlgorithm) }
        guard header.kid == keyID else { return .failure(.wrongKey) }
        let signingInput = Array((segments[0] + "." + segments[1]).utf8)
        guard (try? ECDSA.verifyES256(signature: signature, message: signingInput, publicKey: publicKey)) == true else {
            return .failure(.badSignature)
        }
        guard claims.iss == issuerID else { return .failure(.wrongIssuer) }
        guard claims.aud?.values.contains(Self.audience) == true else { return .failure(.wrongAudience) }
        guard claims.bid == bundleID else { return .failure(.wrongBundle) }
        let nowSeconds = now.timeIntervalSince1970
        guard let exp = claims.exp, exp > nowSeconds else { return .failure(.expired) }
        if let iat = claims.iat {
            guard iat <= nowSeconds + Self.allowedSkew else { return .failure(.notYetValid) }
            guard exp - iat <= Self.maximumLifetime else { return .failure(.expired) }
        } else {
            guard exp - nowSeconds <= Self.maximumLifetime else { return .failure(.expired) }
        }
        return .success(exp)
    }
}
