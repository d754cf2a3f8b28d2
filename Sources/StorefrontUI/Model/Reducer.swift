import Foundation
import StoreCore

/// The storefront's update function: applies `action` to `state` and returns the work for
/// the runtime as data. Pure: no terminal, no disk, no clock (the time arrives in `.tick`).
/// - Parameters:
///   - state: the state to update in place.
///   - action: what happened.
/// - Returns: the effects to run, in order; the last may (re)schedule or stop the animation.
public func reduce(state: inout State, action: Action) -> [Effect] {
    let effects = update(state: &state, action: action)
    return effects + state.scheduleAnimation()
}

private func update(state: inout State, action: Action) -> [Effect] {
    switch action {
    case .started:
        // The event subscription first, so nothing the loads cause goes unheard.
        return [
            .observeStore, .loadContext, .loadProducts, .loadPurchases, .loadSettings, .loadServer,
            .every(State.storeLookInterval, .lookForChanges),
        ]
    case .storeChanged:
        // An open window that shows the store follows it: Store Settings (a `store set` from
        // the CLI), Server Notifications (the sender's attempts as they are journaled).
        switch state.modal {
        case .settings: return [.loadPurchases, .loadSettings]
        case .notifications(let selected): return [.loadPurchases] + state.followNotifications(selected: selected)
        default: return [.loadPurchases]
        }
    case .key(let key):
        return state.handle(key)
    case .signal(let number):
        state.exitStatus = 128 + number
        state.isQuitting = true
        return [.quit]
    case .resize(let width, let height):
        state.width = max(0, width)
        state.height = max(0, height)
        state.keepSelectionVisible()
        return []
    case .tick(let date):
        state.advance(to: date)
        return []
    case .storeEvent(let event):
        return state.apply(event)
    default:
        return state.applyResult(action)
    }
}

extension State {
    /// Asks the runtime for ticks at the interval the state needs (`tickInterval`) when that
    /// changed: a new schedule replaces the running one, none stops it. Nothing once quitting
    /// (`.quit` cancels everything).
    mutating func scheduleAnimation() -> [Effect] {
        let wanted = tickInterval
        guard !isQuitting, wanted != animationInterval else { return [] }
        animationInterval = wanted
        return [wanted.map { .every(.milliseconds($0), .tick) } ?? .cancel(.animation)]
    }

    /// The clock moved: messages fade, a finished purchase's sheet closes, settled downloads
    /// leave the pane.
    mutating func advance(to date: Date) {
        now = date
        tickCount &+= 1
        if var message {
            if let shown = message.shownAt {
                if date.timeIntervalSince(shown) >= message.lifetime { self.message = nil }
            } else {
                message.shownAt = date
                self.message = message
            }
        }
        for (productID, flow) in flows {
            guard let finished = flow.finishedAt else { continue }
            if date.timeIntervalSince(finished) >= Self.settledLifetime { closeFlow(productID) }
        }
        for (id, settled) in settledAt where date.timeIntervalSince(settled) >= Self.settledLifetime {
            settledAt[id] = nil
        }
    }

    /// Forgets a finished purchase and closes its sheet if it is open.
    mutating func closeFlow(_ productID: String) {
        flows[productID] = nil
        if modal == .purchase(productID: productID) { modal = nil }
    }

    /// Shows a message in the status line.
    mutating func show(_ text: String, kind: StatusMessage.Kind = .info) {
        message = StatusMessage(text, kind: kind, shownAt: now)
    }

    /// Adds a line to the event log, dropping the oldest past `logLimit`.
    mutating func record(_ text: String, isError: Bool = false) {
        log.append(LogEntry(time: now, text: text, isError: isError))
        if log.count > Self.logLimit { log.removeFirst(log.count - Self.logLimit) }
    }

    /// Shows a message and records it in the log.
    mutating func report(_ text: String, kind: StatusMessage.Kind = .info) {
        show(text, kind: kind)
        record(text, isError: kind == .error)
    }
}
