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
        return [.observeStore, .loadContext, .loadProducts, .loadPurchases, .loadSettings,
                .every(State.storeLookInterval, .lookForChanges)]
    case .storeChanged:
        return [.loadPurchases]
    case .key(let key):
        return state.handle(key)
    case .resize(let width, let height):
        state.width = max(0, width)
        state.height = max(0, height)
        state.keepSelectionVisible()
        return []
    case .tick(let date):
        state.now = date
        state.tickCount &+= 1
        if var message = state.message {
            if let shown = message.shownAt {
                if date.timeIntervalSince(shown) >= message.lifetime { state.message = nil }
            } else {
                message.shownAt = date
                state.message = message
            }
        }
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

    /// Shows a message in the status line (and, for errors, in the log).
    mutating func show(_ text: String, kind: StatusMessage.Kind = .info) {
        message = StatusMessage(text, kind: kind, shownAt: now)
    }

    /// Adds a line to the event log, dropping the oldest past `logLimit`.
    mutating func record(_ text: String, isError: Bool = false) {
        log.append(LogEntry(time: now, text: text, isError: isError))
        if log.count > Self.logLimit { log.removeFirst(log.count - Self.logLimit) }
    }

    /// Rebuilds the visible list after the products, the filter, the grouping or the language
    /// changed, keeping the same product selected when it is still listed.
    mutating func rebuildListing() {
        let selectedID = selectedProduct?.id
        listing = ProductListing(products: products ?? [], filter: filter, grouping: grouping, strings: strings)
        if let selectedID, let products,
           let row = listing.rows.firstIndex(where: { row in
               if case .product(let i) = row { return products[i].id == selectedID }
               return false
           }) {
            selectedRow = row
        } else {
            selectedRow = listing.productRow(from: 0, step: 1) ?? 0
        }
        keepSelectionVisible()
    }

    /// Scrolls the list so the selected row (and its group heading when possible) shows.
    mutating func keepSelectionVisible() {
        let visible = max(1, Layout(state: self).listRows)
        if selectedRow < scrollTop {
            scrollTop = selectedRow
            // Show the heading above the first product of a group.
            if scrollTop > 0, listing.productIndex(at: scrollTop - 1) == nil { scrollTop -= 1 }
            if scrollTop == 1 { scrollTop = 0 }
        } else if selectedRow >= scrollTop + visible {
            scrollTop = selectedRow - visible + 1
        }
        scrollTop = max(0, min(scrollTop, max(0, listing.rows.count - visible)))
    }

    /// Moves the selection by `delta` product rows (skipping headings), clamped to the list.
    mutating func moveSelection(by delta: Int) {
        guard !listing.rows.isEmpty else { return }
        let step = delta >= 0 ? 1 : -1
        var row = selectedRow
        for _ in 0..<abs(delta) {
            guard let next = listing.productRow(from: row + step, step: step) else { break }
            row = next
        }
        selectedRow = row
        keepSelectionVisible()
    }

    /// Selects the first or last product.
    mutating func selectEdge(last: Bool) {
        let row = last
            ? listing.productRow(from: listing.rows.count - 1, step: -1)
            : listing.productRow(from: 0, step: 1)
        selectedRow = row ?? 0
        keepSelectionVisible()
    }
}
