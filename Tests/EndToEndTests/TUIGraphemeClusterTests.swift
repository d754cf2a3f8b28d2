import Foundation
import TestSupport
import Testing

/// Characters of several code points (a flag, an emoji with a skin tone) drawn whole in a real
/// terminal, with nothing of the previous screen showing beside them.
@Suite(.waitsOnProcesses, .serialized) struct TUIGraphemeClusterTests {
    /// The pane's rows, trimmed of the borders and spaces around them.
    private func rows(_ screen: String) -> [String] {
        screen.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " │┃")) }
    }

    /// The row that contains `text` (compared by grapheme cluster: "👍" is not in "👍🏽").
    private func row(_ screen: String, containing text: String) -> String? {
        rows(screen).first { $0.contains(text) }
    }

    /// The status line's filter field: the row that starts with `/ `.
    private func filterField(_ screen: String) -> String? {
        rows(screen).first { $0.hasPrefix("/ ") }
    }

    /// QA: typing 🇯🇵 in the filter showed 🇯, 👍🏽 showed 👍; `e🇯🇵` left a stray space in
    /// "No products match".
    @Test func aFlagAndASkinToneAreDrawnWholeInTheFilterAndTheMessage() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        let tmux = try await TUIEndToEndTests.open(storefront)
        defer { tmux.close() }
        // A frame reaches the pane in pieces: wait for the rows as they should read (before,
        // they never did: the wait gave up, showing them).
        try tmux.keys("/")
        try tmux.keys("e🇯🇵", literal: true)
        try await tmux.waitFor("the flag whole in the filter and the message") { screen in
            filterField(screen) == "/ e🇯🇵" && row(screen, containing: "No products match") == "No products match “e🇯🇵”"
        }
        try tmux.keys("C-u")
        try tmux.keys("👍🏽", literal: true)
        try await tmux.waitFor("the skin tone whole in the filter and the message") { screen in
            filterField(screen) == "/ 👍🏽" && row(screen, containing: "No products match") == "No products match “👍🏽”"
        }
        try await tmux.quit(closing: 1)
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
        try tmux.keys("e🇯🇵", literal: true)
        try await tmux.waitFor("the message whole") { screen in
            row(screen, containing: "に一致する商品はありません") == "「e🇯🇵」に一致する商品はありません"
        }
        try await tmux.quit(closing: 1, gone: "コイン")
    }
}
