import StoreKitValues

/// The product list: products measured and indexed once per load, grouped and sorted, the
/// incremental filter, the selection kept on screen. The list's other keys (buy, details,
/// the downloads', the windows') are the root's, which sends them to their screens.
public enum CatalogFeature: Feature {
    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        switch action {
        case .key(let key):
            return state.isFiltering ? filterKey(key, &state, root) : listKey(key, &state, root)
        case .productsLoaded(.success(let loaded)):
            state.products = loaded
            state.productsError = nil
            state.productsChanged(root)
        case .productsLoaded(.failure(let error)):
            state.productsError = error
            if state.products == nil { state.products = [] }
            state.productsChanged(root)
            return Reaction(requests: [.fail(error)])
        case .productsSwitched(let products):
            state.products = products
            state.productsError = nil
            state.productsChanged(root)
        case .contextChanged:
            state.productsChanged(root)
        case .layoutChanged:
            state.keepSelectionVisible(root)
        }
        return .none
    }

    private static func listKey(_ key: Key, _ state: inout State, _ root: StorefrontUI.State) -> Reaction {
        let page = max(1, Layout(state: root, catalog: state).listRows - 1)
        switch key {
        case .up, .character("k"): state.moveSelection(by: -1, root)
        case .down, .character("j"): state.moveSelection(by: 1, root)
        case .pageUp, .control("b"): state.moveSelection(by: -page, root)
        case .pageDown, .control("f"): state.moveSelection(by: page, root)
        case .home: state.selectEdge(last: false, root)
        case .end, .character("G"): state.selectEdge(last: true, root)
        case .character("/"):
            state.isFiltering = true
        case .escape:
            // Esc goes back (closes a window, clears the filter) and never quits: pressed once
            // too often on the way back to the list, it must not end the app. q quits.
            if !state.filter.isEmpty {
                state.filter = ""
                state.refilter(root)
            }
        case .character("g"):
            let groupings = ProductListing.Grouping.allCases.count
            state.grouping =
                ProductListing.Grouping(rawValue: (state.grouping.rawValue + 1) % groupings) ?? .subscriptionGroup
            state.regroup(root)
            return Reaction(requests: [.show(root.strings("Grouped: {}", root.strings(state.groupingLabel)), .info)])
        case .character("S"):
            let sorts = ProductListing.Sort.allCases.count
            state.sort = ProductListing.Sort(rawValue: (state.sort.rawValue + 1) % sorts) ?? .catalog
            state.regroup(root)
            return Reaction(requests: [.show(root.strings("Sorted by {}", root.strings(state.sortLabel)), .info)])
        default: break
        }
        return .none
    }

    private static func filterKey(_ key: Key, _ state: inout State, _ root: StorefrontUI.State) -> Reaction {
        let page = max(1, Layout(state: root, catalog: state).listRows - 1)
        switch key {
        case .escape:
            state.isFiltering = false
            state.filter = ""
            state.refilter(root)
        case .enter:
            state.isFiltering = false
        case .up: state.moveSelection(by: -1, root)
        case .down: state.moveSelection(by: 1, root)
        case .pageUp: state.moveSelection(by: -page, root)
        case .pageDown: state.moveSelection(by: page, root)
        case .backspace:
            if state.filter.isEmpty {
                state.isFiltering = false
            } else {
                state.filter.removeLast()
                state.refilter(root)
            }
        case .control("u"):
            state.filter = ""
            state.refilter(root)
        case .character(let c):
            state.filter.append(c)
            state.refilter(root)
        default: break
        }
        return .none
    }
}
