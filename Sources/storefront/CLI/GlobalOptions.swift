/// The options every command accepts.
struct GlobalOptions: Sendable, Equatable {
    /// `--catalog PATH`, relative to the working directory.
    var catalog: String?
    /// `--data-dir PATH`.
    var dataDirectory: String?
    /// `--storefront CODE`.
    var storefront: String?
    /// Where `storefront` came from when not from `--storefront` itself (the storefront's
    /// remembered choice), for messages; `nil` means the option.
    var storefrontOrigin: String?
    /// `--locale ID`.
    var locale: String?
    /// `--account ID`.
    var account: String?
    /// `--json`.
    var json = false
    /// `-h` / `--help`.
    var help = false

    /// The catalog used when `--catalog` is not given.
    static let defaultCatalog = "Catalogs/Demo.storekit"

    // MARK: - Declarations

    /// `--catalog PATH`.
    static let catalog = Option<String>(
        "catalog", valueName: "PATH",
        help: "The Xcode .storekit catalog (default: \(defaultCatalog), relative to the current directory).")
    /// `--data-dir PATH`.
    static let dataDirectory = Option<String>(
        "data-dir", valueName: "PATH",
        help:
            "Where state lives (default: $STOREFRONT_HOME, else $XDG_DATA_HOME/storefront, else ~/.local/share/storefront)."
    )
    /// `--storefront CODE`.
    static let storefront = Option<String>(
        "storefront", valueName: "CODE",
        help:
            "The App Store storefront, ISO 3166 alpha-3 such as USA, JPN, DEU (default: the catalog's _storefront, else USA)."
    )
    /// `--locale ID`.
    static let locale = Option<String>(
        "locale", valueName: "ID",
        help:
            "The display locale such as en_US, ja_JP (default: the --storefront's locale, else the catalog's _locale).")
    /// `--account ID`.
    static let account = Option<String>(
        "account", valueName: "ID",
        help:
            "The account the command is signed in to (default: the data directory's, 'store family sign-in ID'; else local-tester)."
    )
    /// `--json`.
    static let json = Flag("json", help: "Print machine-readable JSON instead of a table.")
    /// `--help`.
    static let help = Flag("help", help: "Show help (also -h).")

    /// Every global option, in help order.
    static let specs: [any CommandOption] = [catalog, dataDirectory, storefront, locale, account, json, help]

    /// Their names.
    static let names = Set(specs.map(\.name))
}

extension GlobalOptions {
    /// The global options among `given` (values by option name, flags holding `""`).
    init(given: [String: String]) {
        catalog = given[Self.catalog.name]
        dataDirectory = given[Self.dataDirectory.name]
        storefront = given[Self.storefront.name]
        locale = given[Self.locale.name]
        account = given[Self.account.name]
        json = given[Self.json.name] != nil
        help = given[Self.help.name] != nil
    }
}
