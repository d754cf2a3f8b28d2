/// The members of a JSON object on a tape, as a keyed container of `JSONTapeDecoder`.
///
/// Members are found by their key's bytes (`JSONElement.member`); members no key asks for are
/// ignored, as `JSONDecoder` ignores them.
struct JSONTapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let object: JSONElement
    let codingPath: [any CodingKey]

    var allKeys: [Key] { object.members.compactMap { Key(stringValue: $0.key.string ?? "") } }

    func contains(_ key: Key) -> Bool { object.member(key.stringValue) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { try value(for: key).element.isNull }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(for: key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(for: key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(for: key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(for: key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(for: key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(for: key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(for: key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(for: key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(for: key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(for: key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(for: key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(for: key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(for: key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(for: key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(for: key).decode(type) }

    // One look-up each, where the defaults would look the member up three times.
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key)?.decode(type) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key)?.decode(type) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try present(key)?.decode(type) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key)?.decode(type) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(key)?.decode(type) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try present(key)?.decode(type) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(key)?.decode(type)
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try value(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try value(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { try value(for: JSONSuperKey()) }

    func superDecoder(forKey key: Key) throws -> any Decoder { try value(for: key) }

    /// The decoder of member `key`.
    /// - Throws: `DecodingError.keyNotFound` when the object has no such member.
    private func value(for key: some CodingKey) throws -> JSONElementDecoder {
        guard let member = object.member(key.stringValue) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
        }
        return JSONElementDecoder(element: member, codingPath: codingPath + [key])
    }

    /// The decoder of member `key` unless it is missing or null.
    private func present(_ key: Key) -> JSONElementDecoder? {
        guard let member = object.member(key.stringValue), !member.isNull else { return nil }
        return JSONElementDecoder(element: member, codingPath: codingPath + [key])
    }
}

/// The member `super`, where a class's superclass encodes by default.
struct JSONSuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }

    init() {}
    init?(stringValue: String) { guard stringValue == "super" else { return nil } }
    init?(intValue: Int) { nil }
}
