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
