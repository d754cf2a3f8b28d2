import StoreKitValues

/// The menu (`m`, F2): the storefront's commands, each also a key of its own on the list, and
/// whether an App Store Server runs on the data directory. Restore and Refresh Receipt are its
/// own work; the other items open their windows.
public enum MenuFeature: Feature {
    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        let s = root.strings
        switch action {
        case .open:
            state.selected = 0
            // The menu says whether a server runs on the data directory: look again as it opens.
            return Reaction(requests: [.present(.menu), .run(.loadServer)])
        case .key(let key):
            let items = MenuItem.allCases
            switch key {
            case .up, .character("k"): state.selected = (state.selected + items.count - 1) % items.count
            case .down, .character("j"): state.selected = (state.selected + 1) % items.count
            case .enter: return run(items[min(max(0, state.selected), items.count - 1)], &state, root)
            case .escape, .character("m"): return .present(nil)
            case .character(let c):
                if let item = items.first(where: { $0.key == c }) { return run(item, &state, root) }
            default: break
            }
            return .none
        case .run(let item):
            return run(item, &state, root)
        case .restoreFinished(let result):
            state.isRestoring = false
            var reaction = Reaction.none
            switch result {
            case .success(let restored):
                let text =
                    restored.isEmpty
                    ? s("Nothing to restore")
                    : s("Restored {}", CountedWords.phrase(restored.count, .purchase, s.language))
                reaction.ask(.report(text, .success))
            case .failure(let error):
                reaction.ask(.report(s("Restore failed: {}", root.describe(error)), .error))
            }
            reaction.run(.loadPurchases)
            return reaction
        case .receiptRefreshed(.success(let bytes)):
            return Reaction(
                requests: [.report(s("Receipt refreshed ({})", Format.bytes(Int64(bytes))), .success)])
        case .receiptRefreshed(.failure(let error)):
            return Reaction(requests: [.report(s("Receipt refresh failed: {}", root.describe(error)), .error)])
        }
    }

    /// Runs a menu item: the menu closes, then the item does its work or opens its window.
    private static func run(_ item: MenuItem, _ state: inout State, _ root: StorefrontUI.State) -> Reaction {
        var reaction = Reaction.present(nil)
        switch item {
        case .restore:
            guard !state.isRestoring else { return reaction }
            state.isRestoring = true
            reaction.ask(.show(root.strings("Restoring purchases…"), .info))
            reaction.run(.restore)
        case .refreshReceipt:
            reaction.ask(.show(root.strings("Refreshing the receipt…"), .info))
            reaction.run(.refreshReceipt)
        case .viewReceipt: reaction.ask(.send(.receipt(.openReceipt)))
        case .storefront: reaction.ask(.send(.storefronts(.open)))
        case .accounts: reaction.ask(.send(.accounts(.open)))
        case .settings: reaction.ask(.send(.settings(.open)))
        case .transactionManager: reaction.ask(.send(.transactionManager(.open)))
        case .myPurchases: reaction.ask(.send(.myPurchases(.open)))
        case .eventLog: reaction.ask(.send(.eventLog(.open)))
        case .notifications: reaction.ask(.send(.notifications(.open)))
        case .quit: reaction.ask(.askToQuit)
        }
        return reaction
    }
}
