import Foundation
import TestSupport
import Testing

/// The products' public API as the compiler sees it, read from symbol graphs that the
/// toolchain's `swift-symbolgraph-extract` writes from the built modules: every public
/// declaration has a `///` summary, and every type it names comes through the door (a product,
/// a module a product re-exports, or the toolchain).
@Suite(.waitsOnProcesses, .serialized, .timeLimit(.minutes(10)))
struct DocumentationTests {
    /// The modules whose public declarations must each have a summary: the door an app imports
    /// (the products and what they re-export) and the implementation modules beneath it.
    static let documented = [
        "StoreCore", "StoreKitValues", "LocalAppStore", "Catalog", "StoreTesting", "Receipts", "Vault", "Crypto",
        "SystemIO",
    ]

    /// One public declaration from a symbol graph.
    struct Symbol {
        let module: String
        let path: String
        let kind: String
        let file: String?
        let line: Int?
        let summary: String?
        /// The modules of the types its declaration names (from their mangled identifiers).
        let referencedModules: Set<String>

        var place: String {
            guard let file else { return "\(module).\(path)" }
            return
                "\(file.replacingOccurrences(of: Repository.root.path + "/", with: "")):\((line ?? 0) + 1): \(module).\(path)"
        }
    }

    /// The symbol graphs of `module`, by file name: `MODULE.symbols.json`, and one
    /// `MODULE@OTHER.symbols.json` per module whose types it extends.
    static func graphs(of module: String) throws -> [String: [String: Any]] {
        let extract = try require(
            Repository.tool("swift-symbolgraph-extract"), "no swift-symbolgraph-extract beside `swift`")
        let scratch = try TemporaryDirectory(prefix: "symbolgraph")
        let output = scratch.url
        var arguments = [
            "-module-name", module, "-I", Repository.modules.path, "-minimum-access-level", "public",
            "-output-dir", output.path, "-target", try hostTriple(),
        ]
        // The system-library targets' module maps, for modules that import them.
        for library in ["COpenSSL"] {
            arguments += [
                "-Xcc",
                "-fmodule-map-file="
                    + Repository.root.appendingPathComponent("Sources/\(library)/module.modulemap").path,
            ]
        }
        let result = try ChildProcess.run(extract, arguments)
        guard result.status == 0 else {
            throw ChildProcess.Failure("swift-symbolgraph-extract -module-name \(module)", result)
        }
        var graphs: [String: [String: Any]] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: output.path)
        where file == "\(module).symbols.json" || file.hasPrefix("\(module)@") {
            let data = try Data(contentsOf: output.appendingPathComponent(file))
            graphs[file] = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        return graphs
    }

    /// The public symbols of `module`, its extensions of other modules' types included.
    static func symbols(of module: String) async throws -> [Symbol] {
        var symbols: [Symbol] = []
        for graph in try graphs(of: module).values {
            for entry in graph["symbols"] as? [[String: Any]] ?? [] {
                if let symbol = Self.symbol(entry, module: module) { symbols.append(symbol) }
            }
        }
        return symbols
    }

    /// A symbol of the graph, nil for what the compiler synthesized (`Hashable`'s `hash(into:)`).
    static func symbol(_ entry: [String: Any], module: String) -> Symbol? {
        let identifier = (entry["identifier"] as? [String: Any])?["precise"] as? String ?? ""
        guard !identifier.contains("::SYNTHESIZED::"), let location = entry["location"] as? [String: Any] else {
            return nil
        }
        let position = location["position"] as? [String: Any]
        let lines = ((entry["docComment"] as? [String: Any])?["lines"] as? [[String: Any]] ?? []).compactMap {
            $0["text"] as? String
        }
        let summary = lines.first.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        let fragments = entry["declarationFragments"] as? [[String: Any]] ?? []
        let referenced = Set(
            fragments.compactMap { ($0["preciseIdentifier"] as? String).flatMap(Self.module(ofMangled:)) })
        return Symbol(
            module: module, path: (entry["pathComponents"] as? [String] ?? []).joined(separator: "."),
            kind: (entry["kind"] as? [String: Any])?["identifier"] as? String ?? "",
            file: (location["uri"] as? String).map { URL(string: $0)?.path ?? $0 }, line: position?["line"] as? Int,
            summary: summary, referencedModules: referenced)
    }

