import Foundation
internal import SystemIO

/// How the engine behaves; immutable once the `Store` is made.
public struct StoreConfiguration: Sendable {
    /// Finish each transaction with the backend as soon as it is recorded (the default).
    /// When false, the app calls `Store.finish(_:)` after its own bookkeeping; until it does,
    /// the engine never finishes a purchased or restored transaction and announces it again at
    /// each start (failed and rejected transactions it finishes itself).
    public var finishesTransactionsAutomatically: Bool
    /// Verifies each purchase before it is recorded; `AcceptingVerifier` turns verification off.
    public var verifier: any PurchaseVerifier
    /// Where store notifications are posted.
    public var notificationCenter: NotificationCenter
    /// Called at each fault point (tests kill the process there).
    public var faultHook: FaultHook
    /// The engine's time, for entitlements and download rates.
    public var clock: any StoreClock
    /// How entitlements are computed: the app's durations for non-renewing subscriptions (by
    /// default none, so the latest purchase of each is owned, as in StoreKit 2).
    public var entitlements: EntitlementCalculator
    /// Hosted-content downloads (where content goes, self-hosted source); `nil` turns them off.
    public var downloads: DownloadConfiguration?
    /// Verifies the signed app transaction (`Store.appTransaction()`); `nil` reports every app
    /// transaction unverified, as no root is trusted.
    public var appTransactionVerifier: AppTransactionVerifier?

    /// Creates a configuration; every setting has its production default (automatic finishing,
    /// no verification, the default notification center, real time, downloads off, no app
    /// transaction verifier).
    public init(
        finishesTransactionsAutomatically: Bool = true,
        verifier: any PurchaseVerifier = AcceptingVerifier(),
        notificationCenter: NotificationCenter = .default,
        faultHook: @escaping FaultHook = { _ in },
        clock: any StoreClock = SystemClock(),
        entitlements: EntitlementCalculator = EntitlementCalculator(),
        downloads: DownloadConfiguration? = nil,
        appTransactionVerifier: AppTransactionVerifier? = nil
    ) {
        self.downloads = downloads
        self.appTransactionVerifier = appTransactionVerifier
        self.finishesTransactionsAutomatically = finishesTransactionsAutomatically
        self.verifier = verifier
        self.notificationCenter = notificationCenter
        self.faultHook = faultHook
        self.clock = clock
        self.entitlements = entitlements
    }
}
