import Foundation
#if canImport(Glibc)
import Glibc  // chown, geteuid
#endif
import SystemIO
import TestSupport
import Testing

/// Issue 18 item 8: a data directory the user cannot write is refused, naming the directory,
/// with exit 1, and its permissions are left as the user set them (the store used to `chmod` its
/// state directory back to 0700 at every open). With real permission bits: as root (which they
/// do not stop) the commands run as the unprivileged user 65534 (`setpriv`), who owns the data
/// directory then; as anyone else, as that user.
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

        let cases: [(directory: String, message: String)] = [
            (data, "storefront: the data directory \(data) is not writable (Permission denied); storefront never changes its permissions: make it writable (chmod u+w \(data)) or choose another with --data-dir\n"),
            (store, "storefront: cannot open the local App Store: \(store): the directory is not writable (Permission denied); storefront never changes its permissions: make it writable (chmod u+w \(store)) or use another data directory\n"),
            (store + "/owners", "storefront: cannot open the local App Store: \(store)/owners: the directory is not writable (Permission denied); storefront never changes its permissions: make it writable (chmod u+w \(store)/owners) or use another data directory\n"),
        ]
        for (directory, message) in cases {
            #expect(chmod(directory, 0o500) == 0)
            for command in [["buy", "com.storefront.demo.coins.100"], ["history"]] {
                let result = try run(base + command)
                #expect(result.status == 1, "\(command) in \(directory): \(result.stdout)\(result.stderr)")
                #expect(result.stderr == message, "\(command) in \(directory)")
                #expect(try mode(directory) == 0o500, "\(command) changed the permissions of \(directory)")
            }
            #expect(chmod(directory, 0o700) == 0)
        }
        // Nothing was lost or added while it was refused: one purchase, and a second one now works.
        let history = try run(base + ["history"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains("com.storefront.demo.coins.100: 1"), "\(history.stdout)")
        #expect(try run(base + ["buy", "com.storefront.demo.coins.100"]).status == 0)
    }
}
