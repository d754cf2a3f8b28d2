import Foundation

/// Products: fetched from the backend and cached, so a purchase of a product fetched before
/// asks nothing again.
extension Store {
    // MARK: - Products

    /// Returns the products among `identifiers`, and the identifiers the store does not sell.
    /// - Parameters:
    ///   - identifiers: the product identifiers to ask for.
    ///   - useCache: answer from products fetched earlier when all are known (the default);
    ///     false asks the store again.
    /// - Throws: `StoreError` from the store.
    public func requestProducts(
        _ identifiers: Set<String>, useCache: Bool = true
    ) async throws(StoreError) -> ProductsResponse {
        if useCache, identifiers.allSatisfy({ productCache[$0] != nil }) {
            let response = ProductsResponse(
                products: identifiers.sorted().compactMap { productCache[$0] }, invalidProductIdentifiers: [])
            broadcaster.send(.productsRequestFinished(response))
            return response
        }
        return try await announcing(
            finished: StoreEvent.productsRequestFinished, failed: StoreEvent.productsRequestFailed
        ) {
            () async throws(StoreError) in
            let response = try await backend.products(identifiers: identifiers)
            for product in response.products { productCache[product.id] = product }
            return response
        }
    }

    /// `requestProducts` with RMStore-shaped closures.
    public nonisolated func requestProducts(
        _ identifiers: Set<String>, useCache: Bool = true,
        success: @escaping @Sendable (ProductsResponse) -> Void,
        failure: @escaping @Sendable (StoreError) -> Void
    ) {
        callingBack(success: success, failure: failure) { () async throws(StoreError) in
            try await self.requestProducts(identifiers, useCache: useCache)
        }
    }

    /// A product fetched earlier, if it is cached.
    public func cachedProduct(_ id: String) -> Product? { productCache[id] }

    /// Whether the account may make payments.
    public func canMakePayments() async -> Bool { await backend.canMakePayments() }
}
