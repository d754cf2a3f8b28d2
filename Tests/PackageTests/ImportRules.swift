import Foundation

/// The import rules of ARCHITECTURE.md's target table, read from the document itself, and the
/// imports each target's sources really make.
struct ImportRules {
    /// Modules every target may import: the toolchain's own.
    static let toolchain: Set<String> = ["Foundation", "FoundationNetworking", "Dispatch", "Synchronization"]
    /// What `libc` in the table stands for.
    static let libc: Set<String> = ["Glibc", "Musl", "Darwin"]

    /// For each target named in the table, the modules it may import.
    let allowed: [String: Set<String>]

    /// Reads the table under `## Targets`: rows `| \`Name\` | kind | may import | owns |`.
    init(architecture text: String) {
        var allowed: [String: Set<String>] = [:]
        let section = text.components(separatedBy: "\n## ").first { $0.hasPrefix("Targets") } ?? ""
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 5 else { continue }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            var modules = Set<String>()
            // Each item is a module name, optionally followed by a note: `StoreKitValues (re-exported)`.
            for item in cells[3].split(whereSeparator: { $0 == "," || $0 == ";" }) {
                let word = String(item.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter || $0.isNumber })
                if word == "libc" { modules.formUnion(Self.libc) } else if !word.isEmpty { modules.insert(word) }
            }
            allowed[name] = modules
        }
        self.allowed = allowed
    }

    /// One `import` of a source file that its target's row does not allow.
    struct Violation: CustomStringConvertible, Equatable {
        let file: String
        let line: Int
        let module: String
        let target: String
        var description: String {
            "\(file):\(line): \(target) imports \(module), which ARCHITECTURE.md's table does not allow"
        }
    }

    /// The modules a Swift source imports, with their line numbers (`@testable`, `@_exported`,
    /// access-level (`internal import X`) and `import struct X.Y` forms included; indented imports
    /// inside `#if` blocks too; lines inside multi-line string literals, such as a Python script a
    /// bench runs, are not code).
    static func imports(in source: String) -> [(line: Int, module: String)] {
        var found: [(Int, String)] = []
        var inLiteral = false
        for (index, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let delimiters = raw.components(separatedBy: "\"\"\"").count - 1
            defer { if delimiters % 2 == 1 { inLiteral.toggle() } }
            guard !inLiteral else { continue }
            var words = raw.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
            while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
            if let first = words.first, ["public", "package", "internal", "fileprivate", "private"].contains(first) {
                words.removeFirst()
            }
            guard words.first == "import", words.count >= 2 else { continue }
            let path =
                words.count >= 3
                    && ["struct", "class", "enum", "protocol", "func", "var", "typealias", "let"].contains(words[1])
                ? words[2] : words[1]
            let module = String(path.split(separator: ".").first ?? "")
            guard module.first.map({ $0.isLetter || $0 == "_" }) == true,
                module.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
            else { continue }
            found.append((index + 1, module))
        }
        return found
    }

    /// Every import under `sources` (one folder per target) that breaks the table, and the
    /// targets the table does not name.
    func check(sources: URL) throws -> (violations: [Violation], unlisted: [String]) {
        let manager = FileManager.default
        var violations: [Violation] = []
        var unlisted: [String] = []
        for target in try manager.contentsOfDirectory(atPath: sources.path).sorted() where !target.hasPrefix(".") {
            guard let rule = allowed[target] else {
                unlisted.append(target)
                continue
            }
            let folder = sources.appendingPathComponent(target)
            guard let files = manager.enumerator(atPath: folder.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (line, module) in Self.imports(in: text)
                where !rule.contains(module) && !Self.toolchain.contains(module) && module != target {
                    violations.append(
                        Violation(file: "Sources/\(target)/\(file)", line: line, module: module, target: target))
                }
            }
        }
        return (violations, unlisted)
    }
}
