import Foundation
import StoreKitValues

extension DownloadsFeature {
    /// What happens to the downloads.
    public enum Action: Hashable, Sendable {
        /// The engine reported a download's progress or state.
        case updated(Download)
        /// The engine paused one.
        case paused(Download)
        /// The engine cancelled one.
        case cancelled(Download)
        /// The engine finished one.
        case finished(Download)
        /// The engine's download failed.
        case failed(Download)
        /// Space on the list: pause or resume the target download.
        case togglePause
        /// x on the list: cancel the target download, after asking.
        case askToCancel
        /// The clock moved: settled rows leave the pane a moment after.
        case tick(Date)
    }
}
