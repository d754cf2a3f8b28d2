import Foundation
import LocalAppStore
import StoreKitValues
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import storefront

/// The storefront's Switch Account keeps the data directory's account (`DATA/account`) through
/// the store's file system, as every other write of the data directory: a failing disk
/// (`STOREFRONT_FAIL_IO`'s `FaultInjectingFileSystem`) refuses the sign-in naming the file, and
/// the data directory stays signed in to the account it was.
@Suite(.serialized, .timeLimit(.minutes(5))) struct SignInFailIOTests {
    static func open(_ data: URL, failing rule: String?) async throws -> StoreSession {
        var invocation = Invocation()
        invocation.global.catalog = FailIOTests.catalog
        invocation.global.dataDirectory = data.path
        let context = CommandContext(
            environment: rule.map { ["STOREFRONT_FAIL_IO": $0] } ?? [:],
            currentDirectory: data.deletingLastPathComponent().path, output: BufferedOutput())
        return try await StoreSession.open(invocation, context: context)
    }

    @Test(arguments: [FaultInjectingFileSystem.Operation.write, .rename], [Errno.noSpace, .ioError])
    func aFailingDiskRefusesTheSignInAndKeepsTheAccount(
        _ operation: FaultInjectingFileSystem.Operation, _ errno: Errno
    ) async throws {
        let scratch = try TemporaryDirectory(prefix: "sf-sign-in")
        let data = scratch.url("data")
        let added = await FailIOTests.run(["store", "family", "add", "bob", "--name", "Bob"], data: data)
        try #require(added.status == 0, "\(added.output.standardError)")
        let account = data.appendingPathComponent("account").path

        // A rule that no call reaches makes the session's file system the fault-injecting one.
        let session = try await Self.open(data, failing: "access:1000000:EIO")
        let disk = try #require(session.backend.configuration.fileSystem as? FaultInjectingFileSystem)
        let before = disk.calls(of: operation)
        disk.fail(operation, onCall: 1, with: errno, repeating: true)
        let store = SessionStore(session: session, preferences: nil)
        do {
            try await store.signIn("bob")
            Issue.record("the sign-in succeeded on a failing disk (\(operation), \(errno))")
        } catch {
            #expect(error.description.contains(account), "the message names no file: \(error)")
        }
        #expect(disk.calls(of: operation) > before, "the sign-in wrote around the store's file system")
        await session.close()
        #expect(!FileManager.default.fileExists(atPath: account), "a refused sign-in left DATA/account behind")
        #expect(try await Self.signedIn(data) == "local-tester")

        // The disk mended, the same sign-in keeps the account for every later command.
        let again = try await Self.open(data, failing: nil)
        try await SessionStore(session: again, preferences: nil).signIn("bob")
        await again.close()
        #expect(try String(contentsOfFile: account, encoding: .utf8) == "bob\n")
        #expect(try await Self.signedIn(data) == "bob")
    }

    /// The account `store family --json` says the data directory is signed in to.
    static func signedIn(_ data: URL) async throws -> String? {
        let family = await FailIOTests.run(["store", "family", "--json"], data: data)
        try #require(family.status == 0, "\(family.output.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(family.output.standardOutput.utf8))
        return (object as? [String: Any])?["signedIn"] as? String
    }
}
