import Foundation
import StoreKitValues
import Testing

@Suite struct SubscriptionPeriodTests {
    @Test(arguments: [
        ("P3D", 3, SubscriptionPeriod.Unit.day), ("P1W", 1, .week), ("P2W", 2, .week), ("P1M", 1, .month),
        ("P2M", 2, .month), ("P3M", 3, .month), ("P6M", 6, .month), ("P1Y", 1, .year), ("P14D", 14, .day),
    ])
    func parsesXcodePeriods(_ text: String, _ value: Int, _ unit: SubscriptionPeriod.Unit) {
        let period = SubscriptionPeriod(iso8601: text)
        #expect(period == SubscriptionPeriod(value: value, unit: unit))
        #expect(period?.iso8601 == text)
        #expect(period?.description == text)
    }

    @Test(arguments: [
        "", "P", "PD", "P0D", "P1", "1D", "P1H", "PT1M", "P1Y1M", "P 1D", "P99999D", "Ｐ1D", "P١D", "P+1M", "P-1M",
        "p1M",
    ])
    func rejectsOthers(_ text: String) {
        #expect(SubscriptionPeriod(iso8601: text) == nil)
    }

    @Test func unitsAreStoredByName() throws {
        let data = try JSONEncoder().encode(SubscriptionPeriod(value: 3, unit: .month))
        #expect(String(decoding: data, as: UTF8.self).contains(#""unit":"month""#))
        #expect(
            try JSONDecoder().decode(SubscriptionPeriod.self, from: data) == SubscriptionPeriod(value: 3, unit: .month))
    }

    @Test func advancesByTheGregorianCalendarInUTC() throws {
        let january31 = try Date("2025-01-31T12:00:00Z", strategy: .iso8601)
        #expect(
            SubscriptionPeriod(value: 1, unit: .month).advance(january31)
                == (try Date("2025-02-28T12:00:00Z", strategy: .iso8601)))
        #expect(
            SubscriptionPeriod(value: 2, unit: .week).advance(january31, by: 2)
                == january31.addingTimeInterval(28 * 86_400))
        #expect(
            SubscriptionPeriod(value: 1, unit: .year).advance(january31)
                == (try Date("2026-01-31T12:00:00Z", strategy: .iso8601)))
    }
}
