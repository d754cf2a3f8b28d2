import Foundation

/// The names the documents mark as code (`Name`, `Type.member`, `Sources/Target/File.swift`),
/// checked against the source tree, so that a document naming a type, member, file or target
/// that no longer exists fails a test (Docs/decisions/0046-documentation-in-its-places.md).
///
/// What is checked, in the inline code spans outside fenced blocks:
/// - a CamelCase name, optionally generic and with `.member`s and a call's parentheses: a type,
///   module or target declared in the tree, or one of `external`; each member declared in a
///   file that declares or extends the type before it (a nested type continues the chain);
/// - `.name` and `name(…)`: an enum case or a function declared somewhere in the tree;
/// - a path whose first component is a top-level entry of the repository (or `..`): it must
///   exist (a component in capitals, `NAME` or `PRODUCT_ID`, is a placeholder: its parent
///   must exist); a file name ending in `.swift`, `.md`, `.py` or `.h`: some file of the tree.
/// Anything with a space (a command), lower-case words and capitals alone are not checked.
struct DocumentationNames: Sendable {
    /// Names from outside the package that the documents may mention: the toolchain's, Apple's
    /// (StoreKit, the App Store Server Library) and the C libraries'.
    static let external: Set<String> = [
        // Swift and the toolchain's modules
        "Foundation", "FoundationNetworking", "Dispatch", "Synchronization", "Glibc", "Musl", "Darwin",
        "String", "Character", "Int", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Bool",
        "Decimal", "Data", "Date", "URL", "UUID", "Set", "Array", "Dictionary", "Optional", "Result", "Error",
        "Sendable", "Codable", "Hashable", "Equatable", "Identifiable", "RawRepresentable", "CaseIterable",
        "AsyncStream", "Task", "CancellationError", "MainActor", "Mutex", "Atomic", "NSLock", "NSNumber",
        "JSONEncoder", "JSONDecoder", "JSONSerialization", "NotificationCenter", "Notification", "URLSession",
        "Process", "FileManager", "LocalizedError", "SIMD16", "Regex",
        // SwiftPM and DocC
        "PackageDescription", "Package", "DocC",
        // Apple's environments, HTTP, and the kernel's words
        "Sandbox", "Production", "ProductionSandbox", "Xcode", "LocalTesting", "Range", "VmHWM", "VmRSS",
        // Apple's StoreKit and the App Store Server Library
        "StoreKit", "SKPaymentQueue", "SKPayment", "SKTestSession", "SKTestTimeRate", "SKError",
        "AppStore", "SignedDataVerifier", "ReceiptUtility", "AppStoreServerAPIClient", "APIException",
        "TransactionHistoryRequest", "GetTransactionHistoryVersion", "Environment", "RMStore", "RMAppReceipt",
        "SwiftyStoreKit", "DEStoreKitManager",
        // Apple's App Store Server API and Retention Messaging API: objects and error objects
        "RealtimeRequestBody", "PerformanceTestConfig", "PromotionalOfferSignatureCreator", "InvalidTransactionIdError",
        "TransactionIdNotFoundError", "OriginalTransactionIdNotFoundError", "BadRequestImageSizeError",
        "ImageNotFoundError", "InvalidLocaleError", "InvalidPerformanceTestRequestError",
        "ExistingPerformanceTestRunError", "ForbiddenNoPassingTestError", "RealtimeUrlNotFoundError",
    ]

    /// Top-level entries of the repository a path may start with.
    static let topLevel: Set<String> = [
        "Sources", "Tests", "Docs", "Examples", "Fuzz", "scripts", "Catalogs", "Makefile", "Package.swift",
        "README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", ".swift-format",
    ]

    /// File extensions a document may name alone (`.storekit` files), not checked as cases.
    static let fileExtensions: Set<String> = [
        "storekit", "json", "jsonl", "swift", "md", "py", "h", "pem", "p8", "der", "cer", "idx", "dat", "lock", "pc",
        "o", "txt", "b64", "sfv", "key",
    ]

    /// File extensions whose bare file names are checked against the tree.
    static let checkedExtensions: Set<String> = ["swift", "md", "py", "h", "modulemap"]

    let root: URL
    /// Type, module and target names → the files (relative paths) that declare or extend them.
    private(set) var declarations: [String: Set<String>] = [:]
    /// Each Swift file's declared member names (functions, properties, cases, nested types).
    private(set) var members: [String: Set<String>] = [:]
    /// Every function and enum case name declared anywhere.
    private(set) var functions: Set<String> = []
    private(set) var cases: Set<String> = []
    /// The file names of the tree (`Store.swift`).
    private(set) var fileNames: Set<String> = []
    /// Targets and modules (the folders of `Sources` and `Tests`), by name → their folder.
    private(set) var modules: [String: String] = [:]

