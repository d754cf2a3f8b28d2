import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// Store Settings' ← and →: → goes to the next higher choice and ← to the next lower, numbers
/// by value (from a value that is no preset too, as a default may be), words in their order.
@Suite struct SettingsWindowTests {
    static func row(_ name: String, _ value: String, _ choices: [String], _ unit: SettingRow.Unit = .none) -> SettingRow
    {
        SettingRow(name: name, label: name, value: value, choices: choices, unit: unit)
    }

    /// QA: → on Latency 600 ms gave 0 ms and ← gave 3000 ms; → on 1.5 MB/s gave Unlimited.
    @Test func aValueThatIsNoPresetStepsToItsNeighbours() {
        // As the store lists them: the current value first when it is no preset.
        let latency = Self.row("latency", "600", ["600", "0", "250", "1000", "3000"], .milliseconds)
        #expect(latency.cycled(by: 1) == "1000")
        #expect(latency.cycled(by: -1) == "250")
        let bandwidth = Self.row(
            "bandwidth", "1500000", ["1500000", "0", "250000", "1000000", "5000000"], .bytesPerSecond)
        #expect(bandwidth.cycled(by: 1) == "5000000")
        #expect(bandwidth.cycled(by: -1) == "1000000")
        // Not among the choices at all.
        let bare = Self.row("latency", "600", ["0", "250", "1000", "3000"], .milliseconds)
        #expect(bare.cycled(by: 1) == "1000")
        #expect(bare.cycled(by: -1) == "250")
    }

    @Test func numbersStepByValueWhateverOrderThePresetsAreIn() {
        let timeout = Self.row("notification-timeout", "5000", ["5000", "1000", "250", "30000"], .milliseconds)
        #expect(timeout.cycled(by: 1) == "30000")
        #expect(timeout.cycled(by: -1) == "1000")
        #expect(
            Self.row("notification-timeout", "30000", timeout.choices, .milliseconds).cycled(by: 1) == "250",
            "past the top: the bottom")
    }

    /// A bandwidth of 0 is unlimited: the fastest, so it comes after the largest number.
    @Test func unlimitedBandwidthIsTheHighest() {
        let choices = ["0", "250000", "1000000", "5000000"]
        #expect(Self.row("bandwidth", "5000000", choices, .bytesPerSecond).cycled(by: 1) == "0")
        #expect(Self.row("bandwidth", "0", choices, .bytesPerSecond).cycled(by: -1) == "5000000")
    }

    @Test func offComesBeforeEveryPercentage() {
        let failAt = Self.row("fail-downloads-at", "30", ["30", "off", "50", "90"])
        #expect(failAt.cycled(by: 1) == "50")
        #expect(failAt.cycled(by: -1) == "off")
    }

    @Test func wordsKeepTheirOrderAndWrapAround() {
        let toggle = Self.row("ask-to-buy", "off", ["off", "on"])
        #expect(toggle.cycled(by: 1) == "on")
        #expect(toggle.cycled(by: -1) == "on")
        let rate = Self.row("time-rate", "real-time", ["real-time", "monthly-every-hour", "every-2-seconds"])
        #expect(rate.cycled(by: 1) == "monthly-every-hour")
        #expect(rate.cycled(by: -1) == "every-2-seconds")
    }

    /// A value that is none of the words starts at an end; a row without choices keeps its value.
    @Test func aWordThatIsNoChoiceStepsToAnEnd() {
        let rate = Self.row("time-rate", "yearly-every-day", ["real-time", "monthly-every-hour", "every-2-seconds"])
        #expect(rate.cycled(by: 1) == "real-time")
        #expect(rate.cycled(by: -1) == "every-2-seconds")
        let mixed = Self.row("fail-purchases-with", "off", ["off", "networkError", "paymentCancelled"])
        #expect(mixed.cycled(by: 1) == "networkError", "a word among the choices: their order")
        #expect(mixed.cycled(by: -1) == "paymentCancelled")
        #expect(Self.row("latency", "600", [], .milliseconds).cycled(by: 1) == "600")
    }

    @Test func theWindowsRightArrowAsksForTheNextHigherValue() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("o")))
        send(
            &state,
            .settings(
                .loaded(.success([Self.row("latency", "600", ["600", "0", "250", "1000", "3000"], .milliseconds)]))))
        #expect(send(&state, .key(.right)) == [.setSetting(name: "latency", value: "1000")])
        #expect(render(state).lines.contains { $0.contains("latency") && $0.contains("1000 ms") })
    }
}
