import Foundation
import TestSupport
import Testing

/// The README's Swift code is the examples' code: each ```swift block carries a marker
/// `<!-- example: PATH -->` on the line before its fence and must equal that file, byte for
/// byte, so the code a reader copies is the code `ExampleTests` builds and runs.
struct ReadmeCodeTests {
    /// A fenced block of the README and the example file it says it is.
    struct Block {
        let line: Int
        let path: String?
        let code: String
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
            let path: String? =
                marker.hasPrefix("<!-- example: ") && marker.hasSuffix(" -->")
                ? String(marker.dropFirst("<!-- example: ".count).dropLast(" -->".count)) : nil
            var end = index + 1
            while end < lines.count, lines[end] != "```" { end += 1 }
            blocks.append(
                Block(line: index + 1, path: path, code: lines[(index + 1)..<end].joined(separator: "\n") + "\n"))
            index = end + 1
        }
        return blocks
    }

    @Test func everySwiftBlockOfTheReadmeIsAnExampleFileAsItIs() throws {
        let readme = try String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = Self.swiftBlocks(in: readme)
        #expect(
            blocks.contains { $0.path == "Examples/ReadmeApp/Sources/ReadmeApp/main.swift" },
            "the README shows the ReadmeApp example")
        #expect(
            blocks.contains { $0.path == "Examples/ReadmeApp/Package.swift" }, "the README shows the dependency lines")
        for block in blocks {
            guard let path = block.path else {
                Issue.record("README.md:\(block.line): a ```swift block without `<!-- example: PATH -->` before it")
                continue
            }
            let file = try String(contentsOf: Repository.root.appendingPathComponent(path), encoding: .utf8)
            #expect(block.code == file, "README.md:\(block.line) differs from \(path)")
        }
    }

    @Test func theScannerFindsMarkedAndUnmarkedBlocks() {
        let text = "intro\n<!-- example: A.swift -->\n```swift\nlet a = 1\n```\n```swift\nb\n```\n```sh\nc\n```\n"
        let blocks = Self.swiftBlocks(in: text)
        #expect(blocks.map(\.path) == ["A.swift", nil])
        #expect(blocks.map(\.code) == ["let a = 1\n", "b\n"])
        #expect(blocks.map(\.line) == [3, 6])
    }
}