    /// The module of a mangled Swift identifier: `s:9StoreCore11TransactionV` is StoreCore's.
    static func module(ofMangled identifier: String) -> String? {
        guard identifier.hasPrefix("s:") else { return nil }
        let rest = identifier.dropFirst(2)
        let digits = rest.prefix { $0.isNumber }
        guard let length = Int(digits), length > 0 else { return nil }
        let name = rest.dropFirst(digits.count).prefix(length)
        return name.count == length ? String(name) : nil
    }

    /// The target triple the modules were built for, as the toolchain names the host.
    static func hostTriple() throws -> String {
        #if arch(x86_64)
            let cpu = "x86_64"
        #elseif arch(arm64)
            let cpu = "aarch64"
        #else
            throw ChildProcess.Failure("no triple known for this processor")
        #endif
        #if os(Linux)
            return "\(cpu)-unknown-linux-gnu"
        #elseif os(macOS)
            return "\(cpu == "aarch64" ? "arm64" : cpu)-apple-macosx15.0"
        #else
            throw ChildProcess.Failure("no triple known for this system")
        #endif
    }

    @Test(arguments: documented)
    func everyPublicDeclarationHasASummary(_ module: String) async throws {
        let symbols = try await Self.symbols(of: module)
        #expect(symbols.count > 5, "\(module): the symbol graph lists only \(symbols.count) public symbols")
        let missing = symbols.filter { $0.summary == nil }.map(\.place).sorted()
        if !missing.isEmpty {
            Issue.record(
                "\(missing.count) public declarations of \(module) lack a /// summary:\n\(missing.joined(separator: "\n"))"
            )
        }
    }

    @Test func everyTypeThePublicAPINamesComesThroughTheDoor() async throws {
        let door = try Repository.door()
        let targets = Set(
            try FileManager.default.contentsOfDirectory(atPath: Repository.root.appendingPathComponent("Sources").path))
        for product in try Repository.libraryProducts().sorted() {
            var named: [String: String] = [:]
            for symbol in try await Self.symbols(of: product) {
                for module in symbol.referencedModules where targets.contains(module) && !door.contains(module) {
                    named[module] = named[module] ?? symbol.place
                }
            }
            for (module, place) in named.sorted(by: { $0.key < $1.key }) {
                let why = "neither a product nor re-exported by one (first at \(place)); door: \(door.sorted())"
                Issue.record("\(product)'s public API names \(module), which is \(why)")
            }
        }
    }

    /// The public types of `module` (by path) and the protocols each conforms to (by name,
    /// as `Swift.Error`), from its symbol graph's `conformsTo` relationships.
    static func conformances(of module: String) throws -> [String: Set<String>] {
        let graph = try #require(try graphs(of: module)["\(module).symbols.json"])
        var paths: [String: String] = [:]
        for entry in graph["symbols"] as? [[String: Any]] ?? [] {
            if let id = (entry["identifier"] as? [String: Any])?["precise"] as? String {
                paths[id] = (entry["pathComponents"] as? [String] ?? []).joined(separator: ".")
            }
        }
        var conformances: [String: Set<String>] = [:]
        for relation in graph["relationships"] as? [[String: Any]] ?? []
        where relation["kind"] as? String == "conformsTo" {
            guard let source = relation["source"] as? String, let type = paths[source],
                let name = relation["targetFallback"] as? String
            else { continue }
            conformances[type, default: []].insert(name)
        }
        return conformances
    }

    /// `error.localizedDescription` shows the error's own message only when its type is a
    /// `LocalizedError`; otherwise Foundation says "The operation could not be completed.
    /// (StoreCore.StoreError error 2.)".
    @Test(arguments: documented)
    func everyPublicErrorIsALocalizedError(_ module: String) throws {
        // LocalizedError is Foundation's, declared in FoundationEssentials on Linux.
        let missing = try Self.conformances(of: module).filter { _, protocols in
            protocols.contains("Swift.Error") && !protocols.contains { $0.hasSuffix(".LocalizedError") }
        }.keys.sorted()
        #expect(missing.isEmpty, "\(module)'s public errors without LocalizedError: \(missing.joined(separator: ", "))")
    }

    @Test func aMangledIdentifierNamesItsModule() {
        #expect(Self.module(ofMangled: "s:9StoreCore11TransactionV") == "StoreCore")
        #expect(Self.module(ofMangled: "s:10Foundation4DateV") == "Foundation")
        #expect(Self.module(ofMangled: "c:objc(cs)NSObject") == nil)
        #expect(Self.module(ofMangled: "s:99Short") == nil)
    }
}
