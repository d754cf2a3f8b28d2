import Crypto
import Foundation
import StoreKitValues

/// Verifies App Store JWS: `alg` is ES256, the signature checks with the `x5c` leaf, and the
/// chain ends at a trusted root at the payload's `signedDate` (or a given date). Xcode's single
/// self-signed certificate is accepted only when the verifier is told to trust it.
public struct JWSVerifier: Sendable {
    /// The extension Apple puts on JWS signing certificates.
    public static let leafMarker = "1.2.840.113635.100.6.11.1"
    /// The extension Apple puts on its WWDR intermediate.
    public static let intermediateMarker = "1.2.840.113635.100.6.2.1"

    private let roots: [X509Certificate]
    private let trustsXcodeSelfSigned: Bool
    private let requiresMarkers: Bool

    /// Creates a verifier.
    /// - Parameters:
    ///   - trustedRoots: DER or PEM encodings of the roots to trust.
    ///   - trustXcodeSelfSigned: accept a JWS whose `x5c` is one self-signed certificate, as Xcode signs.
    ///   - requireMarkers: below a trusted root, the leaf must carry `leafMarker` and the
    ///     intermediate `intermediateMarker`, as Apple's own library checks.
    /// - Throws: `ReceiptValidatorError` when no root is given and Xcode's case is not trusted either,
    ///   or a root cannot be read.
    public init(
        trustedRoots: [[UInt8]], trustXcodeSelfSigned: Bool = false, requireMarkers: Bool = true
    ) throws(ReceiptValidatorError) {
        guard !trustedRoots.isEmpty || trustXcodeSelfSigned else { throw .noTrustedRoot }
        self.roots = try TrustedRoots.certificates(trustedRoots)
        self.trustsXcodeSelfSigned = trustXcodeSelfSigned
        self.requiresMarkers = requireMarkers
    }

    /// Verifies a signed transaction.
    /// - Parameter date: when to check the certificates; nil means the payload's `signedDate`.
    public func verifyTransaction(
        _ jws: String, at date: Date? = nil
    ) -> JWSVerificationResult<JWSTransactionDecodedPayload> {
        verify(jws, as: JWSTransactionDecodedPayload.self, signedDate: \.signedDate, at: date)
    }

    /// Verifies a subscription's signed renewal info.
    /// - Parameter date: when to check the certificates; nil means the payload's `signedDate`.
    public func verifyRenewalInfo(
        _ jws: String, at date: Date? = nil
    ) -> JWSVerificationResult<JWSRenewalInfoDecodedPayload> {
        verify(jws, as: JWSRenewalInfoDecodedPayload.self, signedDate: \.signedDate, at: date)
    }

    /// Verifies a signed app transaction.
    /// - Parameter date: when to check the certificates; nil means the payload's `signedDate`,
    ///   else its `receiptCreationDate` (as Apple's library does).
    public func verifyAppTransaction(
        _ jws: String, at date: Date? = nil
    ) -> JWSVerificationResult<JWSAppTransactionDecodedPayload> {
        verify(
            jws, as: JWSAppTransactionDecodedPayload.self, signedDate: { $0.signedDate ?? $0.receiptCreationDate },
            at: date)
    }

    /// Verifies any App Store JWS and decodes its payload as `Payload`.
    public func verify<Payload: Decodable & Hashable & Sendable>(
        _ jws: String, as type: Payload.Type, signedDate: (Payload) -> Date?, at date: Date?
    ) -> JWSVerificationResult<Payload> {
        let parts = JWSText.parts(JWSText.trimmingWhitespace(jws, andNewlines: true))
        guard parts.count == 3 else {
            return .invalid(.malformed("expected 3 dot-separated parts, found \(parts.count)"))
        }
        guard let headerBytes = Base64URL.decode(parts[0]) else {
            return .invalid(.malformed("the header is not base64url"))
        }
        guard let payloadBytes = Base64URL.decode(parts[1]) else {
            return .invalid(.malformed("the payload is not base64url"))
        }
        guard let signature = Base64URL.decode(parts[2]) else {
            return .invalid(.malformed("the signature is not base64url"))
        }
        let header: JWSHeader
        do {
            header = try JSONDecoder().decode(JWSHeader.self, from: Data(headerBytes))
        } catch {
            return .invalid(.malformed("the header is not a JWS header: \(error)"))
        }
        guard header.alg == "ES256" else { return .invalid(.unsupportedAlgorithm(header.alg)) }
        guard let x5c = header.x5c, !x5c.isEmpty else { return .invalid(.missingCertificateChain) }
        var chain: [X509Certificate] = []
        for (index, text) in x5c.enumerated() {
            guard let der = Data(base64Encoded: text) else {
                return .invalid(.unreadableCertificate(index: index, reason: "not base64"))
            }
            do {
                chain.append(try X509Certificate(der: Array(der)))
            } catch {
                return .invalid(.unreadableCertificate(index: index, reason: error.reason))
            }
        }
        let leaf = chain[0]
        let signingInput = Array((parts[0] + "." + parts[1]).utf8)
        guard (try? ECDSA.verifyES256(signature: signature, message: signingInput, certificate: leaf)) == true else {
            return .invalid(.signatureMismatch)
        }
        let payload: Payload
        do {
            payload = try JWSCoding.decoder().decode(Payload.self, from: Data(payloadBytes))
        } catch {
            return .invalid(.unreadablePayload("\(error)"))
        }
        if chain.count == 1, trustsXcodeSelfSigned, leaf.isSelfSigned {
            return .valid(payload)
        }
        guard let checkedAt = date ?? signedDate(payload) else {
            return .invalid(.unreadablePayload("no signedDate, and no verification date was given"))
        }
        guard !roots.isEmpty else {
            return .invalid(.untrustedChain(subject: leaf.subject, reason: "no trusted root is configured"))
        }
        let failure: CertificateChain.Failure?
        do {
            failure = try CertificateChain.verify(
                leaf: leaf, intermediates: Array(chain.dropFirst()), trustedRoots: roots, at: checkedAt)
        } catch {
            return .invalid(.invalidCertificate(subject: leaf.subject, reason: error.description))
        }
        switch failure {
        case nil:
            if requiresMarkers, !roots.contains(leaf) {
                if !leaf.hasExtension(oid: Self.leafMarker) {
                    return .invalid(.certificateNotAuthorized(subject: leaf.subject, missingMarker: Self.leafMarker))
                }
                if chain.count >= 3, !roots.contains(chain[1]), !chain[1].hasExtension(oid: Self.intermediateMarker) {
                    return .invalid(
                        .certificateNotAuthorized(subject: chain[1].subject, missingMarker: Self.intermediateMarker))
                }
            }
            return .valid(payload)
        case let failure?:
            return .invalid(.chain(failure, checkedAt: checkedAt))
        }
    }
}
