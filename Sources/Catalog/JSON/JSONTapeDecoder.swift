import Foundation

/// Decodes `Decodable` values from JSON text read by the catalog's tape parser, as Foundation's
/// `JSONDecoder` with its default strategies reads what `JSONEncoder` with its defaults wrote:
/// a `Date` by its own coding (seconds since 2001), `Data` as Base64, a `URL` as its string and
/// a `Decimal` as a number, exactly.
///
/// It exists for the package's own files read at every launch (the store's journal): Foundation's
/// decoder asks the Swift runtime, on its first use of each type, whether the type conforms to
/// its private marker protocols, and each such question scans every conformance the program has.
/// This decoder makes no such casts: it compares metatypes and calls `init(from:)` (whose own
/// keyed container the runtime still looks up once per type).
package enum JSONTapeDecoder {
    /// Why a text did not decode: where (a JSON path such as `$.entry.transaction.price`) and what.
    package struct Failure: Error, Equatable, CustomStringConvertible {
        /// The JSON path of the value that did not decode (`$` for the text as a whole).
        package let path: String
        /// What is wrong with it.
        package let problem: String

        /// `PATH: PROBLEM`.
        package var description: String { "\(path): \(problem)" }
    }

    /// Decodes one value of `type` from a whole JSON text (UTF-8).
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - bytes: the text, exactly one JSON value.
    ///   - maximumStringBytes: the longest string accepted, in bytes as written; nil: the
    ///     parser's limit for catalogs (`JSONParser.maximumStringBytes`).
    /// - Returns: the value.
    /// - Throws: `Failure` naming the value that is not JSON or not what `type` reads.
    package static func decode<T: Decodable>(
        _ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>,
        maximumStringBytes: Int? = nil
    ) throws(Failure) -> T {
        let tape: JSONTape
        do throws(JSONParser.SyntaxError) {
            tape = try JSONParser.tape(bytes, maximumStringBytes: maximumStringBytes ?? JSONParser.maximumStringBytes)
        } catch {
            throw Failure(path: error.oversized ? error.jsonPath : JSONPath.root, problem: error.description)
        }
        let result: Result<T, Failure> = tape.withRoot(over: bytes) { root in
            do {
                return .success(try JSONElementDecoder(element: root, codingPath: []).decode(T.self))
            } catch let error as DecodingError {
                return .failure(Failure(error))
            } catch {
                return .failure(Failure(path: JSONPath.root, problem: "\(error)"))
            }
        }
        return try result.get()
    }

    /// Decodes one value of `type` from a whole JSON text (UTF-8) held in `bytes`.
    /// - Throws: `Failure`, as `decode(_:from:maximumStringBytes:)` over a buffer.
    package static func decode<T: Decodable>(
        _ type: T.Type, from bytes: ArraySlice<UInt8>, maximumStringBytes: Int? = nil
    ) throws(Failure) -> T {
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<T, Failure> in
            do throws(Failure) {
                return .success(try decode(type, from: buffer, maximumStringBytes: maximumStringBytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

extension JSONTapeDecoder.Failure {
    /// The failure a `DecodingError` describes: its coding path as a JSON path, and its message.
    init(_ error: DecodingError) {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): context = c
        case .keyNotFound(let key, let c):
            self.init(path: Self.path(c.codingPath), problem: "missing member \"\(key.stringValue)\"")
            return
        @unknown default:
            self.init(path: JSONPath.root, problem: "\(error)")
            return
        }
        self.init(path: Self.path(context.codingPath), problem: context.debugDescription)
    }

    /// `[entry, transaction, price]` as `$.entry.transaction.price`; array positions as `[2]`.
    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce(JSONPath.root) { parent, key in
            if let index = key.intValue, key.stringValue == JSONIndexKey(index: index).stringValue {
                return JSONPath.element(index, of: parent)
            }
            return JSONPath.member(key.stringValue, of: parent)
        }
    }
}

/// A position in an array, as a coding path names it.
struct JSONIndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// A scalar read straight from a tape element: booleans, strings and numbers of every width.
protocol JSONTapeScalar {
    /// The value `element` holds, or nil when it holds another kind or a number out of range.
    static func read(_ element: JSONElement) -> Self?
}

extension Bool: JSONTapeScalar {
    static func read(_ element: JSONElement) -> Bool? { element.bool }
}
extension String: JSONTapeScalar {
    static func read(_ element: JSONElement) -> String? { element.string }
}
extension Double: JSONTapeScalar {
    static func read(_ element: JSONElement) -> Double? { element.number.flatMap { Double($0) } }
}
extension Float: JSONTapeScalar {
    static func read(_ element: JSONElement) -> Float? { element.number.flatMap { Float($0) } }
}
extension Int: JSONTapeScalar {}
extension Int8: JSONTapeScalar {}
extension Int16: JSONTapeScalar {}
extension Int32: JSONTapeScalar {}
extension Int64: JSONTapeScalar {}
extension UInt: JSONTapeScalar {}
extension UInt8: JSONTapeScalar {}
extension UInt16: JSONTapeScalar {}
extension UInt32: JSONTapeScalar {}
extension UInt64: JSONTapeScalar {}

extension JSONTapeScalar where Self: FixedWidthInteger {
    static func read(_ element: JSONElement) -> Self? { element.integer(as: Self.self) }
}

/// A `Decoder` (and the single-value container) over one tape element.
///
/// Elements point into the tape and the text, so a decoder lives only while
/// `JSONTapeDecoder.decode` runs; `init(from:)` implementations never keep their decoder.
struct JSONElementDecoder: Decoder, SingleValueDecodingContainer {
    let element: JSONElement
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard element.kind == .object else { throw mismatch([String: Any].self, expected: "an object") }
        return KeyedDecodingContainer(JSONTapeKeyedContainer<Key>(object: element, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard element.kind == .array else { throw mismatch([Any].self, expected: "an array") }
        return JSONTapeUnkeyedContainer(array: element, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { element.isNull }

    func decode(_ type: Bool.Type) throws -> Bool { try scalar(type, "a boolean") }
    func decode(_ type: String.Type) throws -> String { try scalar(type, "a string") }
    func decode(_ type: Double.Type) throws -> Double { try scalar(type, "a number") }
    func decode(_ type: Float.Type) throws -> Float { try scalar(type, "a number") }
    func decode(_ type: Int.Type) throws -> Int { try scalar(type, "a whole number") }
    func decode(_ type: Int8.Type) throws -> Int8 { try scalar(type, "a whole number") }
    func decode(_ type: Int16.Type) throws -> Int16 { try scalar(type, "a whole number") }
    func decode(_ type: Int32.Type) throws -> Int32 { try scalar(type, "a whole number") }
    func decode(_ type: Int64.Type) throws -> Int64 { try scalar(type, "a whole number") }
    func decode(_ type: UInt.Type) throws -> UInt { try scalar(type, "a whole number") }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(type, "a whole number") }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(type, "a whole number") }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(type, "a whole number") }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(type, "a whole number") }

    /// Decodes `type`; `Data`, `URL` and `Decimal` as `JSONDecoder`'s default strategies read them.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // Metatype comparisons, not casts to protocols: they cost no conformance lookup.
        if T.self == Data.self {
            guard let data = Data(base64Encoded: try scalar(String.self, "a Base64 string")) else {
                throw corrupted("expected Base64 text")
            }
            return data as! T
        }
        if T.self == URL.self {
            guard let url = URL(string: try scalar(String.self, "a URL string")) else {
                throw corrupted("expected a URL")
            }
            return url as! T
        }
        if T.self == Decimal.self {
            guard let text = element.number else { throw mismatch(type, expected: "a number") }
            // Plain digits (prices) are built from their digits; anything else goes to Foundation.
            if case .success(let decimal) = DecimalText.parse(text) { return decimal as! T }
            guard let decimal = Decimal(string: text, locale: Self.posix) else {
                throw corrupted("the number \(text) is not a decimal")
            }
            return decimal as! T
        }
        return try T(from: self)
    }

    private static let posix = Locale(identifier: "en_US_POSIX")

    private func scalar<T: JSONTapeScalar>(_ type: T.Type, _ expected: String) throws -> T {
        if let value = T.read(element) { return value }
        if element.kind == .number, expected == "a whole number" || expected == "a number" {
            throw corrupted("the number \(element.number ?? "") does not fit \(T.self)")
        }
        throw mismatch(type, expected: expected)
    }

    func mismatch(_ type: Any.Type, expected: String) -> DecodingError {
        element.isNull
            ? .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found null"))
            : .typeMismatch(
                type,
                .init(
                    codingPath: codingPath, debugDescription: "expected \(expected), found \(element.typeDescription)"))
    }

    func corrupted(_ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: message))
    }
}
