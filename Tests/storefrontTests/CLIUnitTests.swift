import Testing

@testable import storefront

/// The pure parts of the CLI, called directly: parsing, help text, paths, widths, tables, JSON.
@Suite struct ArgumentParserTests {
    let parser = ArgumentParser(commands: CommandRegistry.all)

    @Test func globalOptionsBeforeAndAfterTheCommand() throws {
        let invocation = try parser.parse([
            "--catalog", "A.storekit", "products", "--storefront=JPN", "--locale", "ja_JP", "--json", "--data-dir",
            "/tmp/x",
        ])
        #expect(invocation.command == "products")
        #expect(
            invocation.global
                == GlobalOptions(
                    catalog: "A.storekit", dataDirectory: "/tmp/x", storefront: "JPN", locale: "ja_JP", json: true,
                    help: false))
        #expect(invocation.arguments.isEmpty)
    }

    @Test func noArgumentsMeansNoCommand() throws {
        #expect(try parser.parse([]) == Invocation())
    }

    @Test func helpFlagsAndArguments() throws {
        #expect(try parser.parse(["-h"]).global.help)
        let help = try parser.parse(["help", "products"])
        #expect(help.command == "help")
        #expect(help.arguments == ["products"])
        #expect(try parser.parse(["products", "--", "--json"]).arguments == ["--json"])
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command 'frobnicate'. Run 'storefront --help' for the list of commands."),
        (
            ["products", "--colour"],
            "unknown option '--colour' for 'storefront products'. Run 'storefront help products'."
        ),
        (["--colour"], "unknown option '--colour' for storefront. Run 'storefront --help'."),
        (["-x"], "unknown option '-x'. Options are spelled --name; run 'storefront --help'."),
        (["products", "--catalog"], "option '--catalog' needs a value (--catalog PATH)."),
        (["products", "--catalog="], "option '--catalog' needs a non-empty value (--catalog PATH)."),
        (["products", "--json=yes"], "option '--json' takes no value."),
    ])
    func usageErrors(_ arguments: [String], _ message: String) {
        #expect(throws: CLIError.usage(message)) { try parser.parse(arguments) }
    }
}

/// Commands made of verbs: the parser picks the verb by its words and checks its declaration.
@Suite struct VerbParsingTests {
    let parser = ArgumentParser(commands: CommandRegistry.all)

    @Test func theLongestVerbNameWins() throws {
        let resend = try parser.parse(["store", "notifications", "resend", "U"])
        #expect(resend.verb == "notifications resend")
        #expect(resend.arguments == ["U"])
        let page = try parser.parse(["store", "notifications", "--limit", "5"])
        #expect(page.verb == "notifications")
        #expect(page.arguments.isEmpty)
        #expect(try page.value(NotificationsVerb.limit) == 5)
    }

    @Test func optionsMayComeBeforeTheVerb() throws {
        let cancel = try parser.parse(["store", "--json", "--undo", "cancel", "1"])
        #expect(cancel.verb == "cancel")
        #expect(cancel.arguments == ["1"])
        #expect(cancel.isSet(CancelVerb.undo))
        #expect(cancel.global.json)
        #expect(try parser.parse(["store", "--", "set", "latency", "-5"]).arguments == ["latency", "-5"])
    }

