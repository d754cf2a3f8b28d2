import Foundation
import StoreKitValues

/// The storefront's update function: applies `action` to `state` and returns the work for
/// the runtime as data. Pure: no terminal, no disk, no clock (the time arrives in `.tick`).
/// - Parameters:
///   - state: the state to update in place.
///   - action: what happened.
/// - Returns: the effects to run, in order; the last may (re)schedule or stop the animation.
public func reduce(state: inout State, action: Action) -> [Effect] {
    let effects = state.update(action)
    return effects + state.scheduleAnimation()
}

extension State {
    /// Applies one action: the root's own here, each screen's through `scope`, as
    /// swift-composable-architecture's root reducer composes its children.
    mutating func update(_ action: Action) -> [Effect] {
        switch action {
        case .started:
            // The event subscription first, so nothing the loads cause goes unheard.
            return [
                .observeStore, .loadContext, .loadProducts, .loadPurchases, .loadSettings, .loadServer, .watchStore,
            ]
        case .storeChanged:
            // An open window that shows the store follows it: Store Settings (a `store set` from
            // the CLI), Server Notifications (the sender's attempts as they are journaled).
            switch modal {
            case .settings: return [.loadPurchases, .loadSettings]
            case .notifications: return [.loadPurchases] + update(.notifications(.follow))
            default: return [.loadPurchases]
            }
        case .key(let key):
            return handle(key)
        case .signal(let number):
            exitStatus = 128 + number
            isQuitting = true
            return [.quit]
        case .resize(let width, let height):
            self.width = max(0, width)
            self.height = max(0, height)
            return update(.catalog(.layoutChanged))
        case .tick(let date):
            return advance(to: date)
        case .storeEvent(let event):
            return apply(event)
        case .contextLoaded(.success(let loaded)):
            let changed = context.map { $0.locale != loaded.locale || $0.storefront != loaded.storefront } ?? false
            let effects = adopt(loaded)
            return changed ? effects + [.loadProducts] : effects
        case .contextLoaded(.failure(let error)):
            fail(error)
            return []
        case .purchasesLoaded(.success(let snapshot)):
            purchases = snapshot
            switch modal {
            case .transactions: return update(.transactionManager(.rowsChanged))
            case .purchases: return update(.myPurchases(.rowsChanged))
            default: return []
            }
        case .purchasesLoaded(.failure(let error)):
            fail(error)
            return []
        case .serverLoaded(let url):
            serverURL = url
            return []
        case .storefrontSwitched(let result):
            return switched(result)
        case .appTransactionLoaded(let result):
            showAppTransaction(result)
            return []
        case .catalog(let action): return scope(\.catalog, CatalogFeature.self, action)
        case .details(let action): return scope(\.details, DetailsFeature.self, action)
        case .buySheet(let action): return scope(\.buySheet, BuySheetFeature.self, action)
        case .transactionManager(let action):
            return scope(\.transactionManager, TransactionManagerFeature.self, action)
        case .myPurchases(let action): return scope(\.myPurchases, MyPurchasesFeature.self, action)
        case .cancelSheet(let action): return scope(\.cancelSheet, CancelSheetFeature.self, action)
        case .downloads(let action): return scope(\.downloads, DownloadsFeature.self, action)
        case .settings(let action): return scope(\.settings, SettingsFeature.self, action)
        case .receipt(let action): return scope(\.receipt, ReceiptFeature.self, action)
        case .notifications(let action): return scope(\.notifications, NotificationsFeature.self, action)
        case .eventLog(let action): return scope(\.eventLog, EventLogFeature.self, action)
        case .help(let action): return scope(\.help, HelpFeature.self, action)
        case .storefronts(let action): return scope(\.storefronts, StorefrontsFeature.self, action)
        case .questions(let action): return scope(\.questions, QuestionsFeature.self, action)
        case .menu(let action): return scope(\.menu, MenuFeature.self, action)
        case .accounts(let action): return scope(\.accounts, AccountsFeature.self, action)
        }
    }

    /// Takes a new context: the language, the estimated prices and the list follow it.
    private mutating func adopt(_ loaded: StoreContext) -> [Effect] {
        context = loaded
        strings = Strings(UILanguage(locale: loaded.locale))
        return update(.catalog(.contextChanged))
    }

    /// A storefront switch ended: its context and its products arrive together, so no frame
    /// shows one storefront's header over another's prices.
    private mutating func switched(_ result: Result<StorefrontSwitch, StoreError>) -> [Effect] {
        var effects = update(.storefronts(.switched))
        switch result {
        case .success(let switched):
            let before = context
            context = switched.context
            strings = Strings(UILanguage(locale: switched.context.locale))
            effects += update(.catalog(.productsSwitched(switched.products)))
            effects += update(.details(.storefrontChanged))
            if before?.storefront != switched.context.storefront || before?.locale != switched.context.locale {
                report(
                    strings("Storefront set to {} ({})", switched.context.storefront, switched.context.locale),
                    kind: .success)
            }
        case .failure(let error):
            fail(error)
        }
        return effects
    }

    /// Asks the runtime for ticks at the interval the state needs (`tickInterval`) when that
    /// changed: a new schedule replaces the running one, none stops it. Nothing once quitting
    /// (`.quit` cancels everything).
    mutating func scheduleAnimation() -> [Effect] {
        let wanted = tickInterval
        guard !isQuitting, wanted != animationInterval else { return [] }
        animationInterval = wanted
        return [wanted.map { .every(.milliseconds($0), .tick) } ?? .cancel(.animation)]
    }

    /// The clock moved: messages fade, a finished purchase's sheet closes, settled downloads
    /// leave the pane.
    private mutating func advance(to date: Date) -> [Effect] {
        now = date
        tickCount &+= 1
        if var message {
            if let shown = message.shownAt {
                if date.timeIntervalSince(shown) >= message.lifetime { self.message = nil }
            } else {
                message.shownAt = date
                self.message = message
            }
        }
        return update(.buySheet(.tick(date))) + update(.downloads(.tick(date)))
    }

    /// Leaves now with `status`.
    mutating func quit(status: Int32 = 0) -> [Effect] {
        exitStatus = status
        isQuitting = true
        modal = nil
        return [.quit]
    }

    /// Quits, after asking when downloads are under way.
    mutating func askToQuit() -> [Effect] {
        let running = downloads.active.count
        guard running == 0 else { return update(.questions(.ask(.quit(downloads: running), over: modal))) }
        return quit()
    }
}
