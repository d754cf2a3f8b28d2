import StoreCore
import StorefrontUI

/// The customer's cancel (the cancel sheet): asking what the App Store shows, then carrying out
/// the choice, after which the engine hears what it changed.
struct RetentionDesk: Sendable {
    let store: any StorefrontStore

    /// Asks what the App Store shows on beginning to cancel → `.cancelSheet(.asked)`.
    func ask(_ productID: String, send: @escaping @Sendable (Action) -> Void) async {
        send(
            .cancelSheet(
                .asked(
                    await result { () async throws(StoreError) in try await store.retentionSheet(productID: productID) }
                )))
    }

    /// Carries out the choice → `.cancelSheet(.chose)` with the transaction it made.
    func choose(
        _ choice: RetentionChoice, on sheet: RetentionSheet, send: @escaping @Sendable (Action) -> Void
    ) async {
        let outcome = await result { () async throws(StoreError) in try await store.choose(choice, on: sheet) }
        await store.synchronize()
        send(.cancelSheet(.chose(choice, outcome)))
    }
}
