import StoreCore
import StorefrontRuntime
import StorefrontUI

/// Runs the storefront's effects against a `StorefrontStore` and sends their results back as
/// actions. Wiring only: every decision lives in `reduce`, and every task belongs to the
/// runtime (`EffectRuntime`), which cancels it.
///
/// Each kind of work has its own runner, named after what it does: the engine's events and
/// other processes' changes (`StoreWatch`), loads (`StoreLoads`), buying (`Purchasing`), the
/// downloads' keys (`DownloadCommands`), the Transaction Manager (`TransactionDesk`), and
/// the customer's cancel with its retention message (`RetentionDesk`).
public final class StorefrontEffects: EffectHandler {
    private let store: any StorefrontStore
    private let watch: StoreWatch
    private let loads: StoreLoads
    private let purchasing: Purchasing
    private let desk: TransactionDesk

    /// Effects that act on `store`.
    public init(store: any StorefrontStore) {
        self.store = store
        watch = StoreWatch(store: store)
        loads = StoreLoads(store: store)
        purchasing = Purchasing(store: store)
        desk = TransactionDesk(store: store)
    }

    /// Runs one effect and sends its results.
    /// - Parameters:
    ///   - effect: the work to do (the runtime's own, `.every`, `.tick`, `.cancel` and
    ///     `.quit`, do nothing here).
    ///   - send: delivers an action to the event loop.
    public func perform(_ effect: Effect, send: @escaping @Sendable (Action) -> Void) async {
        switch effect {
        case .observeStore:
            await watch.observe(send: send)
        case .watchStore:
            await watch.follow(send: send)
        case .loadContext, .loadProducts, .loadPurchases, .loadSettings, .loadNotifications, .loadServer,
            .loadPriceComparison, .loadReceipt, .loadTransaction, .loadAppTransaction, .loadAccounts, .signIn,
            .removeFromFamily:
            await loads.perform(effect, send: send)
        case .setStorefront(let code, let locale):
            await loads.switchStorefront(code, locale: locale, send: send)
        case .setSetting(let name, let value):
            await loads.setSetting(name, value: value, send: send)
        case .purchase(let productID, let quantity, let offerID, let billingPlan):
            await purchasing.purchase(
                productID, quantity: quantity, offerID: offerID, billingPlan: billingPlan, send: send)
        case .redeemOfferCode(let productID):
            await purchasing.redeemOfferCode(productID, send: send)
        case .followDownload(let id, let productID):
            await purchasing.followDownload(id, productID: productID, send: send)
        case .restore:
            await purchasing.restore(send: send)
        case .refreshReceipt:
            await purchasing.refreshReceipt(send: send)
        case .pauseDownload, .resumeDownload, .cancelDownload:
            await DownloadCommands(store: store).perform(effect, send: send)
        case .transactionCommand(let command, let id):
            await desk.run(command, transactionID: id, send: send)
        case .subscriptionCommand(let command, let id):
            await desk.run(command, transactionID: id, send: send)
        case .askRetention(let productID):
            await RetentionDesk(store: store).ask(productID, send: send)
        case .chooseRetention(let choice, let sheet):
            await RetentionDesk(store: store).choose(choice, on: sheet, send: send)
        case .consume(let productID, let quantity):
            await desk.consume(productID, quantity: quantity, send: send)
        case .tick, .every, .cancel, .quit:
            // The runtime's own.
            break
        }
    }
}