    @Test func wordsThatNameNoVerbAreTheDefaultVerbsArguments() throws {
        let file = try parser.parse(["receipt", "verify.der"])
        #expect(file.verb == "")
        #expect(file.arguments == ["verify.der"])
        #expect(try parser.parse(["receipt"]).verb == "")
        #expect(try parser.parse(["downloads"]).verb == "")
        #expect(throws: CLIError.usage("unknown downloads subcommand 'list'; see 'storefront help downloads'.")) {
            try parser.parse(["downloads", "list"])
        }
    }

    @Test func helpSkipsTheChecksAndNamesTheVerb() throws {
        let help = try parser.parse(["store", "renew", "1", "2", "--reason", "9", "--help"])
        #expect(help.global.help)
        #expect(help.verb == "renew")
        #expect(throws: CLIError.usage("unknown store subcommand 'frob'; see 'storefront help store'.")) {
            try parser.parse(["store", "frob", "--help"])
        }
    }

    /// `COMMAND VERB --help`, `-h` and `help COMMAND VERB` print the verb's page; the command's
    /// own page is unchanged by a verb-less `--help`.
    @Test func everyWayOfAskingPrintsTheVerbsHelp() async {
        let renew = HelpText.verb(RenewVerb(), of: StoreCommand())
        for arguments in [["store", "renew", "--help"], ["store", "renew", "-h"], ["help", "store", "renew"]] {
            let output = BufferedOutput()
            let status = await StorefrontCLI().run(
                arguments, context: CommandContext(environment: [:], currentDirectory: "/nonexistent", output: output))
            #expect(status == 0, "\(arguments)")
            #expect(output.standardOutput == renew, "\(arguments)")
        }
        for arguments in [["store", "--help"], ["help", "store"], ["downloads", "-h"]] {
            let output = BufferedOutput()
            let status = await StorefrontCLI().run(
                arguments, context: CommandContext(environment: [:], currentDirectory: "/nonexistent", output: output))
            #expect(status == 0, "\(arguments): \(output.standardError)")
            #expect(output.standardOutput.hasPrefix("USAGE: storefront \(arguments.first { $0 != "help" } ?? "")"))
        }
        #expect(HelpText.help(StoreCommand(), verb: nil) == HelpText.command(StoreCommand()))
        #expect(HelpText.help(ReceiptCommand(), verb: "") == HelpText.command(ReceiptCommand()))
    }

    /// What makes a registry of verbs readable: each verb's name said once, in lowercase words;
    /// at most one default verb; an abstract for each; optional arguments only at the end; and
    /// every option a verb takes in its own usage.
    @Test(arguments: CommandRegistry.all.compactMap { $0 as? any VerbCommand }.map(\.name))
    func verbDeclarationsAreWellFormed(_ name: String) throws {
        let command = try #require(CommandRegistry.all.first { $0.name == name } as? any VerbCommand)
        let names = command.verbs.map(\.name)
        #expect(Set(names).count == names.count, "\(name): a verb name twice")
        #expect(names.filter(\.isEmpty).count <= 1, "\(name): two default verbs")
        for verb in command.verbs {
            let path = command.path(of: verb)
            #expect(verb.words.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "-" } }, "\(path)")
            #expect(!verb.abstract.isEmpty, "\(path) has no abstract")
            let optional = verb.arguments.map(\.isOptional)
            #expect(optional == optional.sorted { !$0 && $1 }, "\(path): a required argument after an optional one")
            for option in verb.requiredOptions + verb.options {
                #expect(verb.form.synopsis.contains(option.synopsis), "\(path) --\(option.name)")
            }
        }
    }
}

@Suite struct HelpTextTests {
    @Test func mainHelpListsCommandsAndEveryGlobalOption() {
        let text = HelpText.main(version: "9.9.9", commands: CommandRegistry.all)
        #expect(text.hasPrefix("storefront 9.9.9: "))
        #expect(text.contains("\nUSAGE: storefront [COMMAND] [OPTIONS]\n"))
        // Names are padded to the longest command name, so only the line's shape is fixed.
        let productsLine = text.split(separator: "\n").first { $0.hasPrefix("  products ") }
        #expect(productsLine?.hasSuffix(" List the catalog's products with localized names and prices.") == true)
        for spec in GlobalOptions.specs { #expect(text.contains("  " + spec.synopsis + " ")) }
        #expect(text.contains("EXIT STATUS: 0 success, 1 runtime error (e.g. a bad catalog), 2 usage error."))
        #expect(text.contains(" JPN "))
    }

    @Test func commandHelpShowsUsageAndAlignedOptions() {
        let text = HelpText.command(ProductsCommand())
        #expect(
            text.hasPrefix("USAGE: storefront products [--catalog PATH] [--storefront CODE] [--locale ID] [--json]\n"))
        #expect(text.contains("in the storefront's currency\nrounded to its minor units"))
        let lines = HelpText.optionLines([
            Option<String>("a", valueName: "VALUE", help: "first"), Flag("long-flag", help: "second"),
        ])
        #expect(lines == ["  --a VALUE    first", "  --long-flag  second"])
    }

