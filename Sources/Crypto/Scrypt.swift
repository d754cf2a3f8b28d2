import COpenSSL
import Foundation

/// The scrypt password-based key derivation function (RFC 7914) through `EVP_PBE_scrypt`.
public enum Scrypt {
    /// The cost parameters of one derivation. Stored in files, so validate them against
    /// `Limits` before deriving.
    public struct Parameters: Sendable, Hashable {
        /// log2 of the CPU/memory cost N (N = 2^log2N).
        public var log2N: UInt8
        /// The block size r.
        public var r: UInt32
        /// The parallelism p.
        public var p: UInt32
        /// The memory ceiling handed to OpenSSL (`maxmem`), in bytes.
        public var maxMemory: UInt64

        /// Creates parameters.
        public init(log2N: UInt8, r: UInt32, p: UInt32, maxMemory: UInt64) {
            self.log2N = log2N
            self.r = r
            self.p = p
            self.maxMemory = maxMemory
        }

        /// The interactive-login strength recommended for new files: N = 2^17, r = 8, p = 1
        /// (128 MiB), with `maxMemory` just above what that needs.
        public static let interactive = Parameters(log2N: 17, r: 8, p: 1, maxMemory: 129 * 1024 * 1024 + 4096)

        /// Bytes scrypt needs for these parameters (128·r·(N + p + 2)), or `nil` on overflow.
        public var requiredMemory: UInt64? {
            guard log2N < 64 else { return nil }
            let n = UInt64(1) << UInt64(log2N)
            let (a, o1) = n.addingReportingOverflow(UInt64(p) + 2)
            let (b, o2) = a.multipliedReportingOverflow(by: 128)
            let (c, o3) = b.multipliedReportingOverflow(by: UInt64(r))
            return o1 || o2 || o3 ? nil : c
        }
    }

    /// Upper bounds a caller accepts for parameters read from untrusted input.
    public struct Limits: Sendable, Hashable {
        /// The largest log2 N accepted.
        public var maxLog2N: UInt8
        /// The largest r accepted.
        public var maxR: UInt32
        /// The largest p accepted.
        public var maxP: UInt32
        /// The largest memory accepted, in bytes.
        public var maxMemory: UInt64

        /// N ≤ 2^20, r ≤ 32, p ≤ 16, memory ≤ 1 GiB.
        public static let `default` = Limits(maxLog2N: 20, maxR: 32, maxP: 16, maxMemory: 1 << 30)
    }

    /// Why a parameter set was rejected; `description` names the field and the limit.
    public struct ParameterError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The offending field (`log2N`, `r`, `p`, `maxMemory`).
        public let field: String
        /// What is wrong with it.
        public let problem: String
        /// Field and problem in one line.
        public var description: String { "scrypt \(field): \(problem)" }
    }

    /// Checks `parameters` against `limits` without doing any work.
    /// - Throws: `ParameterError` naming the first field out of bounds.
    public static func validate(_ parameters: Parameters, limits: Limits) throws(ParameterError) {
        guard parameters.log2N >= 1 else { throw ParameterError(field: "log2N", problem: "must be at least 1") }
        guard parameters.log2N <= limits.maxLog2N else {
            throw ParameterError(field: "log2N", problem: "\(parameters.log2N) exceeds the limit \(limits.maxLog2N)")
        }
        guard parameters.r >= 1, parameters.r <= limits.maxR else {
            throw ParameterError(field: "r", problem: "\(parameters.r) is outside 1...\(limits.maxR)")
        }
        guard parameters.p >= 1, parameters.p <= limits.maxP else {
            throw ParameterError(field: "p", problem: "\(parameters.p) is outside 1...\(limits.maxP)")
        }
        guard parameters.maxMemory <= limits.maxMemory else {
            throw ParameterError(
                field: "maxMemory", problem: "\(parameters.maxMemory) bytes exceeds the limit \(limits.maxMemory)")
        }
        guard let needed = parameters.requiredMemory, needed <= parameters.maxMemory else {
            throw ParameterError(
                field: "maxMemory",
                problem:
                    "\(parameters.maxMemory) bytes is less than the \(parameters.requiredMemory.map(String.init) ?? "overflowing") bytes these parameters need"
            )
        }
    }

    /// Derives `count` bytes from `password` and `salt`.
    /// - Throws: `ParameterError` (wrapped in `CryptoError`) when the parameters are outside
    ///   `limits` — checked before any work — or `CryptoError` if OpenSSL fails.
    public static func derive(
        password: SecureBytes, salt: [UInt8], parameters: Parameters, limits: Limits = .default, count: Int
    ) throws -> SecureBytes {
        do { try validate(parameters, limits: limits) } catch {
            throw CryptoError("scrypt", reason: error.description)
        }
        guard count > 0 else { throw CryptoError("scrypt", reason: "output length must be positive") }
        var out = [UInt8](repeating: 0, count: count)
        defer { out.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) } }
        // OpenSSL wants non-null pointers even for empty inputs.
        let emptyPassword: [CChar] = [0]
        let emptySalt: [UInt8] = [0]
        let ok = password.withUnsafeBytes { pass in
            salt.withUnsafeBufferPointer { saltBytes in
                emptyPassword.withUnsafeBufferPointer { noPassword in
                    emptySalt.withUnsafeBufferPointer { noSalt in
                        out.withUnsafeMutableBufferPointer { key in
                            EVP_PBE_scrypt(
                                pass.baseAddress?.assumingMemoryBound(to: CChar.self) ?? noPassword.baseAddress,
                                pass.count,
                                saltBytes.baseAddress ?? noSalt.baseAddress,
                                saltBytes.count,
                                UInt64(1) << UInt64(parameters.log2N), UInt64(parameters.r), UInt64(parameters.p),
                                parameters.maxMemory, key.baseAddress, count)
                        }
                    }
                }
            }
        }
        guard ok == 1 else { throw CryptoError("EVP_PBE_scrypt") }
        return SecureBytes(out)
    }
}

extension Scrypt.ParameterError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
