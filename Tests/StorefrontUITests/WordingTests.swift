import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// The interface's words (issue 17): German, French, Spanish and Arabic are translated;
/// Chinese calls the store one thing; consuming and bandwidth read as people say them.
@Suite struct WordingTests {
    @Test(arguments: [("de_DE", UILanguage.german), ("fr_FR", .french), ("es_ES", .spanish), ("ar_SA", .arabic)])
    func theInterfaceSpeaksTheCatalogLocalesLanguage(locale: String, language: UILanguage) {
        #expect(UILanguage(locale: locale) == language)
        let strings = Strings(language)
        for phrase in ["Buy", "Help", "Quit", "Storefront & Language", "Transaction Manager", "Restore Purchases"] {
            #expect(strings(phrase) != phrase, "\(phrase) in \(language)")
        }
    }

    @Test func chineseCallsTheStorefrontOneWord() {
        let chinese = Strings.table(for: .simplifiedChinese)
        let usesShangdian = chinese.filter { $0.value.contains("商店") }
        #expect(usesShangdian.isEmpty, "\(usesShangdian.keys.sorted())")
        #expect(chinese["Storefront"] == "店面")
    }

    @Test func consumingSaysHowManyAndWhatIsLeft() {
        var state = Fixtures.loaded()
        send(&state, .myPurchases(.consumed(productID: "com.storefront.demo.coins.100", .success(2))))
        #expect(state.message?.text == "Used 1 × 100 Coins: 2 left")
    }

    @Test func bandwidthReadsInBytesPerSecondAndZeroIsUnlimited() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("o")))
        let bandwidth = SettingRow(
            name: "bandwidth", label: "Download bandwidth (bytes/s)", value: "0",
            choices: ["0", "250000", "1000000"], unit: .bytesPerSecond)
        send(&state, .settings(.loaded(.success([bandwidth]))))
        #expect(render(state).lines.contains { $0.contains("Download bandwidth") && $0.contains("Unlimited") })
        var faster = bandwidth
        faster.value = "1000000"
        send(&state, .settings(.loaded(.success([faster]))))
        #expect(render(state).lines.contains { $0.contains("1.0 MB/s") })
        #expect(!render(state).lines.contains { $0.contains("1000000") })
    }
}
