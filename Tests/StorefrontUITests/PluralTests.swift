import Foundation
import StoreCore
import Testing
@testable import StorefrontUI

/// Counts agree with their nouns in every language that makes the difference (Chinese and
/// Japanese do not).
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
        send(&state, .restoreFinished(.success(restored)))
        return state.message?.text ?? ""
    }

    /// QA: "1 downloads are under way. Quit anyway?"
    @Test(arguments: [
        (UILanguage.english, "1 download is under way. Quit anyway? It carries on at the next launch."),
        (.german, "1 Download läuft noch. Trotzdem beenden? Er wird beim nächsten Start fortgesetzt."),
        (.french, "1 téléchargement est en cours. Quitter quand même ? Il reprendra au prochain lancement."),
        (.spanish, "Hay 1 descarga en curso. ¿Salir de todos modos? Seguirá en el próximo inicio."),
        (.arabic, "هناك تنزيل واحد قيد التنفيذ. هل تريد الإنهاء رغم ذلك؟ سيُستأنف عند التشغيل التالي."),
    ])
    func oneDownloadIsSingular(_ language: UILanguage, _ expected: String) {
        #expect(quitQuestion(1, language) == expected)
    }

    @Test func twoDownloadsArePlural() {
        #expect(quitQuestion(2, .english) == "2 downloads are under way. Quit anyway? They carry on at the next launch.")
        #expect(quitQuestion(2, .german) == "2 Downloads laufen noch. Trotzdem beenden? Sie werden beim nächsten Start fortgesetzt.")
    }

    @Test(arguments: [
        (UILanguage.english, "Restored 1 purchase"), (.german, "1 Kauf wiederhergestellt"), (.french, "1 achat restauré"),
        (.spanish, "1 compra restaurada"), (.arabic, "تمت استعادة عملية شراء واحدة"),
    ])
    func oneRestoredPurchaseIsSingular(_ language: UILanguage, _ expected: String) {
        #expect(restored(1, language) == expected)
        #expect(restored(2, language) != expected.replacingOccurrences(of: "1", with: "2"), "two is not one")
    }
}
