import Foundation
import StoreKitValues

/// The downloads of hosted content and their pane: each download as the engine last reported
/// it; space pauses or resumes the selected product's (else the first open one), x cancels it
/// after asking. The storefront runs the downloads it hears of for the first time, waiting.
public enum DownloadsFeature: Feature {
    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        let s = root.strings
        switch action {
        case .updated(let download):
            let isNew = !state.items.contains { $0.id == download.id }
            state.update(download)
            // A download the storefront hears of for the first time, waiting (an Ask to Buy
            // approval, a purchase made elsewhere), starts: the storefront shows downloads, so
            // it runs them; one it already knows is someone's to resume.
            let startsHere = isNew && download.state == .waiting && root.buySheet.flows[download.productID] == nil
            return startsHere ? .run(.resumeDownload(id: download.id)) : .none
        case .paused(let download):
            state.update(download)
            let text = s(
                "Download of {} paused at {}", root.name(of: download.productID), Format.percent(download.fraction))
            return Reaction(requests: [.record(text, isError: false)])
        case .cancelled(let download):
            state.update(download)
            state.settledAt[download.id] = root.now
            let text = s("Download of {} cancelled (space starts it again)", root.name(of: download.productID))
            return Reaction(requests: [.report(text, .info)])
        case .finished(let download):
            state.update(download)
            state.settledAt[download.id] = root.now
            var reaction = Reaction(
                requests: [.report(s("Download of {} finished", root.name(of: download.productID)), .success)])
            reaction.run(.loadPurchases)
            return reaction
        case .failed(let download):
            state.update(download)
            let reason = download.error.map { "\($0)" } ?? "?"
            let text = s(
                "Download of {} failed at {}: {}", root.name(of: download.productID),
                Format.percent(download.fraction), reason)
            return Reaction(requests: [.report(text, .error)])
        case .togglePause:
            guard let download = state.target(root) else { return .none }
            switch download.state {
            case .paused, .failed, .cancelled: return .run(.resumeDownload(id: download.id))
            case .active, .waiting: return .run(.pauseDownload(id: download.id))
            default: return .none
            }
        case .askToCancel:
            guard let download = state.target(root), !download.state.isTerminal else { return .none }
            let question = Question.cancelDownload(id: download.id, productID: download.productID)
            return .send(.questions(.ask(question, over: nil)))
        case .tick(let date):
            for (id, settled) in state.settledAt
            where date.timeIntervalSince(settled) >= StorefrontUI.State.settledLifetime {
                state.settledAt[id] = nil
            }
        }
        return .none
    }
}

extension DownloadsFeature.State {
    /// Records a download's new state (in the order downloads first appeared).
    mutating func update(_ download: Download) {
        if let i = items.firstIndex(where: { $0.id == download.id }) {
            items[i] = download
        } else {
            items.append(download)
        }
        if !download.state.isTerminal { settledAt[download.id] = nil }
    }

    /// The download the download keys act on: the selected product's, else the first open one.
    func target(_ root: StorefrontUI.State) -> Download? {
        let open = items.filter { !$0.state.isTerminal || $0.state == .failed || $0.state == .cancelled }
        if let id = root.catalog.selectedProduct?.id, let own = open.last(where: { $0.productID == id }) { return own }
        return open.first { !$0.state.isTerminal }
    }
}
