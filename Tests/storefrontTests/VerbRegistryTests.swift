import Foundation
import Testing

@testable import storefront

/// A verb is one file and one registry line: a verb type declared in `Sources/storefront` but
/// listed in no command's `verbs` would be code no command line reaches.
@Suite struct VerbRegistryTests {
    /// The names of the types the executable's sources declare as verbs.
    static func declaredVerbTypes() throws -> Set<String> {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/storefront")
        let declaration = /struct (\w+): (?:Verb|RecordedChange) \{/
        var names: Set<String> = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let file = files?.nextObject() as? URL {
            guard file.pathExtension == "swift" else { continue }
            for match in try String(contentsOf: file, encoding: .utf8).matches(of: declaration) {
                names.insert(String(match.1))
            }
        }
        return names
    }

    @Test func everyDeclaredVerbIsInARegistry() throws {
        let registered = Set(
            CommandRegistry.all.compactMap { $0 as? any VerbCommand }.flatMap(\.verbs).map { "\(type(of: $0))" })
        let declared = try Self.declaredVerbTypes()
        #expect(declared.count >= 20, "the scan found the verbs: \(declared.sorted())")
        #expect(declared == registered, "declared but not registered: \(declared.subtracting(registered).sorted())")
    }
}
