import Foundation

/// Runs the built `storefront` executable as a real child process.
enum StorefrontProcess {
    struct Result {
        let status: Int32
        /// Whether the process was ended by a signal (`status` is then the signal number).
        let signaled: Bool
        let stdout: String
        let stderr: String
    }

    /// The built `storefront` binary: `$STOREFRONT_BIN`, else beside the test runner
    /// in the build products directory.
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["STOREFRONT_BIN"] {
            return URL(fileURLWithPath: path)
        }
        let runner = Bundle.main.bundleURL
        let candidates = [runner, runner.deletingLastPathComponent()].map {
            $0.appendingPathComponent("storefront")
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// Runs `storefront args…` to completion and returns its exit status and output.
    static func run(_ args: [String], environment: [String: String] = [:], cwd: URL? = nil) throws -> Result {
        try start(args, environment: environment, cwd: cwd).wait()
    }

    /// A started child whose output is collected when it is waited for.
    struct Running {
        let process: Process
        let out: Pipe
        let err: Pipe

        func wait() -> Result {
            let outData = out.fileHandleForReading.readDataToEndOfFile()
            let errData = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Result(
                status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
        }
    }

    /// Starts `storefront args…` without waiting for it.
    static func start(_ args: [String], environment: [String: String] = [:], cwd: URL? = nil) throws -> Running {
        let process = Process()
        process.executableURL = executable
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let cwd { process.currentDirectoryURL = cwd }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return Running(process: process, out: out, err: err)
    }
}
