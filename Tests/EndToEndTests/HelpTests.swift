import Foundation
import TestSupport
import Testing

@Suite(.waitsOnProcesses) struct HelpTests {
    /// The version as the snapshots show it (`HelpSnapshotTests.version`).
    static let snapshotVersion = "VERSION"

    /// The recorded text of `Tests/storefrontTests/Snapshots/NAME.txt`.
    static func baseline(named name: String) throws -> String {
        try String(contentsOf: Repository.url("Tests/storefrontTests/Snapshots/\(name).txt"), encoding: .utf8)
    }

    @Test func noArgumentsPrintsUsage() throws {
        let result = try StorefrontProcess.run([])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: storefront"))
    }

    /// The built binary prints exactly the help snapshots of storefrontTests'
    /// `HelpSnapshotTests`, however help is asked for.
    @Test func theExecutablePrintsTheSnapshots() throws {
        let main = try StorefrontProcess.run(["--help"])
        #expect(main.status == 0)
        let firstLine = main.stdout.prefix { $0 != "\n" }
        let version = firstLine.dropFirst("storefront ".count).prefix { $0 != ":" }
        #expect(
            main.stdout.replacingOccurrences(of: "storefront \(version):", with: "storefront \(Self.snapshotVersion):")
                == (try Self.baseline(named: "help")))
        for name in ["buy", "store"] {
            let expected = try Self.baseline(named: "help-\(name)")
            for arguments in [["help", name], [name, "--help"], [name, "-h"]] {
                let result = try StorefrontProcess.run(arguments)
                #expect(result.status == 0, "\(arguments)")
                #expect(result.stdout == expected, "\(arguments)")
            }
        }
        // A verb's page, however it is asked for, is the one its command's verb baseline shows.
        let verbs = try Self.baseline(named: "help-store-verbs")
        for arguments in [["help", "store", "renew"], ["store", "renew", "--help"], ["store", "renew", "1", "-h"]] {
            let result = try StorefrontProcess.run(arguments)
            #expect(result.status == 0, "\(arguments)")
            #expect(verbs.contains("$ storefront store renew --help\n" + result.stdout + "\n$ "), "\(arguments)")
        }
    }
}
