import Foundation

/// Runs the built `storefront` executable as a real child process.
enum StorefrontProcess {
    struct Result {
        let status: Int32
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
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}
