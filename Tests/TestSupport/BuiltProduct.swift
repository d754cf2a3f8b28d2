import Foundation

/// The package's executables as the build left them, for tests that run them as child processes.
public enum BuiltProduct {
    /// The built `storefront` binary: `$STOREFRONT_BIN`, else beside the test runner.
    public static var storefront: URL { executable("storefront", override: "STOREFRONT_BIN") }

    /// The built `vault-torture` binary (the crash-test child of VaultTests): `$VAULT_TORTURE_BIN`,
    /// else beside the test runner.
    public static var vaultTorture: URL { executable("vault-torture", override: "VAULT_TORTURE_BIN") }

    /// The built `crash-check` binary (the power-loss tests' child): `$CRASH_CHECK_BIN`, else
    /// beside the test runner.
    public static var crashCheck: URL { executable("crash-check", override: "CRASH_CHECK_BIN") }

    /// The executable `name`: the path in the environment variable `override` when it is set,
    /// else the file in the build products directory (the test runner's bundle or the
    /// directory holding it), else that directory's would-be path, so a missing build fails
    /// when the test runs it, naming the path.
    public static func executable(_ name: String, override: String) -> URL {
        if let path = ProcessInfo.processInfo.environment[override] { return URL(fileURLWithPath: path) }
        let runner = Bundle.main.bundleURL
        let candidates = [runner, runner.deletingLastPathComponent()].map { $0.appendingPathComponent(name) }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }
}
