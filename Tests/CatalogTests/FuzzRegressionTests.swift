import Foundation
import Testing

@testable import Catalog

/// Replays the inputs the catalog fuzzer found (`Fixtures/fuzz/`) through the same checks it makes.
@Suite struct FuzzRegressionTests {
    static func inputs() throws -> [URL] {
        let directory = try Fixtures.directory.appendingPathComponent("fuzz")
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension != "md" }.sorted { $0.path < $1.path }
    }

    @Test func thereAreFixtures() throws {
        #expect(try Self.inputs().map(\.lastPathComponent).contains("empty-key.json"))
    }

    @Test func everyMemberIsFoundByItsNameAndDecodingAnswers() throws {
        for url in try Self.inputs() {
            let bytes = Array(try Data(contentsOf: url))
            let document = try? JSONParser.parse(bytes)
            let tape = try? bytes.withUnsafeBufferPointer { try JSONParser.tape($0) }
            #expect((document == nil) == (tape == nil), "\(url.lastPathComponent)")
            if let tape {
                let missing: [String] = bytes.withUnsafeBufferPointer { buffer in
                    tape.withRoot(over: buffer) { root in
                        root.members.compactMap { key, _ in
                            key.string.flatMap { root.member($0) == nil ? $0 : nil }
                        }
                    }
                }
                #expect(missing.isEmpty, "\(url.lastPathComponent): members not found by name: \(missing)")
            }
            // Not a catalog, but an answer: a model or a CatalogError naming a path.
            do {
                _ = try StoreKitConfiguration.decode(data: Data(bytes), file: url.lastPathComponent)
            } catch {
                #expect(error.path.hasPrefix("$"))
            }
        }
    }

    @Test func anEmptyKeyIsAMemberLikeAnyOther() throws {
        let document = try JSONParser.parse(Array(#"{"":4,"r":0}"#.utf8))
        #expect(document.value[""] == .number("4"))
        #expect(document.rootKeyOrder == ["", "r"])
        let bytes = Array(#"{"":4,"r":0}"#.utf8)
        let tape = try bytes.withUnsafeBufferPointer { try JSONParser.tape($0) }
        let found: String? = bytes.withUnsafeBufferPointer { buffer in
            tape.withRoot(over: buffer) { $0.member("")?.number }
        }
        #expect(found == "4")
    }
}
