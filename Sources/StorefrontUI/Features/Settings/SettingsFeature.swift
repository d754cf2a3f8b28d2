import StoreKitValues

/// Store Settings: the local App Store's settings, each stepped through its choices with the
/// arrow keys; a change is shown at once and sent to the store, and a refusal loads the
/// settings again.
public enum SettingsFeature: Feature {
    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        switch action {
        case .open:
            state.selected = 0
            return .present(.settings, loading: .loadSettings)
        case .key(let key):
            return handle(key, &state)
        case .loaded(.success(let rows)):
            state.rows = rows
            state.selected = min(state.selected, max(0, rows.count - 1))
        case .loaded(.failure(let error)):
            return Reaction(requests: [.fail(error)])
        case .changed(let name, let value, .success(let rows)):
            state.rows = rows
            let row = rows.first { $0.name == name }
            let label = row.map { root.strings($0.label) } ?? name
            let shown = row.map { displayValue(of: $0, value, root.strings) } ?? value
            return Reaction(requests: [.report(root.strings("Setting {} changed to {}", label, shown), .success)])
        case .changed(_, _, .failure(let error)):
            var reaction = Reaction(requests: [.fail(error)])
            reaction.run(.loadSettings)
            return reaction
        }
        return .none
    }

    private static func handle(_ key: Key, _ state: inout State) -> Reaction {
        switch key {
        case .escape, .character("q"), .character("o"):
            return .present(nil)
        case .up, .character("k"), .down, .character("j"), .home, .end, .pageUp, .pageDown:
            if let next = KeyNavigation.moved(state.selected, by: key, count: state.rows.count, page: 5) {
                state.selected = next
            }
        case .enter, .character(" "), .right, .left, .character("l"), .character("h"):
            guard state.selected < state.rows.count else { return .none }
            let step = (key == .left || key == .character("h")) ? -1 : 1
            let next = state.rows[state.selected].cycled(by: step)
            // Shown at once, so a second key press cycles on from here; a refusal reloads.
            state.rows[state.selected].value = next
            return .run(.setSetting(name: state.rows[state.selected].name, value: next))
        default: break
        }
        return .none
    }

    /// How a setting's value reads: on/off translated, a bandwidth in bytes per second as
    /// `1.0 MB/s` (0 is unlimited), milliseconds as `250 ms`.
    static func displayValue(of row: SettingRow, _ value: String, _ strings: Strings) -> String {
        switch (row.unit, value) {
        case (_, "on"): return strings("On")
        case (_, "off"): return strings("Off")
        case (.bytesPerSecond, "0"): return strings("Unlimited")
        case (.bytesPerSecond, _): return Int64(value).map { Format.rate(Double($0)) } ?? value
        case (.milliseconds, _): return Int(value) != nil ? "\(value) ms" : value
        default: return value
        }
    }
}