    init(root: URL) throws {
        self.root = root
        let manager = FileManager.default
        for folder in ["Sources", "Tests"] {
            for name in try manager.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            where !name.hasPrefix(".") {
                modules[name] = "\(folder)/\(name)"
            }
        }
        for top in ["Sources", "Tests", "Examples", "Fuzz", "Docs", "scripts", "Catalogs"] {
            guard let files = manager.enumerator(atPath: root.appendingPathComponent(top).path) else { continue }
            for case let file as String in files where !file.contains(".build/") {
                let relative = "\(top)/\(file)"
                fileNames.insert(URL(fileURLWithPath: file).lastPathComponent)
                guard file.hasSuffix(".swift") else { continue }
                let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                var declared: Set<String> = []
                for line in text.split(separator: "\n") {
                    let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
                    let words = Self.words(code)
                    for (index, word) in words.enumerated() where index + 1 < words.count {
                        let next = words[index + 1]
                        switch word {
                        case "struct", "class", "enum", "actor", "protocol", "typealias", "extension", "associatedtype":
                            guard next.first?.isLetter == true || next.first == "_" else { continue }
                            declarations[next, default: []].insert(relative)
                            let last = String(next.split(separator: ".").last ?? "")
                            if last != next { declarations[last, default: []].insert(relative) }
                            declared.insert(last)
                        case "func":
                            functions.insert(next)
                            declared.insert(next)
                        case "var", "let":
                            declared.insert(next)
                        case "case":
                            // `case a, b(Int), c = "c"`: every name of the list.
                            for name in words[(index + 1)...].prefix(while: { $0 != "=" && $0 != ":" })
                            where name.first?.isLetter == true {
                                cases.insert(name)
                                declared.insert(name)
                            }
                        default: continue
                        }
                    }
                }
                if text.contains("init(") { declared.insert("init") }
                members[relative] = declared
            }
        }
    }

    /// One name of a document that does not exist.
    struct Problem: CustomStringConvertible, Equatable, Sendable {
        let document: String
        let line: Int
        let name: String
        let reason: String
        var description: String { "\(document):\(line): `\(name)` \(reason)" }
    }

