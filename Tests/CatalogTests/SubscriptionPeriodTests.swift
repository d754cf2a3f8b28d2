import Testing
@testable import Catalog

@Suite struct SubscriptionPeriodTests {
    @Test(arguments: [("P3D", 3, SubscriptionPeriod.Unit.day), ("P1W", 1, .week), ("P2W", 2, .week), ("P1M", 1, .month),
                      ("P2M", 2, .month), ("P3M", 3, .month), ("P6M", 6, .month), ("P1Y", 1, .year), ("P14D", 14, .day)])
    func parsesXcodePeriods(_ text: String, _ value: Int, _ unit: SubscriptionPeriod.Unit) {
        let period = SubscriptionPeriod(iso8601: text)
        #expect(period == SubscriptionPeriod(value: value, unit: unit))
        #expect(period?.iso8601 == text)
        #expect(period?.description == text)
    }

    @Test(arguments: ["", "P", "PD", "P0D", "P1", "1D", "P1H", "PT1M", "P1Y1M", "P 1D", "P99999D", "Ｐ1D", "P١D"])
    func rejectsOthers(_ text: String) {
        #expect(SubscriptionPeriod(iso8601: text) == nil)
    }
}
