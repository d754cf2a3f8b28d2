import Foundation
import SystemIO

/// Runs the built `vault-torture` executable (beside the test runner, or `$VAULT_TORTURE_BIN`).
enum TortureProcess {
    struct Result {
        let status: Int32
        let signalled: Bool
        let stdout: String
        let stderr: String
    }

    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["VAULT_TORTURE_BIN"] {
            return URL(fileURLWithPath: path)
        }
        let runner = Bundle.main.bundleURL
        let candidates = [runner, runner.deletingLastPathComponent()].map { $0.appendingPathComponent("vault-torture") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    static func environment(_ extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["STOREFRONT_FAULT"] = nil
        env["STOREFRONT_FAULT_AT"] = nil
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// Runs to completion.
    static func run(_ args: [String], environment extra: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = args
        process.environment = environment(extra)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs the child and kills it with SIGKILL once it has acknowledged `killAfter` writes
    /// (nil: let it run to the end or to its own fault point). Returns the acknowledged
    /// write numbers and how it ended.
    static func runAndKill(_ args: [String], killAfter: Int?, environment extra: [String: String] = [:]) throws -> (acked: [Int], result: Result) {
        let process = Process()
        process.executableURL = executable
        process.arguments = args
        process.environment = environment(extra)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        var acked: [Int] = []
        var pending = Data()
        var killed = false
        let reader = out.fileHandleForReading
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if line.hasPrefix("ack "), let n = Int(line.dropFirst(4)) { acked.append(n) }
            }
            if let killAfter, !killed, acked.count >= killAfter {
                try? CurrentProcess.send(.kill, to: process.processIdentifier)
                killed = true
            }
        }
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (acked, Result(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal,
            stdout: "", stderr: String(decoding: errData, as: UTF8.self)))
    }
}
