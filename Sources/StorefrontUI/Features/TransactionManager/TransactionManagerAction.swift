import Foundation
import StoreKitValues

extension TransactionManagerFeature {
    /// What happens to the Transaction Manager.
    public enum Action: Hashable, Sendable {
        /// The menu's item (or `t`): open on the first row.
        case open
        /// A key in the window.
        case key(Key)
        /// The rows changed (a load): keep the selection on one.
        case rowsChanged
        /// A transaction command ended.
        case commandFinished(TransactionCommand, Result<String, StoreError>)
        /// A subscription command ended with the subscription as it is now.
        case subscriptionCommandFinished(SubscriptionCommand, Result<ManagedSubscription, StoreError>)
    }
}