    /// The inline code spans of a Markdown text, with their line numbers, outside fenced blocks.
    static func codeSpans(in text: String) -> [(line: Int, code: String)] {
        var spans: [(Int, String)] = []
        var fenced = false
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                continue
            }
            guard !fenced else { continue }
            let parts = line.components(separatedBy: "`")
            // Odd parts are inside single backticks; `` `` `` spans are DocC's and checked by DocC.
            var part = 1
            while part < parts.count - 1 {
                if !parts[part].isEmpty { spans.append((index + 1, parts[part])) }
                part += 2
            }
        }
        return spans
    }

    /// Every name of `text` (the document `document`) that does not exist.
    func problems(in text: String, document: String) -> [Problem] {
        Self.codeSpans(in: text).compactMap { line, code in
            check(code).map { Problem(document: document, line: line, name: code, reason: $0) }
        }
    }

    /// Why `code` names nothing that exists (nil: it exists, or it is not a name this checks).
    func check(_ code: String) -> String? {
        guard !code.contains(" "), !code.isEmpty, code != "..", code != "." else { return nil }
        if code.hasPrefix("../") { return "is outside the repository: a clone does not have it" }
        let first = String(code.prefix { $0 != "/" })
        if code.contains("/") || Self.topLevel.contains(code) {
            guard Self.topLevel.contains(first) else { return nil }
            return checkPath(code)
        }
        if let dot = code.lastIndex(of: "."), dot != code.startIndex,
            Self.checkedExtensions.contains(String(code[code.index(after: dot)...])),
            !code[..<dot].contains(".")
        {
            return fileNames.contains(code) || Self.hasPlaceholder(code) ? nil : "is no file of the repository"
        }
        if code.hasPrefix("."), let name = Self.identifier(code.dropFirst()), !Self.fileExtensions.contains(name) {
            return cases.contains(name) || functions.contains(name) || members.values.contains { $0.contains(name) }
                ? nil : "is no case or member declared in the tree"
        }
        if code.first?.isLowercase == true, code.hasSuffix(")"), let open = code.firstIndex(of: "("),
            let name = Self.identifier(code[..<open])
        {
            // `name()` and `name(label:_:)` are checked; `poll(2)` (a manual page) or a call with
            // arguments is not.
            let labels = code[code.index(after: open)..<code.index(before: code.endIndex)]
            guard
                labels.isEmpty
                    || (labels.hasSuffix(":")
                        && labels.split(separator: ":").allSatisfy({ Self.identifier($0) != nil }))
            else { return nil }
            return functions.contains(name) || name == "init" ? nil : "is no function declared in the tree"
        }
        return checkQualifiedName(code)
    }

    /// A dotted name: `Type`, `Type<Arg>`, `Type.member`, `Module.Type.member(label:)`.
    private func checkQualifiedName(_ code: String) -> String? {
        var text = Substring(code)
        if let open = text.firstIndex(of: "("), text.hasSuffix(")") { text = text[..<open] }
        var generics: [String] = []
        if let open = text.firstIndex(of: "<"), let close = text.lastIndex(of: ">"), open < close {
            generics = text[text.index(after: open)..<close].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            text = text[..<open] + text[text.index(after: close)...]
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        // A C name (`CMS_verify`, `MHD_start_daemon`) is not the package's.
        guard let head = parts.first, head.first?.isUppercase == true, head.contains(where: \.isLowercase),
            !head.contains("_"), parts.allSatisfy({ Self.identifier(Substring($0)) == $0 })
        else { return nil }
        for generic in generics where Self.identifier(Substring(generic)) == generic {
            if let reason = checkQualifiedName(generic) { return reason }
        }
        guard !Self.external.contains(head) else { return nil }
        guard declarations[head] != nil || modules[head] != nil else {
            return "is no type, module or target of the tree"
        }
        var current = head
        for member in parts.dropFirst() {
            if let folder = modules[current], declarations[current] == nil {
                // A module: the next name is one of its types.
                guard declarations[member]?.contains(where: { $0.hasPrefix(folder + "/") }) == true else {
                    return "names no type `\(member)` of \(current)"
                }
                current = member
                continue
            }
            let files = declarations[current] ?? []
            guard files.contains(where: { members[$0]?.contains(member) == true }) else {
                return "names no member `\(member)` of `\(current)`"
            }
            if declarations[member] != nil, member.first?.isUppercase == true { current = member } else { break }
        }
        return nil
    }

    /// A repository path: it exists, or its placeholder's parent does.
    private func checkPath(_ code: String) -> String? {
        var path = code.hasSuffix("/") ? String(code.dropLast()) : code
        if path.hasSuffix("/*") { path = String(path.dropLast(2)) }
        let manager = FileManager.default
        if manager.fileExists(atPath: root.appendingPathComponent(path).path) { return nil }
        // From the first component that varies, only the folder before it must exist.
        let components = path.split(separator: "/").map(String.init)
        if let varying = components.firstIndex(where: {
            Self.hasPlaceholder($0) || $0.contains("*") || $0.contains("…")
        }),
            varying > 0
        {
            let parent = components[..<varying].joined(separator: "/")
            return manager.fileExists(atPath: root.appendingPathComponent(parent).path)
                ? nil : "is no file or folder of the repository (nor is \(parent))"
        }
        return "is no file or folder of the repository"
    }

    /// The words the documents write in capitals for a part of a name that varies.
    static let placeholders = [
        "NAME", "NNNN", "ID", "VERSION", "GENERATION", "TOKEN", "ACCOUNT", "KEYID", "GROUP", "DERIVATION", "HASH",
        "PATH", "FILE", "POINT", "DATA", "STATE", "CODE", "TARGET",
    ]

    /// Whether a path component holds a placeholder (`NAME.swift`, `NAMECommand.swift`,
    /// `NNNN-title.md`, `history-GENERATION.idx`, `<Concept>`).
    static func hasPlaceholder(_ component: String) -> Bool {
        component.contains("<") || placeholders.contains { component.contains($0) }
    }

    /// The tokens of a line of Swift: identifiers (with the dots of a qualified name, without
    /// backticks) and every other character that is not a space, alone.
    static func words(_ line: Substring) -> [String] {
        var words: [String] = []
        var current = ""
        for character in line {
            if character.isLetter || character.isNumber || character == "_"
                || (character == "." && !current.isEmpty)
            {
                current.append(character)
            } else {
                if !current.isEmpty { words.append(current) }
                current = ""
                if character != "`", !character.isWhitespace { words.append(String(character)) }
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `text` when it is one Swift identifier.
    static func identifier(_ text: Substring) -> String? {
        guard let first = text.first, first.isLetter || first == "_",
            text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        return String(text)
    }
}
