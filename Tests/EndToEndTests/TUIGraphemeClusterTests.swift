import Foundation
import TestSupport
import Testing

/// Characters of several code points (a flag, an emoji with a skin tone) drawn whole in a real
/// terminal, with nothing of the previous screen showing beside them.
@Suite(.waitsOnProcesses, .serialized) struct TUIGraphemeClusterTests {
    /// The pane's row that contains `text`, trimmed of the borders and spaces around it.
    private func row(_ screen: String, containing text: String) -> String? {
        screen.split(separator: "\n").first { $0.contains(text) }
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " │┃")) }
    }

    /// QA: typing 🇯🇵 in the filter showed 🇯, 👍🏽 showed 👍; `e🇯🇵` left a stray space in
    /// "No products match".
    @Test func aFlagAndASkinToneAreDrawnWholeInTheFilterAndTheMessage() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await TUIEndToEndTests.open(storefront)
        defer { tmux.close() }
        try tmux.keys("/")
        let flag = try await tmux.press("e🇯🇵", literal: true, until: "No products match")
        #expect(row(flag, containing: "/ e") == "/ e🇯🇵", "\(flag)")
        #expect(row(flag, containing: "No products match") == "No products match “e🇯🇵”", "\(flag)")
        try tmux.keys("C-u")
        let thumb = try await tmux.press("👍🏽", literal: true, until: "No products match “👍🏽”")
        #expect(row(thumb, containing: "/ 👍") == "/ 👍🏽", "\(thumb)")
        try tmux.keys("Escape")
        try tmux.keys("q")
        try await tmux.waitFor("the prompt") { $0.contains(TUITmux.prompt) && !$0.contains("100 Coins") }
    }

    /// QA: in JPN, `e🇯🇵` let part of the previous screen show through inside the message.
    @Test func aFlagInsideAJapaneseMessageLeavesNothingOfTheScreenBefore() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await TUIEndToEndTests.open(storefront)
        defer { tmux.close() }
        try await tmux.press("s", until: "Storefront & Language")
        try await tmux.press("J", literal: true, until: "→ JPN")
        try await tmux.press("Enter", until: "¥160")
        try tmux.keys("/")
        let screen = try await tmux.press("e🇯🇵", literal: true, until: "に一致する商品はありません")
        #expect(row(screen, containing: "に一致する商品はありません") == "「e🇯🇵」に一致する商品はありません", "\(screen)")
        try tmux.keys("Escape")
        try tmux.keys("q")
        try await tmux.waitFor("the prompt") { $0.contains(TUITmux.prompt) && !$0.contains("コイン") }
    }
}
