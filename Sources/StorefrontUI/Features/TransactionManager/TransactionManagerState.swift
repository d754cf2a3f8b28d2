import Foundation
import StoreKitValues

extension TransactionManagerFeature {
    /// The window's selection.
    public struct State: ScreenState {
        /// The selected row of `TransactionManagerFeature.rows`.
        public var selected = 0

        /// The first row selected.
        public init() {}
    }
}
