/// Format 6's subscription bundle and suite groups, and the app's policies.
extension ConfigurationDecoder {
    private static let memberKeys: KnownKeys = [
        "productID", "referenceName", "type", "displayPrice", "recurringSubscriptionPeriod", "familyShareable",
        "localizations",
    ]
    private static let policiesKeys: KnownKeys = ["eula", "policies"]
    private static let policyKeys: KnownKeys = ["locale", "policyText", "policyURL"]

    /// The groups in the root's array `key`. A member's product ID is unique among all the
    /// file's products, as in App Store Connect; its price is read as any price is.
    mutating func decodeBundleGroups(
        _ root: ObjectReader<JSONElement>, key: String, _ kind: SubscriptionBundleGroup.Kind
    ) throws(CatalogError) -> [SubscriptionBundleGroup] {
        var groups: [SubscriptionBundleGroup] = []
        let groupsPath = root.path(of: key)
        let what = kind == .bundle ? "a subscription bundle group" : "a subscription suite group"
        for (index, element) in try root.optionalArray(key).enumerated() {
            let object = try ObjectReader(element, file: file, parent: groupsPath, index: index, what: what)
            let id = try object.nonEmptyString("id")
            var members: [SubscriptionBundleGroup.Member] = []
            let membersPath = object.path(of: "subscriptions")
            for (memberIndex, memberElement) in try object.optionalArray("subscriptions").enumerated() {
                let member = try ObjectReader(
                    memberElement, file: file, parent: membersPath, index: memberIndex, what: "a product")
                let productID = try productID(of: member, parent: membersPath, index: memberIndex)
                members.append(
                    SubscriptionBundleGroup.Member(
                        id: productID,
                        referenceName: try member.optionalString("referenceName") ?? "",
                        type: try member.optionalString("type"),
                        price: member.member("displayPrice") == nil
                            ? nil : try readPrice(member, "displayPrice", productID: productID),
                        period: member.member("recurringSubscriptionPeriod") == nil
                            ? nil : try member.period("recurringSubscriptionPeriod"),
                        familyShareable: try member.optionalBool("familyShareable") ?? false,
                        localizations: try decodeLocalizations(member),
                        extra: member.extra(excluding: Self.memberKeys)))
            }
            groups.append(
                SubscriptionBundleGroup(
                    kind: kind, id: id, name: try object.optionalString("name") ?? id,
                    localizations: try decodeGroupLocalizations(object), members: members,
                    extra: object.extra(excluding: Self.groupKeys)))
        }
        return groups
    }

    /// `appPolicies`: the license agreement and the privacy policies per locale.
    func decodeAppPolicies(_ value: JSONElement, path: String) throws(CatalogError) -> AppPolicies {
        let object = try ObjectReader(value, file: file, path: path, what: "app policies")
        var policies: [AppPolicies.Policy] = []
        let policiesPath = object.path(of: "policies")
        for (index, element) in try object.optionalArray("policies").enumerated() {
            let entry = try ObjectReader(element, file: file, parent: policiesPath, index: index, what: "a policy")
            policies.append(
                AppPolicies.Policy(
                    locale: try entry.nonEmptyString("locale"), text: try entry.optionalString("policyText") ?? "",
                    url: try entry.optionalString("policyURL") ?? "", extra: entry.extra(excluding: Self.policyKeys)))
        }
        return AppPolicies(
            eula: try object.optionalString("eula") ?? "", policies: policies,
            extra: object.extra(excluding: Self.policiesKeys))
    }
}
