import Foundation
import LocalAppStore
import StorefrontUI
import Testing

@testable import storefront

/// Every help screen and usage error of the CLI, compared exactly with the plain-text baselines
/// in `Snapshots/` (as swift-argument-parser does); `RECORD_SNAPSHOTS=1 swift test` rewrites
/// them. A help text that goes stale now fails here, in review, rather than in a user's terminal.
@Suite struct HelpSnapshotTests {
    /// The version as the snapshots show it (the real one changes with every release).
    static let version = "VERSION"

    @Test func mainHelp() throws {
        try Snapshot.check(HelpText.main(version: Self.version, commands: CommandRegistry.all), named: "help")
    }

    @Test(arguments: CommandRegistry.all.map(\.name))
    func commandHelp(_ name: String) throws {
        let command = try #require(CommandRegistry.all.first { $0.name == name })
        try Snapshot.check(HelpText.command(command), named: "help-\(name)")
    }

    /// Every verb's own help (`storefront COMMAND VERB --help`), one baseline a command made of
    /// verbs, each page under the command line that prints it.
    @Test(arguments: CommandRegistry.all.compactMap { ($0 as? any VerbCommand)?.name })
    func verbHelp(_ name: String) throws {
        let command = try #require(CommandRegistry.all.first { $0.name == name } as? any VerbCommand)
        let pages = command.verbs.filter { !$0.name.isEmpty }.map { verb in
            "$ storefront \(name) \(verb.name) --help\n" + HelpText.verb(verb, of: command)
        }
        try Snapshot.check(pages.joined(separator: "\n"), named: "help-\(name)-verbs")
    }

    /// The usage errors people meet, each with its exit status: the parser's, every command's,
    /// and every `store` verb called wrongly. They all come before the store is opened.
    @Test func usageErrors() async throws {
        let cases: [[String]] = [
            ["frobnicate"], ["-x"], ["--colour"], ["--catalog"], ["products", "--colour"], ["products", "--catalog="],
            ["products", "--json=yes"], ["products", "surplus"], ["help", "nope"], ["help", "buy", "store"],
            ["buy"], ["buy", "a", "b"], ["buy", "coins", "--quantity", "0"],
            ["buy", "coins", "--quantity", "2", "--quantity", "3"],
            ["buy", "coins", "--order-data", "nokey"], ["buy", "coins", "--offer", "a", "--offer=b"],
            ["--data-dir", "a", "history", "--data-dir", "b"], ["history", "x"], ["restore", "x"],
            ["entitlements", "x"], ["entitlements", "--non-renewing-duration", "3M"],
            ["receipt", "a", "b"], ["receipt", "verify"], ["receipt", "verify", "receipt.der"],
            ["receipt", "verify", "receipt.der", "--root", "root.cer", "--device-id", "not-a-uuid"],
            ["receipt", "verify", "receipt.der", "--root", "root.cer", "--at", "yesterday"],
            ["transaction"], ["transaction", "verify"], ["downloads", "frob"], ["downloads", "pause"],
            ["store"], ["store", "frob"], ["store", "pending", "x"], ["store", "approve"], ["store", "decline"],
            ["store", "resolve", "1", "2"], ["store", "charges", "x"], ["store", "settings", "x"],
            ["store", "set", "latency"],
            ["store", "renew"], ["store", "expire"], ["store", "cancel"], ["store", "refund"],
            ["store", "billing-issue", "1"],
            ["store", "subscriptions", "x"], ["store", "renew", "1", "--undo"], ["store", "settings", "--reason", "1"],
            ["store", "refund", "1", "--reason", "7"], ["store", "billing-issue", "1", "maybe"],
            // Issue 18's bad input: every bad command line is a usage error, refused before anything is opened.
            ["store", "set", "latency", "abc"], ["store", "set", "frob", "1"],
            ["store", "set", "fail-downloads-at", "200"],
            ["store", "set", "ask-to-buy", "maybe"], ["store", "set", "latency", "-5"],
            ["buy", "coins", "--quantity", "11"],
            ["buy", "coins", "--quantity", "99999999999999999999999"], ["buy", ""], ["buy", "  "],
            // A price increase's price is read as the catalog reads prices, and only when announcing.
            ["store", "price-increase", "1", "--price", "abc"], ["store", "price-increase", "1", "--price", "-1"],
            ["store", "price-increase", "1", "--price", "12,99"],
            ["store", "price-increase", "1", "accept", "--price", "5"],
            ["store", "renew", "1", "--price", "5"],
            // Verbs are declarations: an unknown option, a missing or extra argument, a bad
            // argument or an option of another verb is refused naming the verb.
            ["store", "renew", "1", "--colour"], ["store", "--colour"], ["store", "frob", "--colour"],
            ["store", "notifications", "resend"], ["store", "notifications", "frob"],
            ["store", "notifications", "resend", "1", "--limit", "5"], ["store", "notifications", "--limit", "0"],
            ["store", "consumption", "1", "2"], ["store", "price-increase"], ["store", "price-increase", "1", "maybe"],
            ["store", "issue-codes", "p"], ["store", "issue-codes", "p", "o", "--count", "101"],
            ["store", "approve-refund", "1", "--reason", "2"], ["store", "decline-refund", "1", "--reason", "1"],
            ["store", "sign-offer", "p", "o", "--app-account-token", "nope"],
            ["store", "--undo", "cancel"], ["receipt", "--root", "root.cer"], ["signed", "x"], ["signed", "ocsp"],
            ["transaction", "frob"], ["downloads", "pause", "1", "2"], ["downloads", "resume", "1", "--undo"],
            ["help", "store", "frob"], ["help", "store", "renew", "1"], ["help", "receipt", "a.der"],
        ]
        var text = ""
        for arguments in cases {
            let output = BufferedOutput()
            let status = await StorefrontCLI().run(
                arguments, context: CommandContext(environment: [:], currentDirectory: "/nonexistent", output: output))
            #expect(status == 2, "\(arguments) is a usage error: \(output.standardError)")
            #expect(output.standardOutput.isEmpty, "\(arguments)")
            text += "$ storefront \(arguments.joined(separator: " "))\nexit \(status)\n\(output.standardError)\n"
        }
        try Snapshot.check(text, named: "usage-errors")
    }

