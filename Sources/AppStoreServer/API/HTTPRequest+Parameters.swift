extension HTTPRequest {
    /// Every value of the query parameter `name`, as `values(_:)` gives them, refused with
    /// `invalid` (Apple's error for that parameter) when one holds a NUL: the daemon keeps a
    /// decoded `%00`, and no value of Apple's API has one, so none is read as a shorter value.
    func parameter(_ name: String, invalid: APIError) throws(APIError) -> [String] {
        let found = values(name)
        if found.contains(where: { $0.utf8.contains(0) }) { throw invalid }
        return found
    }

    /// Whether a query parameter's name holds a NUL: no parameter of Apple's API is named so,
    /// and MHD would once have cut it to another's name (`productId%00x` read as `productId`).
    var hasNULInParameterName: Bool { query.contains { $0.name.utf8.contains(0) } }
}
