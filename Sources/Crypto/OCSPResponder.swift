import COpenSSL
import Foundation

/// Answers OCSP requests (RFC 6960) for the certificates some CAs issued, through OpenSSL's
/// OCSP functions: each certificate the request names is `good` when one of the CAs issued
/// it (none is ever revoked) and `unknown` when the CA is one of them but the serial is not;
/// the response is signed by that CA's own key and identifies it by key hash, as Apple's
/// verifiers expect of a CA answering for itself.
public struct OCSPResponder: Sendable {
    /// A CA that answers for the certificates it issued.
    public struct Authority: Sendable {
        /// The CA's certificate (any certificate of its key and name: re-issued ones are alike).
        public let certificate: X509Certificate
        /// The CA's private key, which signs the answers about what it issued.
        public let key: PrivateKey
        /// Every certificate it issued.
        public let issued: [X509Certificate]

        /// Creates an authority.
        public init(certificate: X509Certificate, key: PrivateKey, issued: [X509Certificate]) {
            self.certificate = certificate
            self.key = key
            self.issued = issued
        }
    }

    /// The CAs that answer.
    public let authorities: [Authority]
    /// How long an answer may be relied on: its `nextUpdate` is this long after `thisUpdate`.
    public let validity: TimeInterval

    /// Creates a responder.
    /// - Parameters:
    ///   - authorities: the CAs that answer, each for what it issued.
    ///   - validity: the time from an answer's `thisUpdate` to its `nextUpdate` (12 hours by default).
    public init(authorities: [Authority], validity: TimeInterval = 12 * 3600) {
        self.authorities = authorities
        self.validity = validity
    }

    /// Answers a DER `OCSPRequest` with a DER `OCSPResponse`: `successful` with a signed basic
    /// response (the request's nonce copied), `malformedRequest` when the bytes are not a
    /// request naming at least one certificate, `unauthorized` when no CA here issued them, and
    /// `internalError` when OpenSSL cannot build the answer. It never throws: every request
    /// gets a response an OCSP client can read.
    /// - Parameters:
    ///   - requestDER: the body of an OCSP POST (`application/ocsp-request`).
    ///   - now: the answer's `thisUpdate` (the server's wall clock: clients compare it with theirs).
    public func respond(to requestDER: Data, at now: Date) -> Data {
        defer { ERR_clear_error() }
        let bytes = Array(requestDER)
        let parsed: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_OCSP_REQUEST(nil, &cursor, buffer.count)
        }
        guard let request = parsed else { return Self.status(OCSP_RESPONSE_STATUS_MALFORMEDREQUEST) }
        defer { OCSP_REQUEST_free(request) }
        let count = OCSP_request_onereq_count(request)
        guard count > 0 else { return Self.status(OCSP_RESPONSE_STATUS_MALFORMEDREQUEST) }
        var answers: [(id: OpaquePointer, status: Int32, authority: Int?)] = []
        for index in 0..<count {
            guard let one = OCSP_request_onereq_get0(request, index), let id = OCSP_onereq_get0_id(one) else {
                return Self.status(OCSP_RESPONSE_STATUS_MALFORMEDREQUEST)
            }
            guard let match = lookUp(id) else { return Self.status(OCSP_RESPONSE_STATUS_MALFORMEDREQUEST) }
            answers.append((id, match.status, match.authority))
        }
        guard let signerIndex = answers.compactMap(\.authority).first else {
            return Self.status(OCSP_RESPONSE_STATUS_UNAUTHORIZED)
        }
        let signer = authorities[signerIndex]
        guard let basic = OCSP_BASICRESP_new() else { return Self.status(OCSP_RESPONSE_STATUS_INTERNALERROR) }
        defer { OCSP_BASICRESP_free(basic) }
        let start = time_t(now.timeIntervalSince1970.rounded(.down))
        guard let thisUpdate = ASN1_GENERALIZEDTIME_set(nil, start) else {
            return Self.status(OCSP_RESPONSE_STATUS_INTERNALERROR)
        }
        defer { ASN1_GENERALIZEDTIME_free(thisUpdate) }
        guard let nextUpdate = ASN1_GENERALIZEDTIME_set(nil, start + time_t(validity.rounded())) else {
            return Self.status(OCSP_RESPONSE_STATUS_INTERNALERROR)
        }
        defer { ASN1_GENERALIZEDTIME_free(nextUpdate) }
        for answer in answers {
            // A certificate of another CA in the same request cannot be answered under this
            // signer's name: it is "unknown" here.
            let status = answer.authority == signerIndex ? answer.status : Int32(V_OCSP_CERTSTATUS_UNKNOWN)
            guard OCSP_basic_add1_status(basic, answer.id, status, 0, nil, thisUpdate, nextUpdate) != nil else {
                return Self.status(OCSP_RESPONSE_STATUS_INTERNALERROR)
            }
        }
        guard OCSP_copy_nonce(basic, request) > 0,
            OCSP_basic_sign(
                basic, signer.certificate.pointer, signer.key.pointer, EVP_sha256(), nil,
                UInt(OCSP_NOCERTS | OCSP_RESPID_KEY)) == 1,
            let response = OCSP_response_create(OCSP_RESPONSE_STATUS_SUCCESSFUL, basic)
        else { return Self.status(OCSP_RESPONSE_STATUS_INTERNALERROR) }
        defer { OCSP_RESPONSE_free(response) }
        return Self.encode(response) ?? Self.status(OCSP_RESPONSE_STATUS_INTERNALERROR)
    }

    /// Which CA issued the certificate `id` names and what to say about it; nil when the
    /// request's hash algorithm is unknown to OpenSSL.
    private func lookUp(_ id: OpaquePointer) -> (status: Int32, authority: Int?)? {
        var algorithm: OpaquePointer?
        guard OCSP_id_get0_info(nil, &algorithm, nil, nil, id) == 1, let algorithm,
            let name = OBJ_nid2sn(OBJ_obj2nid(algorithm)), let digest = EVP_get_digestbyname(name)
        else { return nil }
        for (index, authority) in authorities.enumerated() {
            guard let issuerID = OCSP_cert_to_id(digest, nil, authority.certificate.pointer) else { continue }
            defer { OCSP_CERTID_free(issuerID) }
            guard OCSP_id_issuer_cmp(issuerID, id) == 0 else { continue }
            for certificate in authority.issued {
                guard let candidate = OCSP_cert_to_id(digest, certificate.pointer, authority.certificate.pointer) else {
                    continue
                }
                defer { OCSP_CERTID_free(candidate) }
                if OCSP_id_cmp(candidate, id) == 0 { return (Int32(V_OCSP_CERTSTATUS_GOOD), index) }
            }
            return (Int32(V_OCSP_CERTSTATUS_UNKNOWN), index)
        }
        return (Int32(V_OCSP_CERTSTATUS_UNKNOWN), nil)
    }

    /// A response with only a status (no signed body), as RFC 6960 sends errors.
    private static func status(_ status: Int32) -> Data {
        guard let response = OCSP_response_create(status, nil) else { return Data() }
        defer { OCSP_RESPONSE_free(response) }
        return encode(response) ?? Data()
    }

    private static func encode(_ response: OpaquePointer) -> Data? {
        (try? DER.encode("i2d_OCSP_RESPONSE") { i2d_OCSP_RESPONSE(response, $0) }).map { Data($0) }
    }
}
