import Foundation
import TestSupport
import Testing

/// The built `storefront` on a data directory of its own, in a fresh temporary directory that
/// goes when the value does, and the JSON its commands print read back.
struct StorefrontCLI {
    let scratch: TemporaryDirectory
    var data: URL { scratch.url.appendingPathComponent("data") }
    /// The `--catalog` every command is given, if not the bundled one.
    var catalog: URL?

    /// A new data directory. With `instant`, the store answers without its simulated latency
    /// (`store set latency 0`), as most suites want.
    init(prefix: String, instant: Bool = true) throws {
        scratch = try TemporaryDirectory(prefix: prefix)
        if instant { try set([("latency", "0")]) }
    }

    /// Runs `storefront args… --data-dir DATA [--catalog CATALOG]` from the package's root and
    /// waits for it.
    func run(_ args: [String], environment: [String: String] = [:]) throws -> StorefrontProcess.Result {
        try StorefrontProcess.run(arguments(args), environment: environment, cwd: Repository.root)
    }

    /// Starts the same command without waiting for it.
    func start(_ args: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        try StorefrontProcess.start(arguments(args), environment: environment, cwd: Repository.root)
    }

    /// `args… --data-dir DATA [--catalog CATALOG]`.
    func arguments(_ args: [String]) -> [String] {
        args + ["--data-dir", data.path] + (catalog.map { ["--catalog", $0.path] } ?? [])
    }

    /// The shell command that runs the storefront (no command: the TUI) on this directory.
    var commandLine: String {
        ([StorefrontProcess.executable.path] + arguments([])).joined(separator: " ")
    }

    /// Runs `args… --json`, expects `status`, and returns what it printed, parsed.
    func json(_ args: [String], status: Int32 = 0) throws -> Any {
        let result = try run(args + ["--json"])
        #expect(result.status == status, "\(args): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8), options: .fragmentsAllowed)
    }

    /// `json(args)` as an object.
    func object(_ args: [String], status: Int32 = 0) throws -> [String: Any] {
        try #require(try json(args, status: status) as? [String: Any], "\(args)")
    }

    /// `json(args)` as an array of objects.
    func array(_ args: [String], status: Int32 = 0) throws -> [[String: Any]] {
        try #require(try json(args, status: status) as? [[String: Any]], "\(args)")
    }

    /// `buy PRODUCT_ID`, expected to succeed: the transaction's ID.
    func buy(_ productID: String) throws -> String {
        try #require(try object(["buy", productID])["transactionID"] as? String, "buy \(productID)")
    }

    /// `store set NAME VALUE` for each pair, each expected to succeed.
    func set(_ settings: [(String, String)]) throws {
        for (name, value) in settings {
            let result = try run(["store", "set", name, value])
            #expect(result.status == 0, "store set \(name) \(value): \(result.stderr)")
        }
    }

    /// `TYPE` or `TYPE/SUBTYPE` of every App Store Server Notification the store made, oldest
    /// first (`store notifications`).
    func notificationKinds() throws -> [String] {
        try array(["store", "notifications"]).compactMap { notification in
            guard let type = notification["notificationType"] as? String else { return nil }
            return (notification["subtype"] as? String).map { "\(type)/\($0)" } ?? type
        }
    }
}
