import Foundation

/// Reads typed members of one JSON object, turning every mismatch into a `CatalogError`
/// that names the file, the member's JSON path and what is wrong.
///
/// `Value` is a `JSONElement` for catalogs (read in place on the parser's tape) or a `JSONValue`
/// for the small sidecar files.
struct ObjectReader<Value: JSONReadable> {
    let file: String
    let object: Value
    // The path is built only when an error needs it: decoding a large catalog creates
    // hundreds of thousands of readers and would otherwise spend its time formatting paths.
    private let parentPath: String
    private let index: Int?

    /// This object's JSON path, e.g. `$.products[2]`.
    var path: String { index.map { JSONPath.element($0, of: parentPath) } ?? parentPath }

    /// Wraps `value` found at `path`, which must be an object.
    init(_ value: Value, file: String, path: String, what: String) throws(CatalogError) {
        try self.init(value, file: file, parentPath: path, index: nil, what: what)
    }

    /// Wraps `value`, element `index` of the array at `parent`, which must be an object.
    init(_ value: Value, file: String, parent: String, index: Int, what: String) throws(CatalogError) {
        try self.init(value, file: file, parentPath: parent, index: index, what: what)
    }

    private init(_ value: Value, file: String, parentPath: String, index: Int?, what: String) throws(CatalogError) {
        guard value.isObject else {
            let path = index.map { JSONPath.element($0, of: parentPath) } ?? parentPath
            throw CatalogError(
                file: file, path: path, problem: "expected \(what) (an object), found \(value.typeDescription)")
        }
        self.file = file
        self.object = value
        self.parentPath = parentPath
        self.index = index
    }

    /// The JSON path of member `key`.
    func path(of key: String) -> String { JSONPath.member(key, of: path) }

    func error(_ key: String, _ problem: String) -> CatalogError {
        CatalogError(file: file, path: path(of: key), problem: problem)
    }

    func warning(_ key: String, _ problem: String) -> CatalogWarning {
        CatalogWarning(file: file, path: path(of: key), problem: problem)
    }

    /// Where this object is, in the parts `path` is made of (to build the path later, if ever).
    var location: (parentPath: String, index: Int?) { (parentPath, index) }

    func typeError(_ key: String, expected: String, found: Value) -> CatalogError {
        error(key, "expected \(expected), found \(found.typeDescription)")
    }

    /// Member `key` when it is present and not `null`.
    func member(_ key: String) -> Value? {
        guard let value = object.member(key), !value.isNull else { return nil }
        return value
    }

    /// Whether member `key` is present, even as `null`.
    func has(_ key: String) -> Bool { object.member(key) != nil }

    /// The member keys in file order.
    var keys: [String] { object.keys }

    /// A member that must be present and not `null`.
    func required(_ key: String) throws(CatalogError) -> Value {
        guard let value = member(key) else { throw error(key, "missing \(key)") }
        return value
    }

    func string(_ key: String) throws(CatalogError) -> String {
        let value = try required(key)
        guard let text = value.string else { throw typeError(key, expected: "a string", found: value) }
        return text
    }

    /// `text`, member `key`, unless it is longer than `maximum` characters (`what` names it in the error).
    func limited(_ text: String, _ key: String, maximum: Int, what: String) throws(CatalogError) -> String {
        // Counting stops after `maximum` characters, so a huge string costs no more than a short one.
        guard text.utf8.count > maximum,
            let cut = text.index(text.startIndex, offsetBy: maximum, limitedBy: text.endIndex),
            cut != text.endIndex
        else { return text }
        throw error(
            key,
            "\(what) is longer than \(maximum) characters (\(text.utf8.count) bytes); App Store Connect allows at most \(maximum)"
        )
    }

    func nonEmptyString(_ key: String) throws(CatalogError) -> String {
        let text = try string(key)
        guard !text.isEmpty else { throw error(key, "\(key) is empty") }
        return text
    }

    func optionalString(_ key: String) throws(CatalogError) -> String? {
        guard let value = member(key) else { return nil }
        guard let text = value.string else { throw typeError(key, expected: "a string", found: value) }
        return text
    }

    func optionalBool(_ key: String) throws(CatalogError) -> Bool? {
        guard let value = member(key) else { return nil }
        guard let flag = value.bool else { throw typeError(key, expected: "true or false", found: value) }
        return flag
    }

    func optionalInt(_ key: String, minimum: Int? = nil) throws(CatalogError) -> Int? {
        guard let value = member(key) else { return nil }
        guard let text = value.number else { throw typeError(key, expected: "an integer", found: value) }
        guard let number = Int(text) else { throw error(key, "expected an integer, found \(text)") }
        if let minimum, number < minimum { throw error(key, "must be at least \(minimum), found \(number)") }
        return number
    }

    /// An array member; absent or `null` reads as empty.
    func optionalArray(_ key: String) throws(CatalogError) -> Value.Elements {
        guard let value = member(key) else { return object.elements }  // an object has no elements: empty
        guard value.isArray else { throw typeError(key, expected: "an array", found: value) }
        return value.elements
    }

    /// A price member: a string holding a non-negative decimal such as `"0.99"`.
    func price(_ key: String) throws(CatalogError) -> Decimal {
        let value = try required(key)
        guard let text = value.string else {
            throw typeError(key, expected: "a price in a string such as \"0.99\"", found: value)
        }
        switch DecimalText.parse(text) {
        case .success(let amount): return amount
        case .failure(let problem): throw error(key, problem.message)
        }
    }

    /// A price member as written in a catalog: a string holding a non-negative decimal, where a
    /// lone comma between digits (`"2,99"`) is read as the decimal point.
    /// - Returns: the text as written, the amount and whether a comma was read as the point.
    func writtenPrice(_ key: String) throws(CatalogError) -> (text: String, amount: Decimal, readsDecimalComma: Bool) {
        let value = try required(key)
        guard let text = value.string else {
            throw typeError(key, expected: "a price in a string such as \"0.99\"", found: value)
        }
        let comma = DecimalText.hasLoneDecimalComma(text)
        switch DecimalText.parse(comma ? text.replacingOccurrences(of: ",", with: ".") : text) {
        case .success(let amount): return (text, amount, comma)
        case .failure(let problem): throw error(key, problem.message)
        }
    }

    /// A price member that `currencyCode` can show: no more decimals than its minor units
    /// (`"1.999"` would show as $2.00 and be recorded as 1.999).
    func price(_ key: String, in currencyCode: String) throws(CatalogError) -> Decimal {
        let amount = try price(key)
        let digits = Price.minorUnits(of: currencyCode)
        if let text = member(key)?.string, DecimalText.fractionDigits(text) > digits {
            throw error(key, "price \"\(text)\" has more decimals than \(currencyCode) allows (\(digits))")
        }
        return amount
    }

    /// A period member in ISO 8601 form, e.g. `"P1M"`.
    func period(_ key: String) throws(CatalogError) -> SubscriptionPeriod {
        let text = try string(key)
        guard let period = SubscriptionPeriod(iso8601: text) else {
            throw error(
                key,
                "invalid ISO 8601 period \"\(text)\"; expected one of P3D, P1W, P1M, P2M, P3M, P6M, P1Y (a number of D, W, M or Y)"
            )
        }
        return period
    }

    /// Every member except `known`, kept as read.
    func extra(excluding known: KnownKeys) -> [String: JSONValue] { object.members(excluding: known) }
}

extension ObjectReader where Value == JSONValue {
    /// The object's members.
    var members: [String: JSONValue] {
        guard case .object(let members) = object else { return [:] }
        return members
    }
}
