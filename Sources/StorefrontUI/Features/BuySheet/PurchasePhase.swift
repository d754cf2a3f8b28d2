import Foundation
import StoreKitValues

/// The steps of a purchase as the confirmation sheet shows them, in order.
public enum PurchasePhase: Int, Hashable, Sendable, CaseIterable, Comparable {
    case contacting, authorizing, verifying, downloading, done

    /// The English label (localized through `Strings`).
    public var label: String {
        switch self {
        case .contacting: "Contacting the App Store"
        case .authorizing: "Authorizing"
        case .verifying: "Verifying"
        case .downloading: "Downloading"
        case .done: "Done"
        }
    }

    public static func < (a: PurchasePhase, b: PurchasePhase) -> Bool { a.rawValue < b.rawValue }
}

/// How a purchase ended when it did not fail.
public enum PurchaseOutcome: Hashable, Sendable {
    /// Charged and delivered.
    case purchased(transactionID: String)
    /// Waiting for someone's approval (Ask to Buy).
    case pending
    /// Interrupted: it completes once resolved (the Transaction Manager's `i`).
    case interrupted
    /// The user cancelled.
    case cancelled
}

/// A purchase the user started and is watching.
public struct PurchaseFlow: Hashable, Sendable {
    /// The product being bought.
    public var productID: String
    /// How far it got.
    public var phase: PurchasePhase
    /// Whether the product has content to download (the sheet shows that step only then).
    public var hasDownloads: Bool
    /// How many are bought.
    public var quantity: Int
    /// When the purchase ended with every step done (its sheet closes a moment later).
    public var finishedAt: Date?

    /// Creates a flow at its first step.
    public init(productID: String, phase: PurchasePhase = .contacting, hasDownloads: Bool = false, quantity: Int = 1) {
        self.productID = productID
        self.phase = phase
        self.hasDownloads = hasDownloads
        self.quantity = quantity
    }

    /// The phases the sheet lists for this purchase.
    public var phases: [PurchasePhase] {
        PurchasePhase.allCases.filter { $0 != .downloading || hasDownloads }
    }

    /// How far along, 0…1, for the progress bar: the steps done, or for a purchase with content
    /// its download (`download`, as the Downloads pane shows it). The steps before a download
    /// are ticked in the list and leave the bar at 0, so it never goes back when the download
    /// starts.
    public func fraction(download: Download?) -> Double {
        if phase == .done { return 1 }
        if hasDownloads { return phase == .downloading ? download?.fraction ?? 0 : 0 }
        let steps = phases
        guard let index = steps.firstIndex(of: phase), steps.count > 1 else { return 0 }
        return Double(index) / Double(steps.count - 1)
    }
}
