import Foundation
import StoreKitValues

extension BuySheetFeature {
    /// What happens to the purchase sheet and the purchases under way.
    public enum Action: Hashable, Sendable {
        /// Enter on the list: confirm buying the selected product (or watch its purchase).
        case open
        /// `c` on the list: redeem an offer code for the selected subscription.
        case redeemOfferCode
        /// A key on the confirmation or progress sheet.
        case key(Key)
        /// A purchase moved on to a new step.
        case phase(productID: String, PurchasePhase)
        /// A purchase was delivered with content still to download: the sheet follows it.
        case needsDownload(productID: String, downloadID: String)
        /// A purchase's download progressed (the sheet's step becomes Downloading).
        case downloadProgressed(Download)
        /// A purchase's download stopped: finished, failed, paused or cancelled (nil: unknown).
        case downloadSettled(productID: String, Download?)
        /// A purchase ended.
        case finished(productID: String, Result<PurchaseOutcome, StoreError>)
        /// The clock moved: a finished purchase's sheet closes a moment after.
        case tick(Date)
    }
}
