import Foundation
import TestSupport
import Testing

/// The Swift code the documents show is the examples' code, which `ExampleTests` builds and
/// runs: each ```swift block of the README and of the StoreCore guide's articles carries a
/// marker on the line before its fence, `<!-- example: PATH -->` for a whole file (byte for
/// byte) or `<!-- excerpt: PATH -->` for consecutive whole lines of one.
struct DocumentCodeTests {
    /// A fenced block of a document and the example file it says it is, or is from.
    struct Block {
        let line: Int
        let path: String?
        let isExcerpt: Bool
        let code: String
    }

    /// The documents whose Swift blocks are checked: the README and every article of the guide.
    static func documents() throws -> [String] {
        let catalog = "Sources/StoreCore/StoreCore.docc"
        let articles = try FileManager.default.contentsOfDirectory(atPath: Repository.url(catalog).path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        return ["README.md"] + articles
    }

    /// Every ```swift block of `text`, with the marker before it when there is one.
    static func swiftBlocks(in text: String) -> [Block] {
        let lines = text.components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            guard lines[index] == "```swift" else {
                index += 1
                continue
            }
            let marker = index > 0 ? lines[index - 1] : ""
            var path: String?
            var isExcerpt = false
            for (prefix, excerpt) in [("<!-- example: ", false), ("<!-- excerpt: ", true)]
            where marker.hasPrefix(prefix) && marker.hasSuffix(" -->") {
                path = String(marker.dropFirst(prefix.count).dropLast(" -->".count))
                isExcerpt = excerpt
            }
            var end = index + 1
            while end < lines.count, lines[end] != "```" { end += 1 }
            blocks.append(
                Block(
                    line: index + 1, path: path, isExcerpt: isExcerpt,
                    code: lines[(index + 1)..<end].joined(separator: "\n") + "\n"))
            index = end + 1
        }
        return blocks
    }

    /// Whether `code`'s lines are consecutive whole lines of `file`.
    static func isExcerpt(_ code: String, of file: String) -> Bool {
        let wanted = code.components(separatedBy: "\n").dropLast()
        let lines = file.components(separatedBy: "\n")
        guard !wanted.isEmpty, wanted.count <= lines.count else { return false }
        return (0...(lines.count - wanted.count)).contains { lines[$0..<($0 + wanted.count)].elementsEqual(wanted) }
    }

    @Test func everySwiftBlockOfTheDocumentsIsExampleCodeAsItIs() throws {
        var shown: Set<String> = []
        for document in try Self.documents() {
            let text = try String(contentsOf: Repository.url(document), encoding: .utf8)
            for block in Self.swiftBlocks(in: text) {
                guard let path = block.path else {
                    Issue.record(
                        "\(document):\(block.line): a ```swift block without `<!-- example: PATH -->` or `<!-- excerpt: PATH -->` before it"
                    )
                    continue
                }
                let file = try String(contentsOf: Repository.url(path), encoding: .utf8)
                if block.isExcerpt {
                    #expect(Self.isExcerpt(block.code, of: file), "\(document):\(block.line) is not lines of \(path)")
                } else {
                    #expect(block.code == file, "\(document):\(block.line) differs from \(path)")
                    shown.insert("\(document) \(path)")
                }
            }
        }
        #expect(shown.contains("README.md Examples/ReadmeApp/Package.swift"), "the README shows the dependency lines")
        #expect(
            shown.contains(
                "Sources/StoreCore/StoreCore.docc/GettingStarted.md Examples/ReadmeApp/Sources/ReadmeApp/main.swift"),
            "the guide's Getting Started shows the ReadmeApp example")
    }

    @Test func theScannerFindsMarkedAndUnmarkedBlocks() {
        let text =
            "intro\n<!-- example: A.swift -->\n```swift\nlet a = 1\n```\n```swift\nb\n```\n```sh\nc\n```\n<!-- excerpt: B.swift -->\n```swift\nd\n```\n"
        let blocks = Self.swiftBlocks(in: text)
        #expect(blocks.map(\.path) == ["A.swift", nil, "B.swift"])
        #expect(blocks.map(\.isExcerpt) == [false, false, true])
        #expect(blocks.map(\.code) == ["let a = 1\n", "b\n", "d\n"])
        #expect(blocks.map(\.line) == [3, 6, 13])
    }

    @Test func anExcerptIsConsecutiveWholeLines() {
        let file = "one\n    two\nthree\nfour\n"
        #expect(Self.isExcerpt("    two\nthree\n", of: file))
        #expect(!Self.isExcerpt("two\nthree\n", of: file), "a line cut short is not the file's")
        #expect(!Self.isExcerpt("one\nthree\n", of: file), "lines apart are not an excerpt")
        #expect(!Self.isExcerpt("", of: file))
    }
}
