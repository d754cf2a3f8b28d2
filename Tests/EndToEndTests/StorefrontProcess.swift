import Foundation
import TestSupport

/// Runs the built `storefront` executable as a real child process.
enum StorefrontProcess {
    typealias Result = ChildProcess.Result

    /// The built `storefront` binary: `$STOREFRONT_BIN`, else beside the test runner.
    static var executable: URL { BuiltProduct.storefront }

    /// Runs `storefront args…` to completion and returns its exit status and output.
    static func run(_ args: [String], environment: [String: String] = [:], cwd: URL? = nil) throws -> Result {
        try start(args, environment: environment, cwd: cwd).wait()
    }

    /// Starts `storefront args…` without waiting for it.
    static func start(_ args: [String], environment: [String: String] = [:], cwd: URL? = nil) throws -> ChildProcess {
        try ChildProcess(executable, args, environment: environment, currentDirectory: cwd)
    }
}