    @Test func runnerPrintsHelpAndErrorsWithStatuses() async {
        let cli = StorefrontCLI()
        func run(_ args: [String]) async -> (Int32, BufferedOutput) {
            let output = BufferedOutput()
            let status = await cli.run(
                args, context: CommandContext(environment: [:], currentDirectory: "/nonexistent", output: output))
            return (status, output)
        }
        let (noArgs, noArgsOut) = await run([])
        #expect(noArgs == 0)
        #expect(noArgsOut.standardOutput.contains("USAGE: storefront"))
        let (helpProducts, helpOut) = await run(["help", "products"])
        #expect(helpProducts == 0)
        #expect(helpOut.standardOutput == HelpText.command(ProductsCommand()))
        let (productsHelp, productsHelpOut) = await run(["products", "--help"])
        #expect(productsHelp == 0)
        #expect(productsHelpOut.standardOutput == helpOut.standardOutput)
        let (unknown, unknownOut) = await run(["help", "nope"])
        #expect(unknown == 2)
        #expect(
            unknownOut.standardError
                == "storefront: unknown command 'nope'. Run 'storefront --help' for the list of commands.\n")
        let (missing, missingOut) = await run(["products"])
        #expect(missing == 1)
        // The default catalog missing: the message names it and says how to give one.
        #expect(
            missingOut.standardError
                == "storefront: cannot load the catalog: there is no file /nonexistent/Catalogs/Demo.storekit (the default catalog Catalogs/Demo.storekit, relative to the current directory); give your .storekit file with --catalog PATH\n"
        )
        let (extra, _) = await run(["products", "surplus"])
        #expect(extra == 2)
    }
}

@Suite struct DataDirectoryTests {
    @Test func precedence() throws {
        let env = ["HOME": "/home/u", "STOREFRONT_HOME": "/srv/sf", "XDG_DATA_HOME": "/xdg"]
        #expect(try DataDirectory.resolve(option: "d", environment: env, currentDirectory: "/work") == "/work/d")
        #expect(try DataDirectory.resolve(option: "~/d", environment: env, currentDirectory: "/work") == "/home/u/d")
        #expect(try DataDirectory.resolve(option: nil, environment: env, currentDirectory: "/work") == "/srv/sf")
        #expect(
            try DataDirectory.resolve(
                option: nil, environment: ["HOME": "/home/u", "XDG_DATA_HOME": "/xdg"], currentDirectory: "/")
                == "/xdg/storefront")
        #expect(
            try DataDirectory.resolve(
                option: nil, environment: ["HOME": "/home/u", "XDG_DATA_HOME": "rel"], currentDirectory: "/")
                == "/home/u/.local/share/storefront")
        #expect(
            try DataDirectory.resolve(option: nil, environment: ["HOME": "/home/u/"], currentDirectory: "/")
                == "/home/u/.local/share/storefront")
        #expect(throws: CLIError.self) {
            try DataDirectory.resolve(option: nil, environment: [:], currentDirectory: "/")
        }
    }
}

@Suite struct TextRenderingTests {
    @Test func tableAlignsWideCharacters() {
        let table = TextTable(
            columns: [.init(header: "NAME"), .init(header: "PRICE", alignment: .right)],
            rows: [["コイン100枚", "¥160"], ["Coins", "¥1,600"]])
        #expect(
            table.render() == [
                "NAME          PRICE",
                "───────────  ──────",
                "コイン100枚    ¥160",
                "Coins        ¥1,600",
            ])
    }

    @Test func jsonTextKeepsOrderAndEscapes() {
        let json = JSONText.array([
            .object([
                ("b", .string("q\"\\\n\u{1}é")), ("a", .number("1")), ("n", .null), ("t", .bool(true)),
                ("e", .array([])),
            ])
        ])
        #expect(
            json.rendered() == """
                [
                  {
                    "b": "q\\"\\\\\\n\\u0001é",
                    "a": 1,
                    "n": null,
                    "t": true,
                    "e": []
                  }
                ]

                """)
    }
}
