import StoreKitValues

/// Products by the names people know them by, for every screen.
extension State {
    /// The name a product is shown by: its localized name, else (a catalog without one) its ID.
    static func shownName(_ product: Product) -> String {
        product.displayName.trimmingCharacters(in: .whitespaces).isEmpty ? product.id : product.displayName
    }

    /// The product with an identifier, from the catalog.
    public func product(_ id: String) -> Product? { catalog.product(id) }

    /// The name people know a product by: its localized name, else its identifier.
    func name(of productID: String) -> String {
        product(productID).map(State.shownName) ?? productID
    }
}
