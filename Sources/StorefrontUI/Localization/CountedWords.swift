import StoreKitValues

/// Counted things in each language, with their plurals: `1 month`, `3 Monate`, `شهران`,
/// `2 purchases`. A sentence takes the whole phrase (`Restored {}`), so each language words it
/// with nothing else that agrees with the count.
enum CountedWords {
    /// What the interface counts.
    enum Noun: CaseIterable {
        case day, week, month, year, purchase, download

        /// The noun for a subscription period's unit.
        init(_ unit: SubscriptionPeriod.Unit) {
            self =
                switch unit {
                case .day: .day
                case .week: .week
                case .month: .month
                case .year: .year
                }
        }
    }

    /// `count` of `noun`: `1 week`, `2 Wochen`, `3 semaines`, `2週間`, `عمليتا شراء`.
    ///
    /// The counts are told apart as Arabic tells them, the most any of the seven languages
    /// does: one and two in words, 3–10 with the plural, 11 and more with the accusative
    /// singular (CLDR's finer Arabic rules, for 0 and by the last two digits past 100, are not
    /// made). The other languages repeat their plural, or their one form, for two and few.
    static func phrase(_ count: Int, _ noun: Noun, _ language: UILanguage) -> String {
        let forms = words(language)[noun]
        let form =
            switch count {
            case 1: forms.one
            case 2: forms.two
            case 3...10: forms.few
            default: forms.other
            }
        return Strings.fill(form, [String(count)])
    }

    /// `period`'s whole length: `1 month`.
    static func length(_ period: SubscriptionPeriod, _ language: UILanguage) -> String {
        phrase(period.value, Noun(period.unit), language)
    }

    /// One noun's forms: templates where `{}` is the count (Arabic's one and two say it in words).
    private struct Forms {
        let one, two, few, other: String

        /// A language with a singular and a plural (or one form for every count).
        init(_ one: String, _ other: String? = nil) {
            self.one = one
            self.other = other ?? one
            two = self.other
            few = self.other
        }

        /// Arabic's four forms.
        init(one: String, two: String, few: String, other: String) {
            (self.one, self.two, self.few, self.other) = (one, two, few, other)
        }
    }

    /// Every counted noun of one language.
    private struct Words {
        let day, week, month, year, purchase, download: Forms

        subscript(noun: Noun) -> Forms {
            switch noun {
            case .day: day
            case .week: week
            case .month: month
            case .year: year
            case .purchase: purchase
            case .download: download
            }
        }
    }

    /// A language's counted nouns (Arabic's in the nominative, as their sentences' subjects).
    private static func words(_ language: UILanguage) -> Words {
        switch language {
        case .english:
            Words(
                day: Forms("{} day", "{} days"), week: Forms("{} week", "{} weeks"),
                month: Forms("{} month", "{} months"),
                year: Forms("{} year", "{} years"), purchase: Forms("{} purchase", "{} purchases"),
                download: Forms("{} download", "{} downloads"))
        case .german:
            Words(
                day: Forms("{} Tag", "{} Tage"), week: Forms("{} Woche", "{} Wochen"),
                month: Forms("{} Monat", "{} Monate"),
                year: Forms("{} Jahr", "{} Jahre"), purchase: Forms("{} Kauf", "{} Käufe"),
                download: Forms("{} Download", "{} Downloads"))
        case .french:
            Words(
                day: Forms("{} jour", "{} jours"), week: Forms("{} semaine", "{} semaines"), month: Forms("{} mois"),
                year: Forms("{} an", "{} ans"), purchase: Forms("{} achat", "{} achats"),
                download: Forms("{} téléchargement", "{} téléchargements"))
        case .spanish:
            Words(
                day: Forms("{} día", "{} días"), week: Forms("{} semana", "{} semanas"),
                month: Forms("{} mes", "{} meses"),
                year: Forms("{} año", "{} años"), purchase: Forms("{} compra", "{} compras"),
                download: Forms("{} descarga", "{} descargas"))
        case .simplifiedChinese:
            Words(
                day: Forms("{} 天"), week: Forms("{} 周"), month: Forms("{} 个月"), year: Forms("{} 年"),
                purchase: Forms("{} 项购买"), download: Forms("{} 个下载"))
        case .japanese:
            Words(
                day: Forms("{}日"), week: Forms("{}週間"), month: Forms("{}か月"), year: Forms("{}年"),
                purchase: Forms("{} 件の購入"), download: Forms("{} 件のダウンロード"))
        case .arabic:
            Words(
                day: Forms(one: "يوم واحد", two: "يومان", few: "{} أيام", other: "{} يومًا"),
                week: Forms(one: "أسبوع واحد", two: "أسبوعان", few: "{} أسابيع", other: "{} أسبوعًا"),
                month: Forms(one: "شهر واحد", two: "شهران", few: "{} أشهر", other: "{} شهرًا"),
                year: Forms(one: "سنة واحدة", two: "سنتان", few: "{} سنوات", other: "{} سنة"),
                purchase: Forms(
                    one: "عملية شراء واحدة", two: "عمليتا شراء", few: "{} عمليات شراء", other: "{} عملية شراء"),
                download: Forms(one: "تنزيل واحد", two: "تنزيلان", few: "{} تنزيلات", other: "{} تنزيلًا"))
        }
    }
}
