import Foundation

/// What only auto-renewable subscriptions have: their group level, period, offers and billing plans.
extension ConfigurationDecoder {
    private static let offerKeys: KnownKeys = [
        "offerID", "internalID", "referenceName", "paymentMode", "subscriptionPeriod", "numberOfPeriods",
        "displayPrice", "eligibility", "billingPlanType",
    ]
    private static let billingPlanKeys: KnownKeys = [
        "billingPlanType", "displayPrice", "commitmentDisplayPrice", "isEnabled", "internalID",
    ]

    /// The subscription details and the base price of the product `object` in `group`, read in
    /// the order Xcode writes the members.
    mutating func decodeSubscription(
        _ object: ObjectReader<JSONElement>, productID: String, group: (id: String, name: String)
    ) throws(CatalogError) -> (StoreKitConfiguration.SubscriptionInfo, Decimal) {
        let promotional = try decodeOffers(object, key: "adHocOffers", productID: productID)
        var plans: [StoreKitConfiguration.BillingPlan] = []
        let plansPath = object.path(of: "billingPlans")
        for (index, element) in try object.optionalArray("billingPlans").enumerated() {
            let plan = try ObjectReader(element, file: file, parent: plansPath, index: index, what: "a billing plan")
            plans.append(
                StoreKitConfiguration.BillingPlan(
                    type: BillingPlanType(rawValue: try plan.nonEmptyString("billingPlanType")),
                    price: try readPrice(plan, "displayPrice", productID: productID),
                    commitmentPrice: plan.member("commitmentDisplayPrice") == nil
                        ? nil : try readPrice(plan, "commitmentDisplayPrice", productID: productID),
                    isEnabled: try plan.optionalBool("isEnabled") ?? true,
                    internalID: try plan.optionalString("internalID"),
                    extra: plan.extra(excluding: Self.billingPlanKeys)))
        }
        let codes = try decodeOffers(object, key: "codeOffers", productID: productID)
        let price = try readPrice(object, "displayPrice", productID: productID)
        // Format 5 and later write `introductoryOffers`; earlier ones a single `introductoryOffer`.
        let introductory: [StoreKitConfiguration.SubscriptionOffer]
        if object.has("introductoryOffers") {
            introductory = try decodeOffers(object, key: "introductoryOffers", productID: productID)
        } else if let single = object.member("introductoryOffer") {
            introductory = [
                try decodeOffer(single, path: object.path(of: "introductoryOffer"), productID: productID)
            ]
        } else {
            introductory = []
        }
        let info = StoreKitConfiguration.SubscriptionInfo(
            groupID: group.id, groupName: group.name,
            groupNumber: try object.optionalInt("groupNumber", minimum: 1) ?? 1,
            period: try object.period("recurringSubscriptionPeriod"),
            introductoryOffers: introductory, promotionalOffers: promotional, codeOffers: codes,
            winBackOffers: try decodeOffers(object, key: "winbackOffers", productID: productID),
            billingPlans: plans)
        return (info, price)
    }

    private mutating func decodeOffers(
        _ object: ObjectReader<JSONElement>, key: String, productID: String
    ) throws(CatalogError) -> [StoreKitConfiguration.SubscriptionOffer] {
        var offers: [StoreKitConfiguration.SubscriptionOffer] = []
        let offersPath = object.path(of: key)
        for (index, element) in try object.optionalArray(key).enumerated() {
            offers.append(try decodeOffer(element, path: JSONPath.element(index, of: offersPath), productID: productID))
        }
        return offers
    }

    /// Decodes one subscription offer.
    ///
    /// A `free` offer costs 0 whatever its `displayPrice` says: Xcode leaves the price an
    /// offer had before its mode was set to free, and a free trial charges nothing. That stale
    /// `displayPrice` is still checked (a malformed or negative one is an error, as on any
    /// offer), since it is the file's own text and a broken one means a broken file.
    private mutating func decodeOffer(
        _ value: JSONElement, path: String, productID: String
    ) throws(CatalogError) -> StoreKitConfiguration.SubscriptionOffer {
        let object = try ObjectReader(value, file: file, path: path, what: "a subscription offer")
        let modeText = try object.string("paymentMode")
        guard let mode = PaymentMode(rawValue: modeText) else {
            let known = PaymentMode.allCases.map(\.rawValue).joined(separator: ", ")
            throw object.error("paymentMode", "unknown payment mode \"\(modeText)\"; expected one of \(known)")
        }
        let price: Decimal
        if object.member("displayPrice") != nil {
            let written = try readPrice(object, "displayPrice", productID: productID, charged: mode != .free)
            price = mode == .free ? 0 : written
        } else if mode == .free {
            price = 0
        } else {
            throw object.error("displayPrice", "missing displayPrice for a \(modeText) offer")
        }
        var eligibility: [String] = []
        for (index, element) in try object.optionalArray("eligibility").enumerated() {
            guard let text = element.string else {
                throw CatalogError(
                    file: file, path: JSONPath.element(index, of: object.path(of: "eligibility")),
                    problem: "expected a string, found \(element.typeDescription)")
            }
            eligibility.append(text)
        }
        return StoreKitConfiguration.SubscriptionOffer(
            id: try object.optionalString("offerID"), internalID: try object.optionalString("internalID"),
            referenceName: try object.optionalString("referenceName"),
            paymentMode: mode, period: try object.period("subscriptionPeriod"),
            numberOfPeriods: try object.optionalInt("numberOfPeriods", minimum: 1) ?? 1, price: price,
            eligibility: eligibility,
            billingPlanType: try object.optionalString("billingPlanType").map(BillingPlanType.init(rawValue:)),
            extra: object.extra(excluding: Self.offerKeys))
    }
}
