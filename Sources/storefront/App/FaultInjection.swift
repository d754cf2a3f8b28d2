import Foundation
import StoreCore
import StoreTesting
import Synchronization
import SystemIO

/// The test-only fault hooks of the environment:
/// - `STOREFRONT_FAULT=POINT` makes the process kill itself with SIGKILL at that point, so tests
///   can prove that nothing acknowledged is lost and nothing is delivered twice;
/// - `STOREFRONT_FAIL_IO=OPERATION:CALL:ERRNO[,…]` makes the CALL-th call of a file operation
///   fail with an error number (SystemIO's `FaultInjectingFileSystem`), so tests can prove a
///   failing disk gives a clear message naming the file, exit 1, and loses nothing.
enum FaultInjection {
    /// The fault points Docs/cli.md and CONTRIBUTING.md document.
    static let points: [FaultPoint] = [.beforeCharge, .afterCharge, .beforeFinish, .midDownload, .midVaultWrite]

    /// The error numbers `STOREFRONT_FAIL_IO` accepts, by name.
    static let errnos: [(name: String, errno: Errno)] = [
        ("EIO", .ioError), ("ENOSPC", .noSpace), ("EDQUOT", .quotaExceeded), ("EACCES", .accessDenied),
        ("EPERM", .notPermitted), ("EROFS", .readOnlyFileSystem),
    ]

    /// The hook for `environment`: does nothing unless `STOREFRONT_FAULT` names a point.
    /// - Throws: `CLIError.usage` when the variable names no known point.
    static func hook(environment: [String: String]) throws(CLIError) -> FaultHook {
        guard let name = environment["STOREFRONT_FAULT"], !name.isEmpty else { return { _ in } }
        guard let point = points.first(where: { $0.rawValue == name }) else {
            throw .usage(
                "STOREFRONT_FAULT=\(name) names no fault point; use one of \(points.map(\.rawValue).joined(separator: ", "))."
            )
        }
        return { reached in
            if reached == point { CurrentProcess.killImmediately() }
        }
    }

    /// The failing file system the last `fileSystem(environment:)` made, so in-process tests
    /// can read its call counts (how far a command's calls go).
    static let lastFaulty = Mutex<FaultInjectingFileSystem?>(nil)

    /// The file system for `environment`: the real one, or one that fails as
    /// `STOREFRONT_FAIL_IO` says (calls are counted from the start of the command). `CALL` may
    /// end with `+` for "that call and every later one" (a dying disk).
    /// - Throws: `CLIError.usage` naming what is wrong with the variable.
    static func fileSystem(environment: [String: String]) throws(CLIError) -> any FileSystem {
        guard let value = environment["STOREFRONT_FAIL_IO"], !value.isEmpty else { return POSIXFileSystem() }
        let faulty = FaultInjectingFileSystem()
        for rule in value.split(separator: ",") {
            let parts = rule.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            let operations = FaultInjectingFileSystem.Operation.allCases.map(\.rawValue).joined(separator: ", ")
            guard parts.count == 3 else {
                throw .usage(
                    "STOREFRONT_FAIL_IO=\(value): '\(rule)' is not OPERATION:CALL:ERRNO (for example write:3:ENOSPC).")
            }
            guard let operation = FaultInjectingFileSystem.Operation(rawValue: parts[0]) else {
                throw .usage(
                    "STOREFRONT_FAIL_IO=\(value): '\(parts[0])' is no file operation; use one of \(operations).")
            }
            let repeating = parts[1].hasSuffix("+")
            guard let call = Int(repeating ? String(parts[1].dropLast()) : parts[1]), call >= 1 else {
                throw .usage(
                    "STOREFRONT_FAIL_IO=\(value): the call number '\(parts[1])' is not a whole number from 1 (with an optional +)."
                )
            }
            guard let errno = errnos.first(where: { $0.name == parts[2].uppercased() })?.errno else {
                throw .usage(
                    "STOREFRONT_FAIL_IO=\(value): '\(parts[2])' is not one of \(errnos.map(\.name).joined(separator: ", "))."
                )
            }
            faulty.fail(operation, onCall: call, with: errno, repeating: repeating)
        }
        lastFaulty.withLock { $0 = faulty }
        return faulty
    }
}
