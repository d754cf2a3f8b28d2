import Foundation

// libFuzzer target for the catalog JSON parser and the StoreKit Configuration decoder (`make fuzz`).
// Built with `swiftc -sanitize=fuzzer,address` together with every Catalog source (the module has
// no dependencies), so a trap, an overflow or a read past the input is a crash the fuzzer reports.
// The parser reads libFuzzer's own buffer, sized exactly, so AddressSanitizer sees any overread.

@_cdecl("LLVMFuzzerTestOneInput")
public func catalogFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: count)

    // The tape, read in place the way `decode(data:file:)` reads it, over the exact input buffer.
    let tape: JSONTape?
    do throws(JSONParser.SyntaxError) {
        tape = try JSONParser.tape(bytes)
    } catch {
        tape = nil
        check(error.line >= 1 && error.column >= 1, "a syntax error at line \(error.line), column \(error.column)")
        check(error.catalogError(file: "f").path.hasPrefix("$"), "a syntax error's path")
    }
    if let tape {
        check(tape.nodes.count <= count, "\(tape.nodes.count) nodes from \(count) bytes")
        let decoded: CatalogError? = tape.withRoot(over: bytes) { root in
            walk(root, depth: 0)
            var decoder = ConfigurationDecoder(file: "fuzz.storekit")
            do throws(CatalogError) {
                _ = try decoder.decode(root)
                return nil
            } catch { return error }
        }
        if let decoded { check(decoded.path.hasPrefix("$"), "a decode error's path \(decoded.path)") }
    }

    // The public entry points: the whole catalog, the materialized document, a price sidecar.
    let input = Data(bytes)
    let catalog = try? StoreKitConfiguration.decode(data: input, file: "fuzz.storekit")
    check((catalog == nil) || (tape != nil), "decode(data:) accepted text the parser rejects")
    let document = try? JSONParser.parse(bytes)
    check((document == nil) == (tape == nil), "the document and the tape disagree on whether the text is JSON")
    if let catalog {
        let ids = Set(catalog.products.map(\.id))
        check(ids.count == catalog.products.count, "duplicate product IDs accepted")
        check(
            catalog.products.allSatisfy { $0.id.count <= ConfigurationDecoder.maximumProductIDLength },
            "an over-long product ID accepted")
        _ = try? PriceTable.decode(data: input, file: "fuzz.prices.json", productIDs: ids)
    } else {
        _ = try? PriceTable.decode(data: input, file: "fuzz.prices.json", productIDs: [])
    }
    return 0
}

/// Visits every node through the element API, materializing each value, as decoding and `extra` do.
private func walk(_ element: JSONElement, depth: Int) {
    check(element.end > element.index && element.end <= element.nodes.count, "a node's end \(element.end)")
    switch element.kind {
    case .string: _ = element.string
    case .number: _ = element.number
    case .bool: _ = element.bool
    case .null: break
    case .array:
        var count = 0
        for child in element.elements {
            walk(child, depth: depth + 1)
            count += 1
        }
        check(count == element.count, "an array's count")
    case .object:
        var count = 0
        for (key, value) in element.members {
            check(key.kind == .string, "an object key that is not a string")
            if let name = key.string { check(element.member(name) != nil, "member \"\(name)\" not found by name") }
            walk(value, depth: depth + 1)
            count += 1
        }
        check(count == element.count, "an object's count")
    }
    if depth == 0 { _ = element.value }
}

private func check(_ condition: Bool, _ what: @autoclosure () -> String) {
    if !condition { fatalError("catalog fuzz invariant broken: \(what())") }
}
