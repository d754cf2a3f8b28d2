import Foundation
import SystemIO
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc  // chown, geteuid
#endif

/// Issue 18 item 8: a data directory the user cannot write is refused to every command that
/// writes, naming the directory, with exit 1, and its permissions are left as the user set them
/// (the store used to `chmod` its state directory back to 0700 at every open); the commands
/// that only read (`history`, `products`, `entitlements`, `receipt`) open it read-only and
/// print what they print on a writable one, writing nothing. With real permission bits: as root
/// (which they do not stop) the commands run as the unprivileged user 65534 (`setpriv`), who
/// owns the data directory then; as anyone else, as that user.
@Suite(.waitsOnProcesses) struct ReadOnlyDataDirectoryTests {
    static let demo = Repository.root.appendingPathComponent("Catalogs/Demo.storekit").path
    static let unprivileged: UInt32 = 65_534

    /// Runs `storefront args…` as the user the permission bits apply to.
    func run(_ args: [String]) throws -> ChildProcess.Result {
        guard CurrentProcess.effectiveUserID == 0 else { return try StorefrontProcess.run(args) }
        let user = "\(Self.unprivileged)"
        return try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", StorefrontProcess.executable.path] + args,
            environment: ["HOME": "/nonexistent"]
        ).wait()
    }

    func mode(_ path: String) throws -> UInt32 {
        try #require(try POSIXFileSystem().status(atPath: path, followingLinks: false)).mode & 0o7777
    }

    @Test func anUnwritableDirectoryIsNamedAndKeepsItsPermissions() throws {
        let scratch = try TemporaryDirectory(prefix: "e2e-readonly")
        // The unprivileged user must reach the data directory inside the scratch directory.
        #expect(chmod(scratch.url.path, 0o755) == 0)
        let data = scratch.url("data").path
        let store = data + "/store"
        let base = ["--catalog", Self.demo, "--data-dir", data]
        if CurrentProcess.effectiveUserID == 0 {
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
            #expect(chown(data, Self.unprivileged, Self.unprivileged) == 0)
        }
        let bought = try run(base + ["buy", "com.storefront.demo.coins.100"])
        try #require(bought.status == 0, "\(bought.stderr)")
        let writable = try run(base + ["history"])
        try #require(writable.status == 0, "\(writable.stderr)")

        let cases: [(directory: String, message: String)] = [
            (
                data,
                "storefront: the data directory \(data) is not writable (Permission denied); storefront never changes its permissions: make it writable (chmod u+w \(data)) or choose another with --data-dir\n"
            ),
            (
                store,
                "storefront: cannot open the local App Store: \(store): the directory is not writable (Permission denied); storefront never changes its permissions: make it writable (chmod u+w \(store)) or use another data directory\n"
            ),
            (
                store + "/owners",
                "storefront: cannot open the local App Store: \(store)/owners: the directory is not writable (Permission denied); storefront never changes its permissions: make it writable (chmod u+w \(store)/owners) or use another data directory\n"
            ),
        ]
        for (directory, message) in cases {
            #expect(chmod(directory, 0o500) == 0)
            let refused = try run(base + ["buy", "com.storefront.demo.coins.100"])
            #expect(refused.status == 1, "buy in \(directory): \(refused.stdout)\(refused.stderr)")
            #expect(refused.stderr == message, "buy in \(directory)")
            // Reading needs no write: the history opens read-only and reads as before.
            let read = try run(base + ["history"])
            #expect(read.status == 0, "history in \(directory): \(read.stderr)")
            #expect(read.stdout == writable.stdout, "history in \(directory)")
            #expect(try mode(directory) == 0o500, "a command changed the permissions of \(directory)")
            #expect(chmod(directory, 0o700) == 0)
        }
        // Nothing was lost or added while it was refused: one purchase, and a second one now works.
        let history = try run(base + ["history"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("com.storefront.demo.coins.100: 1"), "\(history.stdout)")
        #expect(try run(base + ["buy", "com.storefront.demo.coins.100"]).status == 0)
    }

    /// Every file and directory under `root`: its size, modification time and bytes.
    func tree(_ root: String) throws -> [String: String] {
        var entries: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let name = enumerator?.nextObject() as? String {
            let path = root + "/" + name
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            let bytes =
                (attributes[.type] as? FileAttributeType) == .typeDirectory
                ? Data() : try Data(contentsOf: URL(fileURLWithPath: path))
            entries[name] = "\(attributes[.size] ?? 0) \(modified) \(bytes.base64EncodedString())"
        }
        return entries
    }

    /// What a receipt's text or JSON says but its issue time and per-issue nonce.
    func withoutIssue(_ receipt: String) -> String {
        receipt.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            !["Created:", "Opaque value:", "SHA-1 hash:", "\"opaqueHex\"", "\"sha1Hex\"", "\"creationDate\""].contains {
                line.contains($0)
            }
        }.joined(separator: "\n")
    }

    @Test func aDirectoryMadeReadOnlyWholeIsReadAsItIsAndNeverWritten() throws {
        let scratch = try TemporaryDirectory(prefix: "e2e-readonly-all")
        #expect(chmod(scratch.url.path, 0o755) == 0)
        let data = scratch.url("data").path
        let base = ["--catalog", Self.demo, "--data-dir", data]
        if CurrentProcess.effectiveUserID == 0 {
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
            #expect(chown(data, Self.unprivileged, Self.unprivileged) == 0)
        }
        // A consumable, a subscription, a non-consumable and a non-renewing one: every table.
        try #require(try run(base + ["store", "set", "latency", "0"]).status == 0)
        for product in ["coins.100", "premium.pro.monthly", "removeads", "seasonpass.winter"] {
            let bought = try run(base + ["buy", "com.storefront.demo." + product])
            try #require(bought.status == 0, "\(product): \(bought.stderr)")
        }
        let commands = [
            ["history"], ["history", "--json"], ["products"], ["products", "--json"], ["entitlements"],
            ["entitlements", "--json"], ["receipt"], ["receipt", "--json"],
        ]
        var writable: [[String]: String] = [:]
        for command in commands {
            let result = try run(base + command)
            try #require(result.status == 0, "\(command): \(result.stderr)")
            writable[command] = result.stdout
        }

        let chmodTool = URL(fileURLWithPath: "/bin/chmod")
        try #require(try ChildProcess.run(chmodTool, ["-R", "a-w", data]).status == 0)
        defer { _ = try? ChildProcess.run(chmodTool, ["-R", "u+w", data]) }
        let before = try tree(data)
        for command in commands {
            let result = try run(base + command)
            #expect(result.status == 0, "\(command) read-only: \(result.stderr)")
            #expect(result.stderr.isEmpty, "\(command) read-only")
            if command.first == "receipt" {
                // Issued anew at each call (its creation date, opaque value and hash), not kept.
                #expect(withoutIssue(result.stdout) == withoutIssue(writable[command] ?? ""), "\(command) read-only")
                #expect(result.stdout.contains("com.storefront.demo.removeads"), "\(command) read-only")
            } else {
                #expect(result.stdout == writable[command], "\(command) read-only")
            }
        }
        #expect(try tree(data) == before, "a read-only command changed the data directory")

        // What must write still says which directory it cannot write, exit 1.
        let refusal =
            "storefront: the data directory \(data) is not writable (Permission denied); storefront never changes its permissions: make it writable (chmod u+w \(data)) or choose another with --data-dir\n"
        for command in [["buy", "com.storefront.demo.coins.100"], ["restore"], ["store", "set", "latency", "5"]] {
            let result = try run(base + command)
            #expect(result.status == 1, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr == refusal, "\(command)")
        }
        #expect(try tree(data) == before, "a refused command changed the data directory")
    }

    @Test func aReadOnlyDirectoryNeverUsedHasNothingToShow() throws {
        let scratch = try TemporaryDirectory(prefix: "e2e-readonly-empty")
        #expect(chmod(scratch.url.path, 0o755) == 0)
        let data = scratch.url("data").path
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: false)
        if CurrentProcess.effectiveUserID == 0 { #expect(chown(data, Self.unprivileged, Self.unprivileged) == 0) }
        #expect(chmod(data, 0o500) == 0)
        defer { _ = chmod(data, 0o700) }
        let base = ["--catalog", Self.demo, "--data-dir", data]
        let history = try run(base + ["history"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout == "No purchases yet.\n")
        let entitlements = try run(base + ["entitlements"])
        #expect(entitlements.status == 0, "\(entitlements.stderr)")
        #expect(entitlements.stdout == "No entitlements.\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: data).isEmpty)
    }
}
