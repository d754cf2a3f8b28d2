import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// Counts agree with their nouns in every language, through `CountedWords` alone: Arabic says
/// one and two in words (the dual), 3–10 with the plural and 11 on with the singular; German,
/// French, Spanish and English tell one from more; Chinese and Japanese do not inflect.
@Suite struct PluralTests {
    /// The question `q` asks while `count` downloads run, in `language`.
    private func quitQuestion(_ count: Int, _ language: UILanguage) -> String {
        var state = Fixtures.loaded()
        state.strings = Strings(language)
        return QuestionView.text(.quit(downloads: count), state)
    }

    /// What a restore of `count` purchases says, in `language`.
    private func restored(_ count: Int, _ language: UILanguage) -> String {
        var state = Fixtures.loaded()
        state.strings = Strings(language)
        let restored = (0..<count).map { Fixtures.transaction("\($0)", pro, .nonConsumable, state: .restored) }
        send(&state, .menu(.restoreFinished(.success(restored))))
        return state.message?.text ?? ""
    }

    /// QA: "1 downloads are under way. Quit anyway?"; review: Arabic's 2 took the plural.
    @Test(arguments: [
        (
            UILanguage.english,
            [
                "1 download under way. Quit anyway? Downloading carries on at the next launch.",
                "2 downloads under way. Quit anyway? Downloading carries on at the next launch.",
                "3 downloads under way. Quit anyway? Downloading carries on at the next launch.",
                "11 downloads under way. Quit anyway? Downloading carries on at the next launch.",
            ]
        ),
        (
            .german,
            [
                "1 Download noch im Gange. Trotzdem beenden? Beim nächsten Start geht es weiter.",
                "2 Downloads noch im Gange. Trotzdem beenden? Beim nächsten Start geht es weiter.",
                "3 Downloads noch im Gange. Trotzdem beenden? Beim nächsten Start geht es weiter.",
                "11 Downloads noch im Gange. Trotzdem beenden? Beim nächsten Start geht es weiter.",
            ]
        ),
        (
            .french,
            [
                "1 téléchargement en cours. Quitter quand même ? Le téléchargement reprendra au prochain lancement.",
                "2 téléchargements en cours. Quitter quand même ? Le téléchargement reprendra au prochain lancement.",
                "3 téléchargements en cours. Quitter quand même ? Le téléchargement reprendra au prochain lancement.",
                "11 téléchargements en cours. Quitter quand même ? Le téléchargement reprendra au prochain lancement.",
            ]
        ),
        (
            .spanish,
            [
                "Hay 1 descarga en curso. ¿Salir de todos modos? Se seguirá descargando en el próximo inicio.",
                "Hay 2 descargas en curso. ¿Salir de todos modos? Se seguirá descargando en el próximo inicio.",
                "Hay 3 descargas en curso. ¿Salir de todos modos? Se seguirá descargando en el próximo inicio.",
                "Hay 11 descargas en curso. ¿Salir de todos modos? Se seguirá descargando en el próximo inicio.",
            ]
        ),
        (
            .arabic,
            [
                "هناك تنزيل واحد قيد التنفيذ. هل تريد الإنهاء رغم ذلك؟ سيُستأنف التنزيل عند التشغيل التالي.",
                "هناك تنزيلان قيد التنفيذ. هل تريد الإنهاء رغم ذلك؟ سيُستأنف التنزيل عند التشغيل التالي.",
                "هناك 3 تنزيلات قيد التنفيذ. هل تريد الإنهاء رغم ذلك؟ سيُستأنف التنزيل عند التشغيل التالي.",
                "هناك 11 تنزيلًا قيد التنفيذ. هل تريد الإنهاء رغم ذلك؟ سيُستأنف التنزيل عند التشغيل التالي.",
            ]
        ),
        (
            .simplifiedChinese,
            [
                "有 1 个下载正在进行。仍要退出吗？下载会在下次启动时继续。",
                "有 2 个下载正在进行。仍要退出吗？下载会在下次启动时继续。",
                "有 3 个下载正在进行。仍要退出吗？下载会在下次启动时继续。",
                "有 11 个下载正在进行。仍要退出吗？下载会在下次启动时继续。",
            ]
        ),
        (
            .japanese,
            [
                "1 件のダウンロードが進行中です。終了しますか？次回の起動時に再開されます。",
                "2 件のダウンロードが進行中です。終了しますか？次回の起動時に再開されます。",
                "3 件のダウンロードが進行中です。終了しますか？次回の起動時に再開されます。",
                "11 件のダウンロードが進行中です。終了しますか？次回の起動時に再開されます。",
            ]
        ),
    ])
    func theQuitQuestionCountsItsDownloads(_ language: UILanguage, _ expected: [String]) {
        #expect([1, 2, 3, 11].map { quitQuestion($0, language) } == expected)
    }

