import Foundation

/// The values one kind of setting takes: how people write them, which ones a picker offers,
/// and the one parser and formatter for them.
///
/// A setting's declaration (`SettingDefinition`) names one of these; the store's `set`, the
/// CLI's help, the TUI's Store Settings window and Docs/cli.md's table all read it from there.
public struct SettingValues<Value: Sendable>: Sendable {
    /// The placeholder in usage lines, e.g. `on|off`, `MILLISECONDS`, `off|on|ERROR`.
    public let synopsis: String
    /// What is accepted, in words, for error messages and Docs/cli.md: e.g. `on or off`.
    public let accepted: String
    /// The values a picker cycles through (the TUI's ← →), as `set` takes them.
    public let choices: [String]
    private let parser: @Sendable (String) -> Value?
    private let formatter: @Sendable (Value) -> String
    private let describer: @Sendable (Value) -> String

    /// Declares a kind of value.
    /// - Parameters:
    ///   - synopsis: the placeholder in usage lines.
    ///   - accepted: what is accepted, in words.
    ///   - choices: the values a picker offers.
    ///   - parse: text (trimmed of spaces) to a value; `nil` when it is not one.
    ///   - format: a value as `parse` reads it back.
    ///   - describe: a value as people read it in `store settings`; `format` by default.
    public init(
        synopsis: String, accepted: String, choices: [String], parse: @escaping @Sendable (String) -> Value?,
        format: @escaping @Sendable (Value) -> String, describe: (@Sendable (Value) -> String)? = nil
    ) {
        self.synopsis = synopsis
        self.accepted = accepted
        self.choices = choices
        parser = parse
        formatter = format
        describer = describe ?? format
    }

    /// The value `text` names (surrounding spaces ignored); `nil` when it names none.
    public func parse(_ text: String) -> Value? { parser(text.trimmingCharacters(in: .whitespaces)) }

    /// `value` as `parse` reads it back, e.g. `on`, `600`, `every-2-seconds`.
    public func format(_ value: Value) -> String { formatter(value) }

    /// `value` as `store settings` shows it, e.g. `every-2-seconds (1005)`.
    public func describe(_ value: Value) -> String { describer(value) }
}

extension SettingValues where Value == Bool {
    /// `on` or `off`, also `true`/`false`, `yes`/`no`, `1`/`0`, in any case: the one on/off
    /// parser (settings, and the CLI's `store billing-issue ID on|off`).
    public static var onOff: SettingValues<Bool> {
        SettingValues(
            synopsis: "on|off", accepted: "on or off", choices: ["off", "on"],
            parse: { text in
                switch text.lowercased() {
                case "on", "true", "yes", "1": true
                case "off", "false", "no", "0": false
                default: nil
                }
            },
            format: { $0 ? "on" : "off" })
    }
}

extension SettingValues where Value == Int {
    /// A whole number in `range`, e.g. milliseconds.
    /// - Parameters:
    ///   - range: the accepted numbers.
    ///   - placeholder: the usage placeholder, e.g. `MILLISECONDS`.
    ///   - accepted: what is accepted, in words.
    ///   - presets: the values a picker offers.
    public static func number(
        in range: ClosedRange<Int>, placeholder: String, accepted: String, presets: [Int]
    ) -> SettingValues<Int> {
        SettingValues(
            synopsis: placeholder, accepted: accepted, choices: presets.map(String.init),
            parse: { Int($0).flatMap { range.contains($0) ? $0 : nil } }, format: { String($0) })
    }

    /// A whole number of milliseconds in `range`: its placeholder and its words made from it.
    /// - Parameters:
    ///   - range: the accepted numbers.
    ///   - presets: the values a picker offers.
    public static func milliseconds(in range: ClosedRange<Int>, presets: [Int]) -> SettingValues<Int> {
        number(
            in: range, placeholder: "MILLISECONDS",
            accepted: "a whole number of milliseconds from \(range.lowerBound) to \(range.upperBound)", presets: presets
        )
    }

    /// A subscription time rate, kept as Apple's `SKTestTimeRate` raw value: written as the
    /// raw value (`15`) or its name (`monthly-every-30-seconds`), shown as both.
    public static var timeRate: SettingValues<Int> {
        SettingValues(
            synopsis: "RATE",
            accepted: "a raw SKTestTimeRate value or name: "
                + StoreTimeRate.all.map { "\($0.rawValue) \($0.name)" }.joined(separator: ", "),
            choices: StoreTimeRate.all.map(\.name),
            parse: { StoreTimeRate(parsing: $0)?.rawValue },
            format: { StoreTimeRate(rawValue: $0)?.name ?? String($0) },
            describe: { (StoreTimeRate(rawValue: $0) ?? .realTime).description })
    }
}

extension SettingValues where Value == Int? {
    /// `off`, or a percentage from 0 to 99 (`50` or `50%`).
    public static var percentOrOff: SettingValues<Int?> {
        SettingValues(
            synopsis: "PERCENT|off", accepted: "off or a percentage from 0 to 99", choices: ["off", "50", "90"],
            parse: { text -> Int?? in
                let digits = text.hasSuffix("%") ? String(text.dropLast()) : text
                if let percent = Int(digits) { return (0...99).contains(percent) ? .some(percent) : nil }
                return SettingValues<Bool>.onOff.parse(text) == false ? .some(nil) : nil
            },
            format: { $0.map(String.init) ?? "off" })
    }
}

extension SettingValues where Value == SimulatedError? {
    /// `off`, `on` (the error `on` names) or a `SimulatedError` name; a picker offers `off`
    /// and every error by name (as they read back).
    /// - Parameter on: the error `on` chooses.
    public static func simulatedError(on: SimulatedError) -> SettingValues<SimulatedError?> {
        let names = SimulatedError.all.map(\.rawValue)
        return SettingValues(
            synopsis: "off|on|ERROR", accepted: "off, on or an error name (\(names.joined(separator: ", ")))",
            choices: ["off"] + names,
            parse: { text -> SimulatedError?? in
                if let switched = SettingValues<Bool>.onOff.parse(text) { return .some(switched ? on : nil) }
                return SimulatedError.all.first { $0.rawValue == text.lowercased() }.map { .some($0) }
            },
            format: { $0?.rawValue ?? "off" })
    }
}

extension SettingValues where Value == String? {
    /// `off` (or `none`), or a text `parse` accepts, kept as written: the one form of the
    /// optional text settings (the shared secret, the notification URL).
    /// - Parameters:
    ///   - synopsis: the placeholder in usage lines, e.g. `URL|off`.
    ///   - accepted: what is accepted, in words.
    ///   - parse: the text as kept, or nil when it is not accepted.
    public static func textOrOff(
        synopsis: String, accepted: String, parse: @escaping @Sendable (String) -> String?
    ) -> SettingValues<String?> {
        SettingValues(
            synopsis: synopsis, accepted: accepted, choices: ["off"],
            parse: { text -> String?? in
                if ["off", "none"].contains(text.lowercased()) { return .some(nil) }
                return parse(text).map { .some($0) }
            },
            format: { $0 ?? "off" })
    }

    /// `off`, or a shared secret of 1 to 64 letters and digits (App Store Connect's are 32 hex
    /// digits), kept as written.
    public static var secretOrOff: SettingValues<String?> {
        textOrOff(
            synopsis: "SECRET|off",
            accepted: "off or 1 to 64 letters and digits (App Store Connect's are 32 hex digits)"
        ) {
            text in
            (1...64).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } ? text : nil
        }
    }
}
