import Catalog
import Foundation
import LocalAppStore
import StoreKitValues

/// The catalog, storefront and locale a command works with, resolved from the global options.
struct CatalogSelection {
    /// The loaded catalog (with its price sidecar, if any).
    let catalog: StoreKitConfiguration
    /// The storefront prices are shown for.
    var storefront: Storefront { storefrontChoice.storefront }
    /// The storefront and where it was chosen.
    let storefrontChoice: StorefrontChoice
    /// The locale names, descriptions and prices are shown in, e.g. `ja_JP`.
    let locale: String
    /// What the catalog holds that was read, but not as written, for the storefront in use
    /// (already written to standard error as `storefront: warning: …` lines).
    let warnings: [CatalogWarning]

    /// Loads `--catalog`, resolves `--storefront` and `--locale`, and writes the catalog's
    /// warnings for that storefront to standard error, one line each.
    ///
    /// - Parameter contentFiles: whose hosted content files are checked (the storefront's first
    ///   frame checks none, the store it opens next checks them all; `buy` checks only what it sells).
    /// - Throws: `CLIError.runtime` with the `CatalogError` text for a bad catalog,
    ///   `CLIError.usage` for an unknown storefront or a malformed locale.
    static func load(
        _ options: GlobalOptions, context: CommandContext, contentFiles: ContentFileCheck = .all
    ) throws(CLIError) -> CatalogSelection {
        let path = Paths.absolute(
            options.catalog ?? GlobalOptions.defaultCatalog, relativeTo: context.currentDirectory,
            home: context.environment["HOME"])
        guard FileManager.default.fileExists(atPath: path) else {
            let which = options.catalog == nil ? "the default catalog \(GlobalOptions.defaultCatalog)" : "the catalog"
            throw .runtime(
                "cannot load the catalog: there is no file \(path) (\(which), relative to the current directory); give your .storekit file with --catalog PATH"
            )
        }
        let catalog: StoreKitConfiguration
        // Content digests checked before are kept in the data directory (when it resolves).
        let cache =
            contentFiles == .manifestsOnly
            ? nil
            : (try? DataDirectory.resolve(
                option: options.dataDirectory, environment: context.environment,
                currentDirectory: context.currentDirectory))
                .map { ContentDigestCache(dataDirectory: $0) }
        do {
            catalog = try StoreKitConfiguration.load(
                contentsOf: URL(fileURLWithPath: path), contentDigester: cache?.digester ?? ContentDigest.sha256,
                contentFiles: contentFiles)
        } catch {
            throw .runtime("cannot load the catalog: \(error.description)")
        }
        cache?.save()
        let choice = try resolveStorefront(
            option: options.storefront, origin: options.storefrontOrigin, catalog: catalog)
        let locale = try resolveLocale(
            option: options.locale, storefrontOption: options.storefront, storefront: choice.storefront,
            catalog: catalog)
        let warnings = catalog.warnings + catalog.priceWarnings(for: choice)
        for warning in warnings { context.output.writeError("storefront: warning: \(warning)\n") }
        return CatalogSelection(catalog: catalog, storefrontChoice: choice, locale: locale, warnings: warnings)
    }

    /// `--storefront` when given, else the catalog's `_storefront`, else the United States.
    /// - Parameter origin: where `option` came from when not from `--storefront` itself.
    static func resolveStorefront(
        option: String?, origin: String? = nil, catalog: StoreKitConfiguration
    ) throws(CLIError) -> StorefrontChoice {
        guard let option else { return catalog.defaultStorefrontChoice }
        guard let storefront = Storefront.named(option) else {
            let examples = Storefront.all.prefix(8).map(\.code).joined(separator: ", ")
            throw .usage(
                "unknown storefront '\(option)'; use an ISO 3166 alpha-3 code such as \(examples) (\(Storefront.all.count) are known; see 'storefront help')."
            )
        }
        return StorefrontChoice(storefront: storefront, source: .option(origin ?? "--storefront"))
    }

    /// `--locale` when given; else the storefront's locale when `--storefront` was given;
    /// else the catalog's `_locale`; else the storefront's locale.
    static func resolveLocale(
        option: String?, storefrontOption: String?, storefront: Storefront, catalog: StoreKitConfiguration
    ) throws(CLIError) -> String {
        if let option {
            let allowed = option.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) || $0 == "_"
                    || $0 == "-"
            }
            guard allowed, option.count <= 40, option.first?.isLetter == true else {
                throw .usage("malformed locale '\(option)'; use an identifier such as en_US, ja_JP, pt_BR.")
            }
            return option
        }
        if storefrontOption != nil { return storefront.locale }
        return catalog.settings.locale ?? storefront.locale
    }
}
