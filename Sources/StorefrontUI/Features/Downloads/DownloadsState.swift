import Foundation
import StoreKitValues

extension DownloadsFeature {
    /// The downloads as last reported.
    public struct State: ScreenState {
        /// Downloads, in the order they first appeared.
        public var items: [Download] = []
        /// When each download that settled this session did (finished and cancelled ones stay on
        /// screen a moment at their last state).
        public var settledAt: [String: Date] = [:]

        /// No download yet.
        public init() {}

        /// The downloads under way (not finished, failed or cancelled).
        public var active: [Download] { items.filter { !$0.state.isTerminal } }

        /// Whether a download's bar moves.
        var isAnimating: Bool { items.contains { $0.state == .active || $0.state == .waiting } }

        /// Whether a settled download's row waits to leave the pane.
        var isSettling: Bool { !settledAt.isEmpty }
    }
}
