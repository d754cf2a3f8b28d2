/// The options every command accepts.
struct GlobalOptions: Sendable, Equatable {
    /// `--catalog PATH`, relative to the working directory.
    var catalog: String?
    /// `--data-dir PATH`.
    var dataDirectory: String?
    /// `--storefront CODE`.
    var storefront: String?
    /// `--locale ID`.
    var locale: String?
    /// `--json`.
    var json = false
    /// `-h` / `--help`.
    var help = false

    /// The catalog used when `--catalog` is not given.
    static let defaultCatalog = "Catalogs/Demo.storekit"

    /// Their specs, in help order.
    static let specs: [OptionSpec] = [
        OptionSpec(name: "catalog", valueName: "PATH",
                   help: "The Xcode .storekit catalog (default: \(defaultCatalog), relative to the current directory)."),
        OptionSpec(name: "data-dir", valueName: "PATH",
                   help: "Where state lives (default: $STOREFRONT_HOME, else $XDG_DATA_HOME/storefront, else ~/.local/share/storefront)."),
        OptionSpec(name: "storefront", valueName: "CODE",
                   help: "The App Store storefront, ISO 3166 alpha-3 such as USA, JPN, DEU (default: the catalog's _storefront, else USA)."),
        OptionSpec(name: "locale", valueName: "ID",
                   help: "The display locale such as en_US, ja_JP (default: the --storefront's locale, else the catalog's _locale)."),
        OptionSpec(name: "json", valueName: nil, help: "Print machine-readable JSON instead of a table."),
        OptionSpec(name: "help", valueName: nil, help: "Show help (also -h)."),
    ]

    /// Stores `value` for global option `name`; returns `false` when `name` is not global.
    mutating func set(_ name: String, _ value: String?) -> Bool {
        switch name {
        case "catalog": catalog = value
        case "data-dir": dataDirectory = value
        case "storefront": storefront = value
        case "locale": locale = value
        case "json": json = true
        case "help": help = true
        default: return false
        }
        return true
    }
}
