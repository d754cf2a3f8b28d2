import Foundation
import TestSupport
import Testing

/// The one door an app comes through: it names the products (`StoreCore`, `LocalAppStore`, and
/// `StoreTesting` in its tests) and gets the value types and the catalog they re-export; the
/// implementation modules stay behind them, imported `internal` or `package`, never public.
@Suite(.waitsOnProcesses, .serialized)
struct DoorTests {
    /// The modules behind the door: what the engine and the local store are made of.
    static let implementation = ["Receipts", "Vault", "Crypto", "SystemIO"]

    /// One `import` line of a source file: its access level and module.
    struct Import: Equatable {
        let line: Int
        /// `public` unless the line says otherwise (Swift 6's default), `exported` for `@_exported`.
        let access: String
        let module: String
    }

    /// The imports of `source`, with their access levels (`@_exported`, `public`, `package`,
    /// `internal`, `fileprivate`, `private`; none written is `public`).
    static func imports(in source: String) -> [Import] {
        var found: [Import] = []
        for (index, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var words = raw.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
            var access = "public"
            while let first = words.first, first.hasPrefix("@") {
                if first == "@_exported" { access = "exported" }
                words.removeFirst()
            }
            if let first = words.first, ["public", "package", "internal", "fileprivate", "private"].contains(first) {
                access = first
                words.removeFirst()
            }
            guard words.first == "import", words.count >= 2 else { continue }
            let path = words.count >= 3 && !words[1].contains(".") && words[2].contains(".") ? words[2] : words[1]
            found.append(Import(line: index + 1, access: access, module: String(path.split(separator: ".")[0])))
        }
        return found
    }

    @Test func theImplementationModulesAreNeitherProductsNorReExported() throws {
        let door = try Repository.door()
        for module in Self.implementation {
            #expect(!door.contains(module), "\(module) is part of the door \(door.sorted())")
        }
        #expect(door.isSuperset(of: ["StoreCore", "StoreKitValues", "LocalAppStore", "Catalog"]), "\(door.sorted())")
    }

    @Test func theProductsImportWhatIsBehindTheDoorPrivately() throws {
        let door = try Repository.door()
        let sources = Repository.root.appendingPathComponent("Sources")
        let targets = Set(try FileManager.default.contentsOfDirectory(atPath: sources.path))
        var exposed: [String] = []
        for product in try Repository.libraryProducts().sorted() {
            let folder = sources.appendingPathComponent(product)
            guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for found in Self.imports(in: text)
                where targets.contains(found.module) && !door.contains(found.module)
                    && ["public", "exported"].contains(found.access)
                {
                    exposed.append("Sources/\(product)/\(file):\(found.line): \(found.access) import \(found.module)")
                }
            }
        }
        #expect(exposed.isEmpty, "implementation modules imported publicly:\n\(exposed.joined(separator: "\n"))")
    }

    /// The pure storefront target renders values; it must not link OpenSSL through the engine.
    @Test func thePureStorefrontTargetDependsOnTheValueTypesOnly() throws {
        let manifest = try Repository.manifest()
        var dependencies: [String: [String]] = [:]
        for target in manifest["targets"] as? [[String: Any]] ?? [] {
            guard let name = target["name"] as? String else { continue }
            dependencies[name] = (target["dependencies"] as? [[String: Any]] ?? []).compactMap {
                (($0["byName"] ?? $0["target"] ?? $0["product"]) as? [Any])?.first as? String
            }
        }
        var linked: Set<String> = []
        var pending = dependencies["StorefrontUI"] ?? []
        while let next = pending.popLast() {
            if linked.insert(next).inserted { pending += dependencies[next] ?? [] }
        }
        #expect(dependencies["StorefrontUI"] == ["StoreKitValues"], "\(dependencies["StorefrontUI"] ?? [])")
        #expect(linked.isDisjoint(with: ["COpenSSL", "Crypto", "StoreCore"]), "StorefrontUI links \(linked.sorted())")
    }

    @Test func importsAreReadWithTheirAccessLevels() {
        let source = """
            @_exported import StoreKitValues
            import Foundation
            internal import Receipts
            package import SystemIO
              @preconcurrency private import Vault
            import struct Crypto.SecureBytes
            // import Nothing
            """
        #expect(
            Self.imports(in: source) == [
                Import(line: 1, access: "exported", module: "StoreKitValues"),
                Import(line: 2, access: "public", module: "Foundation"),
                Import(line: 3, access: "internal", module: "Receipts"),
                Import(line: 4, access: "package", module: "SystemIO"),
                Import(line: 5, access: "private", module: "Vault"),
                Import(line: 6, access: "public", module: "Crypto"),
            ])
        #expect(Repository.reexports(in: source) == ["StoreKitValues"])
    }
}
