/// The `localizations` arrays of products and groups.
extension ConfigurationDecoder {
    /// A product's `localizations`: each needs a `locale`; names and descriptions may be absent.
    func decodeLocalizations(_ object: ObjectReader<JSONElement>) throws(CatalogError) -> [Localization] {
        var localizations: [Localization] = []
        let localizationsPath = object.path(of: "localizations")
        for (index, element) in try object.optionalArray("localizations").enumerated() {
            let entry = try ObjectReader(
                element, file: file, parent: localizationsPath, index: index, what: "a localization")
            localizations.append(
                Localization(
                    locale: try entry.nonEmptyString("locale"),
                    displayName: try entry.optionalString("displayName") ?? "",
                    description: try entry.optionalString("description") ?? ""))
        }
        return localizations
    }

    /// A group's `localizations` (format 6 adds a `description`).
    func decodeGroupLocalizations(
        _ object: ObjectReader<JSONElement>
    ) throws(CatalogError) -> [SubscriptionGroup.Localization] {
        var localizations: [SubscriptionGroup.Localization] = []
        let localizationsPath = object.path(of: "localizations")
        for (index, element) in try object.optionalArray("localizations").enumerated() {
            let entry = try ObjectReader(
                element, file: file, parent: localizationsPath, index: index, what: "a group localization")
            localizations.append(
                SubscriptionGroup.Localization(
                    locale: try entry.nonEmptyString("locale"),
                    displayName: try entry.optionalString("displayName") ?? "",
                    customAppName: try entry.optionalString("customAppName"),
                    description: try entry.optionalString("description")))
        }
        return localizations
    }
}
