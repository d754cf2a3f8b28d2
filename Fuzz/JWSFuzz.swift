import Crypto
import Foundation

@testable import AppStoreServer
@testable import Receipts

// libFuzzer target for the JWS and JWT parsers with their verification (`make fuzz`): Receipts'
// `JWSVerifier` (compact form, base64url, the header and its x5c chain read by OpenSSL, the ES256
// signature, the payload's JSON, the chain's dates and Apple's markers) for signed transactions,
// renewal info and app transactions, against a trusted root and in Xcode's self-signed mode; and
// the App Store Server's `APITokenVerifier` (the bearer JWT every API request carries). Built
// against the package's modules compiled with `-sanitize=fuzzer,address` (Makefile).
//
// The trusted root, the API key and its IDs are the store's that signed the seeds in
// Fuzz/seeds/jws (Fuzz/seeds/jws-trust). Invariants: a payload that verifies encodes again;
// a token is judged the same when asked twice (the second answer comes from the verifier's cache
// of accepted tokens, or from checking again).

@_cdecl("LLVMFuzzerTestOneInput")
public func jwsFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    let trust = Trust.shared
    for verifier in [trust.chain, trust.xcode] {
        if case .valid(let payload) = verifier.verifyTransaction(text) {
            check((try? JWSCoding.encode(payload)) != nil, "a verified transaction does not encode")
        }
        if case .valid(let payload) = verifier.verifyRenewalInfo(text) {
            check((try? JWSCoding.encode(payload)) != nil, "verified renewal info does not encode")
        }
        if case .valid(let payload) = verifier.verifyAppTransaction(text) {
            check((try? JWSCoding.encode(payload)) != nil, "a verified app transaction does not encode")
        }
    }
    let first = trust.tokens.verify(authorization: "Bearer " + text, now: trust.now)
    let second = trust.tokens.verify(authorization: "Bearer " + text, now: trust.now)
    check(first.succeeded == second.succeeded, "a token judged \(first) then \(second)")
    _ = trust.tokens.verify(authorization: text, now: trust.now)
    return 0
}

/// The root, key and IDs the seeds were made with (`Fuzz/seeds/jws-trust`, or `$JWS_FUZZ_TRUST`).
private final class Trust: Sendable {
    static let shared = Trust()

    let chain: JWSVerifier
    let xcode: JWSVerifier
    let tokens: APITokenVerifier
    /// The seeds' tokens were issued at 2026-01-01T00:00:00Z and live 10 or 30 minutes.
    let now = Date(timeIntervalSince1970: 1_767_225_660)

    private init() {
        let directory = ProcessInfo.processInfo.environment["JWS_FUZZ_TRUST"] ?? "Fuzz/seeds/jws-trust"
        do {
            let root = try Data(contentsOf: URL(fileURLWithPath: directory + "/root.cer"))
            chain = try JWSVerifier(trustedRoots: [Array(root)])
            xcode = try JWSVerifier(trustedRoots: [], trustXcodeSelfSigned: true)
            let credentials = APICredentials(
                keyID: "TE4MWLZR3C", issuerID: "1a0c36c9-c743-4179-9c77-2e94dbb3bcd3",
                keyPath: directory + "/api-key.p8")
            tokens = APITokenVerifier(
                keyID: credentials.keyID, issuerID: credentials.issuerID, bundleID: "com.storefront.demo",
                publicKey: try credentials.publicKey())
        } catch {
            fatalError("the JWS fuzz harness cannot read \(directory): \(error)")
        }
    }
}

extension Result {
    fileprivate var succeeded: Bool {
        if case .success = self { return true }
        return false
    }
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("JWS fuzz invariant broken: \(message())") }
}
