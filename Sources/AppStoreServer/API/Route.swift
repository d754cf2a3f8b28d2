/// The endpoints the server answers, matched from a method and a path.
enum Route: Hashable, Sendable {
    case transactionInfo(String)
    case appTransactionInfo(String)
    case historyV1(String)
    case historyV2(String)
    case subscriptionStatuses(String)
    case orderLookup(String)
    case refundHistory(String)
    case extendRenewalDate(String)
    case massExtendRenewalDate
    case massExtendStatus(productID: String, requestIdentifier: String)
    case consumptionV1(String)
    case consumptionV2(String)
    case appAccountToken(String)
    case requestTestNotification
    case testNotificationStatus(String)
    case notificationHistory
    case verifyReceipt
    /// Finish Transaction (App Store Server API 1.20).
    case finishTransaction(String)
    /// The Retention Messaging API (`RetentionRoute`).
    case retention(RetentionRoute)
    /// The OCSP responder the certificates' Authority Information Access names.
    case ocsp

    /// What a method and path resolve to.
    enum Resolution: Hashable, Sendable {
        case found(Route)
        /// The path exists with other methods.
        case wrongMethod(allowed: [String])
        case notFound
    }

    /// Whether the route is one of the App Store Server API's (JWT required).
    var needsToken: Bool { self != .verifyReceipt && self != .ocsp }

    /// Whether the route's answer follows from the store's state alone (not from the time,
    /// nor from files beside the journal), so it may be kept until the state changes.
    var answerFollowsFromState: Bool {
        switch self {
        case .transactionInfo, .historyV1, .historyV2, .orderLookup, .refundHistory: true
        default: false
        }
    }

    /// Whether the route only reads the store (any `GET` of Apple's API), so it can be
    /// answered from a snapshot on the HTTP thread.
    var readsOnly: Bool {
        switch self {
        case .transactionInfo, .appTransactionInfo, .historyV1, .historyV2, .subscriptionStatuses, .orderLookup,
            .refundHistory,
            .massExtendStatus:
            true
        // The test notification's status follows the sender's attempts: read through the store's actor.
        case .extendRenewalDate, .massExtendRenewalDate, .consumptionV1, .consumptionV2, .appAccountToken,
            .verifyReceipt, .ocsp,
            .requestTestNotification, .testNotificationStatus, .notificationHistory, .finishTransaction, .retention:
            false
        }
    }

    /// Resolves `method` on `path`.
    static func resolve(method: String, path: String) -> Resolution {
        let s = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        guard path.hasPrefix("/"), !s.contains(where: \.isEmpty) || s == [""] else { return .notFound }
        var candidates: [(method: String, route: Route)] = []
        switch s.count {
        case 1 where s[0] == "verifyReceipt":
            candidates = [("POST", .verifyReceipt), ("GET", .verifyReceipt)]
        case 1 where s[0] == "ocsp":
            candidates = [("POST", .ocsp)]
        case 4 where s[0] == "inApps":
            switch (s[1], s[2]) {
            case ("v1", "transactions"): candidates = [("GET", .transactionInfo(s[3]))]
            case ("v1", "history"): candidates = [("GET", .historyV1(s[3]))]
            case ("v2", "history"): candidates = [("GET", .historyV2(s[3]))]
            case ("v1", "subscriptions"): candidates = [("GET", .subscriptionStatuses(s[3]))]
            case ("v1", "lookup"): candidates = [("GET", .orderLookup(s[3]))]
            case ("v1", "notifications") where s[3] == "test": candidates = [("POST", .requestTestNotification)]
            case ("v1", "notifications") where s[3] == "history": candidates = [("POST", .notificationHistory)]
            case ("v1", "messaging"): candidates = RetentionRoute.candidates(s)
            default: break
            }
        case 5 where s[0] == "inApps":
            switch (s[1], s[2], s[3]) {
            case ("v1", "transactions", "appTransactions"): candidates = [("GET", .appTransactionInfo(s[4]))]
            case ("v1", "transactions", "consumption"): candidates = [("PUT", .consumptionV1(s[4]))]
            case ("v2", "transactions", "consumption"): candidates = [("PUT", .consumptionV2(s[4]))]
            case ("v1", "transactions", _) where s[4] == "appAccountToken":
                candidates = [("PUT", .appAccountToken(s[3]))]
            case ("v1", "transactions", _) where s[4] == "finish": candidates = [("POST", .finishTransaction(s[3]))]
            case ("v1", "messaging", _): candidates = RetentionRoute.candidates(s)
            case ("v2", "refund", "lookup"): candidates = [("GET", .refundHistory(s[4]))]
            case ("v1", "notifications", "test"): candidates = [("GET", .testNotificationStatus(s[4]))]
            case ("v1", "subscriptions", "extend") where s[4] == "mass": candidates = [("POST", .massExtendRenewalDate)]
            case ("v1", "subscriptions", "extend"): candidates = [("PUT", .extendRenewalDate(s[4]))]
            default: break
            }
        case 6 where s[0] == "inApps" && s[1] == "v1" && s[2] == "messaging":
            candidates = RetentionRoute.candidates(s)
        case 7 where s[0] == "inApps" && s[1] == "v1" && s[2] == "subscriptions" && s[3] == "extend" && s[4] == "mass":
            candidates = [("GET", .massExtendStatus(productID: s[5], requestIdentifier: s[6]))]
        default: break
        }
        guard !candidates.isEmpty else { return .notFound }
        if let match = candidates.first(where: { $0.method == method }) { return .found(match.route) }
        return .wrongMethod(allowed: candidates.map(\.method))
    }
}
