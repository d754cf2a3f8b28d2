/// Writes a large, realistic StoreKit Configuration (format 4 layout) as JSON text:
/// consumables, non-consumables, non-renewing and auto-renewable subscriptions in groups with
/// introductory and promotional offers, each product localized in every locale.
struct CatalogGenerator {
    /// How many products in all.
    var productCount = 10_000
    /// How many localizations each product has.
    var localeCount = 20
    /// Subscriptions per group.
    var subscriptionsPerGroup = 35

    static let locales = [
        "en_US", "zh_CN", "ja_JP", "de_DE", "fr_FR", "pt_BR", "es_ES", "it_IT", "ko_KR", "ru_RU",
        "nl_NL", "sv_SE", "tr_TR", "ar_SA", "he_IL", "th_TH", "vi_VN", "pl_PL", "id_ID", "zh_TW",
        "da_DK", "fi_FI", "nb_NO", "cs_CZ",
    ]
    private static let names = [
        "Coins", "金币", "コイン", "Münzen", "pièces", "moedas", "monedas", "monete", "코인", "монеты",
    ]
    private static let periods = ["P1W", "P1M", "P3M", "P6M", "P1Y"]

    /// The JSON text of the catalog.
    func json() -> String {
        let subscriptionCount = productCount * 35 / 100
        let nonRenewingCount = productCount * 5 / 100
        let plainCount = productCount - subscriptionCount - nonRenewingCount
        var out = "{\n  \"identifier\" : \"BENCH0001\",\n  \"nonRenewingSubscriptions\" : [\n"
        for index in 0..<nonRenewingCount {
            product(
                &out, id: "bench.nonrenewing.\(index)", type: "NonRenewingSubscription", index: index, subscription: nil
            )
            out += index < nonRenewingCount - 1 ? ",\n" : "\n"
        }
        out += "  ],\n  \"products\" : [\n"
        for index in 0..<plainCount {
            let type = index % 2 == 0 ? "Consumable" : "NonConsumable"
            product(&out, id: "bench.product.\(index)", type: type, index: index, subscription: nil)
            out += index < plainCount - 1 ? ",\n" : "\n"
        }
        out +=
            "  ],\n  \"settings\" : { \"_locale\" : \"en_US\", \"_storefront\" : \"USA\", \"_timeRate\" : 0, \"_storeKitErrors\" : [] },\n"
        out += "  \"subscriptionGroups\" : [\n"
        let groups = (subscriptionCount + subscriptionsPerGroup - 1) / subscriptionsPerGroup
        var made = 0
        for group in 0..<groups {
            out +=
                "    { \"id\" : \"G\(group)\", \"name\" : \"Group \(group)\", \"localizations\" : [], \"subscriptions\" : [\n"
            let inGroup = min(subscriptionsPerGroup, subscriptionCount - made)
            for member in 0..<inGroup {
                product(
                    &out, id: "bench.sub.\(group).\(member)", type: "RecurringSubscription", index: made,
                    subscription: (group, member))
                out += member < inGroup - 1 ? ",\n" : "\n"
                made += 1
            }
            out += group < groups - 1 ? "    ] },\n" : "    ] }\n"
        }
        out += "  ],\n  \"version\" : { \"major\" : 4, \"minor\" : 0 }\n}\n"
        return out
    }

    private func product(
        _ out: inout String, id: String, type: String, index: Int, subscription: (group: Int, member: Int)?
    ) {
        let price = "\(index % 100).99"
        out += "    {\n      \"displayPrice\" : \"\(price)\",\n      \"familyShareable\" : \(index % 3 == 0),\n"
        out += "      \"internalID\" : \"\(String(index, radix: 16, uppercase: true))\",\n      \"localizations\" : [\n"
        for locale in 0..<localeCount {
            let code = Self.locales[locale % Self.locales.count]
            let name = Self.names[locale % Self.names.count]
            out +=
                "        { \"description\" : \"\(name) pack number \(index) for the \(code) storefront, a fine purchase\", "
            out += "\"displayName\" : \"\(index) \(name)\", \"locale\" : \"\(code)\" }"
            out += locale < localeCount - 1 ? ",\n" : "\n"
        }
        out +=
            "      ],\n      \"productID\" : \"\(id)\",\n      \"referenceName\" : \"Reference \(index)\",\n      \"type\" : \"\(type)\""
        if let subscription {
            let period = Self.periods[subscription.member % Self.periods.count]
            out +=
                ",\n      \"groupNumber\" : \(subscription.member % 5 + 1),\n      \"recurringSubscriptionPeriod\" : \"\(period)\",\n"
            out += "      \"subscriptionGroupID\" : \"G\(subscription.group)\",\n"
            out +=
                "      \"introductoryOffer\" : { \"internalID\" : \"I\(index)\", \"paymentMode\" : \"free\", \"subscriptionPeriod\" : \"P1W\" },\n"
            out +=
                "      \"adHocOffers\" : [ { \"internalID\" : \"A\(index)\", \"offerID\" : \"\(id).promo\", \"paymentMode\" : \"payAsYouGo\", "
            out +=
                "\"displayPrice\" : \"0.99\", \"numberOfPeriods\" : 3, \"referenceName\" : \"Promo\", \"subscriptionPeriod\" : \"P1M\" } ],\n"
            out += "      \"codeOffers\" : [],\n      \"winbackOffers\" : []"
        }
        out += "\n    }"
    }
}
