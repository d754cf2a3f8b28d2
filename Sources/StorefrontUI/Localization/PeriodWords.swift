import StoreCore

/// Lengths of time in each language, with their plurals: `1 month`, `3 Monate`, `شهران`.
enum PeriodWords {
    /// `count` units: `1 week`, `2 Wochen`, `3 semaines`, `2 週間`.
    static func length(_ count: Int, _ unit: SubscriptionPeriod.Unit, _ language: UILanguage) -> String {
        guard let words = unitWords[language] else { return arabic(count, unit) }
        let (one, other) = switch unit {
        case .day: words.day
        case .week: words.week
        case .month: words.month
        case .year: words.year
        }
        let word = count == 1 ? one : other
        return language == .japanese ? "\(count)\(word)" : "\(count) \(word)"
    }

    /// A language's word for each unit, singular and plural (the same where it has no plural).
    private struct UnitWords {
        let day, week, month, year: (String, String)
    }

    /// Every language but Arabic, whose counts take four forms (`arabic(_:_:)`).
    private static let unitWords: [UILanguage: UnitWords] = [
        .english: UnitWords(day: ("day", "days"), week: ("week", "weeks"), month: ("month", "months"), year: ("year", "years")),
        .german: UnitWords(day: ("Tag", "Tage"), week: ("Woche", "Wochen"), month: ("Monat", "Monate"), year: ("Jahr", "Jahre")),
        .french: UnitWords(day: ("jour", "jours"), week: ("semaine", "semaines"), month: ("mois", "mois"), year: ("an", "ans")),
        .spanish: UnitWords(day: ("día", "días"), week: ("semana", "semanas"), month: ("mes", "meses"), year: ("año", "años")),
        .simplifiedChinese: UnitWords(day: ("天", "天"), week: ("周", "周"), month: ("个月", "个月"), year: ("年", "年")),
        .japanese: UnitWords(day: ("日", "日"), week: ("週間", "週間"), month: ("か月", "か月"), year: ("年", "年")),
    ]

    /// `period`'s whole length: `1 month`.
    static func length(_ period: SubscriptionPeriod, _ language: UILanguage) -> String {
        length(period.value, period.unit, language)
    }

    /// Arabic counts: the singular with "one", the dual, 3–10 with the plural, 11 and more
    /// with the accusative singular.
    private static func arabic(_ n: Int, _ unit: SubscriptionPeriod.Unit) -> String {
        let (single, dual, plural, accusative) = switch unit {
        case .day: ("يوم واحد", "يومان", "أيام", "يومًا")
        case .week: ("أسبوع واحد", "أسبوعان", "أسابيع", "أسبوعًا")
        case .month: ("شهر واحد", "شهران", "أشهر", "شهرًا")
        case .year: ("سنة واحدة", "سنتان", "سنوات", "سنة")
        }
        switch n {
        case 1: return single
        case 2: return dual
        case 3...10: return "\(n) \(plural)"
        default: return "\(n) \(accusative)"
        }
    }
}
