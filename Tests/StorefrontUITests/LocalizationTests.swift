import Foundation
import StoreCore
import TestSupport
import Testing

@testable import StorefrontUI

@Suite struct LocalizationTests {
    @Test(arguments: [UILanguage.japanese, .german, .french, .spanish, .arabic])
    func everyLanguageTranslatesTheSamePhrases(_ language: UILanguage) {
        let reference = Set(Strings.table(for: .simplifiedChinese).keys)
        let table = Set(Strings.table(for: language).keys)
        #expect(reference.subtracting(table).sorted() == [], "missing in \(language)")
        #expect(table.subtracting(reference).sorted() == [], "only in \(language)")
    }

    @Test func placeholdersAreFilledInOrder() {
        #expect(Strings(.english)("Storefront set to {} ({})", "JPN", "ja_JP") == "Storefront set to JPN (ja_JP)")
        #expect(Strings(.japanese)("Balance {}", "3") == "残高 3")
        #expect(Strings(.simplifiedChinese)("Balance {}", "3") == "余额 3")
    }

    @Test func localeChoosesTheLanguage() {
        #expect(UILanguage(locale: "ja_JP") == .japanese)
        #expect(UILanguage(locale: "zh_CN") == .simplifiedChinese)
        #expect(UILanguage(locale: "de_DE") == .german)
        #expect(UILanguage(locale: "pt_BR") == .english)
    }

    @Test func everyTranslatedPhraseHasItsPlaceholders() {
        for language in UILanguage.allCases {
            for (english, translated) in Strings.table(for: language) {
                #expect(
                    english.components(separatedBy: "{}").count == translated.components(separatedBy: "{}").count,
                    "\(language): \(english)")
            }
        }
    }

    /// Every phrase the interface's code passes to its strings by its English text is in the
    /// tables (a phrase with no entry would show in English in every language).
    @Test func everyPhraseTheInterfaceSaysIsTranslated() throws {
        let reference = Strings.table(for: .simplifiedChinese)
        let literal = try Regex(#"\b(?:strings|s)\("((?:[^"\\]|\\.)+)""#)
        var phrases: Set<String> = []
        for folder in ["Sources/StorefrontUI", "Sources/storefront/TUI"] {
            let root = Repository.url(folder)
            let files =
                FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            #expect(!files.isEmpty, "no sources under \(folder)")
            for file in files {
                let source = try String(contentsOf: file, encoding: .utf8)
                for match in source.matches(of: literal) {
                    let escaped = String(match.output[1].substring ?? "")
                    phrases.insert(
                        escaped.replacingOccurrences(of: #"\""#, with: "\"").replacingOccurrences(
                            of: #"\\"#, with: "\\"))
                }
            }
        }
        #expect(phrases.count > 100, "the scan found only \(phrases.count) phrases")
        #expect(phrases.filter { reference[$0] == nil }.sorted() == [])
    }
}
