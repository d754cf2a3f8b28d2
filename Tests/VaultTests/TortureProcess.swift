import Foundation
import TestSupport

/// Runs the built `vault-torture` executable (beside the test runner, or `$VAULT_TORTURE_BIN`)
/// without the fault points this process may have been given.
enum TortureProcess {
    static var executable: URL { BuiltProduct.vaultTorture }

    /// The fault-point variables a child must not inherit (the test sets its own).
    static let unset = ["STOREFRONT_FAULT", "STOREFRONT_FAULT_AT"]

    /// Starts the child without waiting for it.
    static func start(_ args: [String], environment extra: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess(executable, args, environment: extra, unsetting: unset)
    }

    /// Runs to completion.
    static func run(_ args: [String], environment extra: [String: String] = [:]) throws -> ChildProcess.Result {
        try start(args, environment: extra).wait()
    }

    /// Runs the child and kills it with SIGKILL once it has acknowledged `killAfter` writes
    /// (nil: let it run to the end or to its own fault point). Returns the acknowledged
    /// write numbers and how it ended.
    static func runAndKill(
        _ args: [String], killAfter: Int?, environment extra: [String: String] = [:]
    ) throws -> (acked: [Int], result: ChildProcess.Result) {
        let child = try start(args, environment: extra)
        if let killAfter, child.waitForStandardOutput(until: { acks(in: $0).count >= killAfter }) != nil {
            child.kill()
        }
        let result = child.wait()
        return (acks(in: result.stdout), result)
    }

    /// The numbers of the complete `ack N` lines in `output`, in order.
    static func acks(in output: String) -> [Int] {
        output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            line.hasPrefix("ack ") ? Int(line.dropFirst(4)) : nil
        }
    }
}
