import StoreCore

/// Lengths of time in each language, with their plurals: `1 month`, `3 Monate`, `شهران`.
enum PeriodWords {
    /// `count` units: `1 week`, `2 Wochen`, `3 semaines`, `2 週間`.
    static func length(_ count: Int, _ unit: SubscriptionPeriod.Unit, _ language: UILanguage) -> String {
        let n = count
        let one = n == 1
        switch language {
        case .english:
            let word = switch unit {
            case .day: "day"
            case .week: "week"
            case .month: "month"
            case .year: "year"
            }
            return "\(n) \(word)\(one ? "" : "s")"
        case .german:
            let word = switch unit {
            case .day: one ? "Tag" : "Tage"
            case .week: one ? "Woche" : "Wochen"
            case .month: one ? "Monat" : "Monate"
            case .year: one ? "Jahr" : "Jahre"
            }
            return "\(n) \(word)"
        case .french:
            let word = switch unit {
            case .day: one ? "jour" : "jours"
            case .week: one ? "semaine" : "semaines"
            case .month: "mois"
            case .year: one ? "an" : "ans"
            }
            return "\(n) \(word)"
        case .spanish:
            let word = switch unit {
            case .day: one ? "día" : "días"
            case .week: one ? "semana" : "semanas"
            case .month: one ? "mes" : "meses"
            case .year: one ? "año" : "años"
            }
            return "\(n) \(word)"
        case .arabic:
            return arabic(n, unit)
        case .simplifiedChinese:
            let word = switch unit {
            case .day: "天"
            case .week: "周"
            case .month: "个月"
            case .year: "年"
            }
            return "\(n) \(word)"
        case .japanese:
            let word = switch unit {
            case .day: "日"
            case .week: "週間"
            case .month: "か月"
            case .year: "年"
            }
            return "\(n)\(word)"
        }
    }

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
