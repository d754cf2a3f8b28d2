import StoreKitValues

/// The product list as the catalog screen keeps it: measuring and indexing products once per
/// load, grouping and sorting them, the incremental filter, and keeping the selection on screen.
extension CatalogFeature.State {
    /// Products, language or estimated prices changed: measure and index them again, then
    /// rebuild the list.
    mutating func productsChanged(_ root: StorefrontUI.State) {
        let products = products ?? []
        search = ProductSearch(products: products, strings: root.strings)
        metrics = ProductMetrics(
            products: products, strings: root.strings, estimated: root.context?.estimatedPrices ?? [])
        filterSteps = []
        regroup(root)
    }

    /// Grouping or sorting changed: group and sort every product again, then filter.
    mutating func regroup(_ root: StorefrontUI.State) {
        sections = ProductListing.sections(
            of: products ?? [], search: search, grouping: grouping, sort: sort, strings: root.strings)
        refilter(root, listingIsCurrent: false)
    }

    /// The filter changed: narrow the last matches when the query only grew, go back a step
    /// when it shrank to an earlier query, else match every product. Queries are compared as
    /// bytes, so a step's words are always a prefix of the next step's.
    /// - Parameter listingIsCurrent: whether `listing` shows the last step's matches in the
    ///   current sections (false after a regroup), so a key that drops no product keeps it.
    mutating func refilter(_ root: StorefrontUI.State, listingIsCurrent: Bool = true) {
        let query = ProductSearch.fold(filter).trimmingCharacters(in: .whitespaces)
        var popped = false
        while let last = filterSteps.last, !query.utf8.starts(with: last.query.utf8) {
            filterSteps.removeLast()
            popped = true
        }
        var matches: [Int]? = nil
        var narrowedTheList = false
        if !query.isEmpty {
            if let last = filterSteps.last, query.utf8.elementsEqual(last.query.utf8) {
                matches = last.matches
            } else {
                let step = search.step(query: query, from: filterSteps.last)
                filterSteps.append(step)
                matches = step.matches
                narrowedTheList = !popped
            }
        } else {
            filterSteps = []
        }
        // The new matches are a subset of the rows shown: as many means the same rows.
        if narrowedTheList, listingIsCurrent, matches?.count == listing.productCount { return }
        relist(matches: matches, root)
    }

    /// Rebuilds the visible rows, keeping the same product selected when it is still listed.
    private mutating func relist(matches: [Int]?, _ root: StorefrontUI.State) {
        let selectedIndex = listing.productIndex(at: selectedRow)
        listing = ProductListing(order: sections, matches: matches, productCount: products?.count ?? 0)
        if let selectedIndex, let row = listing.rows.firstIndex(of: .product(selectedIndex)) {
            selectedRow = row
        } else {
            selectedRow = listing.productRow(from: 0, step: 1) ?? 0
        }
        keepSelectionVisible(root)
    }

    /// Scrolls the list so the selected row (and its group heading when possible) shows.
    mutating func keepSelectionVisible(_ root: StorefrontUI.State) {
        let visible = max(1, Layout(state: root, catalog: self).listRows)
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
    mutating func moveSelection(by delta: Int, _ root: StorefrontUI.State) {
        guard !listing.rows.isEmpty else { return }
        let step = delta >= 0 ? 1 : -1
        var row = selectedRow
        for _ in 0..<abs(delta) {
            guard let next = listing.productRow(from: row + step, step: step) else { break }
            row = next
        }
        selectedRow = row
        keepSelectionVisible(root)
    }

    /// Selects the first or last product.
    mutating func selectEdge(last: Bool, _ root: StorefrontUI.State) {
        let row =
            last
            ? listing.productRow(from: listing.rows.count - 1, step: -1)
            : listing.productRow(from: 0, step: 1)
        selectedRow = row ?? 0
        keepSelectionVisible(root)
    }
}
