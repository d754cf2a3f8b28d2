import Foundation
import Testing

@testable import LocalAppStore

/// The one registry of the local store's settings: every reader (the store, persistence, the
/// CLI, the TUI, Docs/cli.md) is made from these declarations, so they are checked here once.
@Suite struct SettingsRegistryTests {
    let registry = LocalStoreSettings.registry

    @Test func namesLabelsAndKeysAreDeclaredOnce() {
        #expect(Set(registry.map(\.name)).count == registry.count)
        #expect(Set(registry.map(\.label)).count == registry.count)
        #expect(Set(registry.map(\.key)).count == registry.count)
        #expect(registry.allSatisfy { $0.name.allSatisfy { $0.isLowercase || $0 == "-" } })
    }

    /// Every value a picker offers is one `set` accepts, and reads back as itself.
    @Test func everyChoiceIsAValueTheSettingAccepts() throws {
        for setting in registry {
            for choice in setting.choices {
                var settings = LocalStoreSettings()
                try settings.set(name: setting.name, value: choice)
                let row = try #require(settings.entries.first { $0.name == setting.name })
                #expect(row.value == choice, "\(setting.name) \(choice)")
                #expect(row.choices == setting.choices, "the current value is among the choices")
            }
        }
    }

    @Test func aValueOutsideTheChoicesJoinsThem() throws {
        var settings = LocalStoreSettings()
        try settings.set(name: "latency", value: "700")
        let row = try #require(settings.entries.first { $0.name == "latency" })
        #expect(row.value == "700")
        #expect(row.choices == ["700"] + LocalStoreSettings.definition(named: "latency")!.choices)
    }

    /// Every default is among its setting's choices, so the Store Settings window's ← → can
    /// always come back to it (QA: the default latency of 600 ms and bandwidth of 1.5 MB/s
    /// were gone once changed).
    @Test func everyDefaultIsAChoice() {
        for entry in LocalStoreSettings().entries {
            let declared = LocalStoreSettings.definition(named: entry.name)?.choices ?? []
            #expect(declared.contains(entry.value), "\(entry.name): \(entry.value) is not among \(declared)")
        }
    }

    /// The one on/off parser: the same words for every switch, in any case, with spaces around.
    @Test(arguments: [
        ("on", true), ("ON", true), (" yes ", true), ("true", true), ("1", true),
        ("off", false), ("Off", false), ("no", false), ("false", false), ("0", false),
    ])
    func onOffWords(_ text: String, _ on: Bool) throws {
        #expect(SettingValues.onOff.parse(text) == on)
        var settings = LocalStoreSettings()
        try settings.set(name: "ask-to-buy", value: text)
        #expect(settings.askToBuy == on)
        try settings.set(name: "fail-restore", value: text)
        #expect(settings.failRestore == (on ? .network : nil))
    }

    @Test(arguments: ["", "maybe", "2", "onn", "o n"])
    func notOnOff(_ text: String) {
        #expect(SettingValues.onOff.parse(text) == nil)
    }

    @Test func percentagesAreNumbersFirstAndOffWordsSecond() throws {
        var settings = LocalStoreSettings()
        try settings.set(name: "fail-downloads-at", value: "0")
        #expect(settings.failDownloadsAtPercent == 0, "0 is a percentage here, not off")
        try settings.set(name: "fail-downloads-at", value: "50%")
        #expect(settings.failDownloadsAtPercent == 50)
        try settings.set(name: "fail-downloads-at", value: "no")
        #expect(settings.failDownloadsAtPercent == nil)
        #expect(
            throws: LocalAppStoreError.invalidSettingValue(
                name: "fail-downloads-at", value: "on", accepted: "off or a percentage from 0 to 99")
        ) {
            try settings.set(name: "fail-downloads-at", value: "on")
        }
        #expect(throws: LocalAppStoreError.self) { try settings.set(name: "fail-downloads-at", value: "100") }
    }

    /// The time rate is set and picked by name, shown with its raw value, stored raw.
    @Test func theTimeRateIsOneValueWithTwoSpellings() throws {
        var settings = LocalStoreSettings()
        try settings.set(name: "time-rate", value: "1005")
        let row = try #require(settings.entries.first { $0.name == "time-rate" })
        #expect(row.value == "every-2-seconds")
        #expect(row.shownValue == "every-2-seconds (1005)")
        #expect(settings.timeRate == 1005)
        try settings.set(name: "time-rate", value: row.value)
        #expect(settings.timeRate == 1005)
    }

    /// Persistence is made from the declarations and keeps the keys older versions wrote, so a
    /// journal written before the registry reads the same, and older versions read ours.
    @Test func persistedKeysAreThoseOlderVersionsWrote() throws {
        let old = #"""
            {"latencyMilliseconds":250,"askToBuy":true,"paymentsAllowed":false,"interruptPurchases":true,
             "failPurchases":"network","failLoadProducts":"system","failRestore":"cancelled","failRefreshReceipt":"invalid",
             "bandwidthBytesPerSecond":0,"failDownloadsAtPercent":40,"timeRate":15,"billingRetryOnRenewal":true,"gracePeriod":true}
            """#
        let decoded = try JSONDecoder().decode(LocalStoreSettings.self, from: Data(old.utf8))
        var expected = LocalStoreSettings(
            latencyMilliseconds: 250, askToBuy: true, paymentsAllowed: false, interruptPurchases: true,
            failPurchases: .network, failLoadProducts: .system, failRestore: .cancelled, failRefreshReceipt: .invalid)
        expected.bandwidthBytesPerSecond = 0
        expected.failDownloadsAtPercent = 40
        expected.timeRate = 15
        expected.billingRetryOnRenewal = true
        expected.gracePeriod = true
        #expect(decoded == expected)

        let written = try JSONSerialization.jsonObject(with: JSONEncoder().encode(expected)) as? [String: Any]
        #expect(Set(written?.keys ?? [:].keys) == Set(registry.map(\.key)))
        #expect(
            Set(registry.map(\.key)) == [
                "latencyMilliseconds", "askToBuy", "paymentsAllowed", "interruptPurchases",
                "failPurchases", "failLoadProducts", "failRestore", "failRefreshReceipt", "bandwidthBytesPerSecond",
                "failDownloadsAtPercent", "timeRate", "billingRetryOnRenewal", "gracePeriod",
                "environment", "appAppleID", "serverURL", "sharedSecret", "notificationURL", "notificationRetries",
                "notificationTimeoutMilliseconds", "retentionReview", "realtimeTimeoutMilliseconds",
            ])
        #expect(try JSONDecoder().decode(LocalStoreSettings.self, from: JSONEncoder().encode(expected)) == expected)
        #expect(
            try JSONDecoder().decode(LocalStoreSettings.self, from: JSONEncoder().encode(LocalStoreSettings()))
                == LocalStoreSettings())
    }

    @Test func anEmptyRecordIsTheDefaults() throws {
        #expect(try JSONDecoder().decode(LocalStoreSettings.self, from: Data("{}".utf8)) == LocalStoreSettings())
    }
}
