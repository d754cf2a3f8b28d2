import StoreCore

/// The state an app's views read, on the main actor (a SwiftUI `@Observable` model, say).
///
/// A `@MainActor` class cannot be a `StoreObserver`: observers and the closure API are called
/// on the engine's executor, not the main actor. It listens to `events()` from a task it
/// starts on the main actor instead (each event is handled there, in order), and calls the
/// async API, which resumes on the main actor.
@MainActor final class StoreModel {
    let store: Store
    private(set) var owned: Set<String> = []
    private(set) var messages: [String] = []
    private var listening: Task<Void, Never>?

    init(store: Store) {
        self.store = store
        let events = store.events()  // taken now, so nothing sent from here on is missed
        listening = Task { [weak self] in
            for await event in events { self?.apply(event) }
        }
    }

    /// A Buy button's action.
    func buy(_ productID: String) async {
        if case .purchased(let transaction) = await store.purchase(productID) { owned.insert(transaction.productID) }
    }

    /// Waits until the listening ends (the engine stopped and its streams ended).
    func listened() async { await listening?.value }

    private func apply(_ event: StoreEvent) {
        switch event {
        case .paymentFinished(let transaction): messages.append("delivered \(transaction.productID)")
        case .paymentFailed(let transaction, let error):
            messages.append("\(transaction.productID) failed: \(error.localizedDescription)")
        case .transactionRevoked(let transaction): owned.remove(transaction.productID)
        default: break
        }
    }
}
