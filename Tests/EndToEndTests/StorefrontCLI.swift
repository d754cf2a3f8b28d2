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
        if instant {
            let result = try run(["store", "set", "latency", "0"])
            #expect(result.status == 0, "\(result.stderr)")
        }
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

    private func arguments(_ args: [String]) -> [String] {
        args + ["--data-dir", data.path] + (catalog.map { ["--catalog", $0.path] } ?? [])
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
}