    /// The Store Settings window's labels come from the local store's registry; the storefront
    /// has each in its other languages.
    @Test(arguments: UILanguage.allCases.filter { $0 != .english })
    func everySettingsLabelIsTranslated(_ language: UILanguage) {
        let strings = Strings(language)
        for setting in LocalStoreSettings.registry {
            #expect(
                strings(setting.label) != setting.label, "\(setting.name): '\(setting.label)' has no \(language) text")
        }
    }

    /// Options are declared once: every command's usage names each of its options, and each
    /// option's help says something.
    @Test func everyOptionIsInTheUsageLineAndHasHelp() {
        for command in CommandRegistry.all {
            for option in command.options {
                #expect(command.usage.contains(option.synopsis), "\(command.name) --\(option.name)")
                #expect(!option.help.isEmpty, "\(command.name) --\(option.name)")
            }
        }
    }

    @Test func optionsAreParsedTypedAndOnce() throws {
        let parser = ArgumentParser(commands: CommandRegistry.all)
        let buy = try parser.parse(["buy", "coins", "--quantity=3", "--order-data", "a=1,b=2", "--json"])
        #expect(try buy.value(BuyCommand.quantity) == 3)
        #expect(try buy.value(BuyCommand.orderData) == ["a": "1", "b": "2"])
        #expect(try buy.value(BuyCommand.offer) == nil)
        #expect(buy.global.json)
        let cancel = try parser.parse(["store", "cancel", "1", "--undo", "--undo"])
        #expect(cancel.isSet(CancelVerb.undo), "a flag given twice is still the flag")
        #expect(throws: CLIError.usage("option '--catalog' was given more than once; give it once (--catalog PATH).")) {
            try parser.parse(["--catalog", "a", "products", "--catalog", "b"])
        }
        // Help wins over a bad value, as before: the value is not checked.
        #expect(try parser.parse(["buy", "coins", "--quantity", "none", "--help"]).global.help)
    }
}