    /// QA: "Restored 1 purchases"; review: Arabic's 2 took the plural.
    @Test(arguments: [
        (
            UILanguage.english,
            ["Restored 1 purchase", "Restored 2 purchases", "Restored 3 purchases", "Restored 11 purchases"]
        ),
        (
            .german,
            [
                "1 Kauf wiederhergestellt", "2 Käufe wiederhergestellt", "3 Käufe wiederhergestellt",
                "11 Käufe wiederhergestellt",
            ]
        ),
        (
            .french,
            [
                "Restauration terminée : 1 achat", "Restauration terminée : 2 achats",
                "Restauration terminée : 3 achats", "Restauration terminée : 11 achats",
            ]
        ),
        (
            .spanish,
            [
                "Restauración completada: 1 compra", "Restauración completada: 2 compras",
                "Restauración completada: 3 compras", "Restauración completada: 11 compras",
            ]
        ),
        (
            .arabic,
            ["استُعيدت عملية شراء واحدة", "استُعيدت عمليتا شراء", "استُعيدت 3 عمليات شراء", "استُعيدت 11 عملية شراء"]
        ),
        (.simplifiedChinese, ["已恢复 1 项购买", "已恢复 2 项购买", "已恢复 3 项购买", "已恢复 11 项购买"]),
        (.japanese, ["1 件の購入を復元しました", "2 件の購入を復元しました", "3 件の購入を復元しました", "11 件の購入を復元しました"]),
    ])
    func aRestoreCountsItsPurchases(_ language: UILanguage, _ expected: [String]) {
        #expect([1, 2, 3, 11].map { restored($0, language) } == expected)
    }

    @Test func aRestoreOfNothingSaysSo() {
        #expect(restored(0, .english) == "Nothing to restore")
        #expect(restored(0, .arabic) == "لا شيء لاستعادته")
    }

    /// Periods go through the same forms: Arabic's dual is a word of its own.
    @Test func periodsAreCountedTheSameWay() {
        let arabic = [1, 2, 3, 11].map { CountedWords.length(SubscriptionPeriod(value: $0, unit: .month), .arabic) }
        #expect(arabic == ["شهر واحد", "شهران", "3 أشهر", "11 شهرًا"])
        let german = [1, 2, 3, 11].map { CountedWords.length(SubscriptionPeriod(value: $0, unit: .week), .german) }
        #expect(german == ["1 Woche", "2 Wochen", "3 Wochen", "11 Wochen"])
        #expect(CountedWords.length(SubscriptionPeriod(value: 3, unit: .month), .japanese) == "3か月")
        #expect(CountedWords.length(SubscriptionPeriod(value: 3, unit: .month), .simplifiedChinese) == "3 个月")
        #expect(CountedWords.length(SubscriptionPeriod(value: 2, unit: .month), .french) == "2 mois")
    }

    /// Every language has every counted noun, singular and plural apart where it inflects.
    @Test(arguments: UILanguage.allCases)
    func everyNounIsCountedInEveryLanguage(_ language: UILanguage) {
        for noun in CountedWords.Noun.allCases {
            let one = CountedWords.phrase(1, noun, language)
            let two = CountedWords.phrase(2, noun, language)
            #expect(!one.contains("{}") && !two.contains("{}"), "\(noun) in \(language)")
            #expect(CountedWords.phrase(11, noun, language).contains("11"), "\(noun) in \(language)")
        }
    }
}
