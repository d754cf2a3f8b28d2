/// The `settings` block of a StoreKit Configuration file. Every key is optional.
///
/// Keys the catalog does not model stay in `extra`, so nothing read is lost.
public struct CatalogSettings: Sendable, Hashable {
    /// The default storefront (`_storefront`), ISO 3166 alpha-3, e.g. `USA`.
    public var storefront: String?
    /// The default locale (`_locale`), e.g. `en_US`.
    public var locale: String?
    /// The subscription renewal rate (`_timeRate`) as Xcode's raw integer (0 = real time).
    public var timeRate: Int?
    /// Whether purchases need a parent's approval (`_askToBuyEnabled`).
    public var askToBuyEnabled: Bool?
    /// Whether every transaction fails (`_failTransactionsEnabled`).
    public var failTransactionsEnabled: Bool?
    /// Per-API simulated errors (`_storeKitErrors`); empty when absent.
    public var storeKitErrors: [StoreKitErrorSetting]
    /// Whether purchase confirmation dialogs are skipped (`_disableDialogs`).
    public var disableDialogs: Bool?
    /// Whether billing problems are simulated (`_billingIssuesEnabled`).
    public var billingIssuesEnabled: Bool?
    /// Whether a billing grace period applies (`_billingGracePeriodEnabled`).
    public var billingGracePeriodEnabled: Bool?
    /// Whether renewals hit billing problems (`_renewalBillingIssuesEnabled`).
    public var renewalBillingIssuesEnabled: Bool?
    /// Every other key, as read (`_applicationInternalID`, `_developerTeamID`, …).
    public var extra: [String: JSONValue]

    /// Creates settings; everything defaults to absent.
    public init(
        storefront: String? = nil, locale: String? = nil, timeRate: Int? = nil,
        askToBuyEnabled: Bool? = nil, failTransactionsEnabled: Bool? = nil,
        storeKitErrors: [StoreKitErrorSetting] = [], disableDialogs: Bool? = nil,
        billingIssuesEnabled: Bool? = nil, billingGracePeriodEnabled: Bool? = nil,
        renewalBillingIssuesEnabled: Bool? = nil, extra: [String: JSONValue] = [:]
    ) {
        self.storefront = storefront
        self.locale = locale
        self.timeRate = timeRate
        self.askToBuyEnabled = askToBuyEnabled
        self.failTransactionsEnabled = failTransactionsEnabled
        self.storeKitErrors = storeKitErrors
        self.disableDialogs = disableDialogs
        self.billingIssuesEnabled = billingIssuesEnabled
        self.billingGracePeriodEnabled = billingGracePeriodEnabled
        self.renewalBillingIssuesEnabled = renewalBillingIssuesEnabled
        self.extra = extra
    }
}
