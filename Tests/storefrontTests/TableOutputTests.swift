import Foundation
import Testing

@testable import storefront

/// The history listing's output pieces made cheap (issue 13) print what they printed: dates as
/// Foundation's ISO 8601 style formats them, tables as `TextLayout` lays them out.
@Suite struct TableOutputTests {
    static func foundation(_ date: Date) -> String {
        date.formatted(
            .iso8601.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(
                .colon
            ).timeZone(separator: .omitted))
    }

    @Test func datesAreFormattedAsFoundationFormatsThem() {
        var dates = [
            0, 0.5, 59.999, 86_399.9985, 951_782_400, 951_868_799, 4_107_542_400, 253_402_300_799, 1_795_000_000.437,
        ]
        .map { Date(timeIntervalSince1970: $0) }
        dates += [-1, -0.25, 253_402_300_800, 1_700_000_000.9995, .nan].map { Date(timeIntervalSince1970: $0) }
        var state: UInt64 = 13
        for _ in 0..<5_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let seconds = Double(state >> 11) / Double(1 << 53) * 4_102_444_800
            dates.append(Date(timeIntervalSince1970: seconds))
            dates.append(Date(timeIntervalSince1970: seconds.rounded(.down)))
        }
        var direct = 0
        for date in dates where !date.timeIntervalSince1970.isNaN {
            #expect(TransactionOutput.date(date) == Self.foundation(date), "\(date.timeIntervalSince1970)")
            if TransactionOutput.utcSeconds(date) != nil { direct += 1 }
        }
        #expect(direct > 9_000, "the direct path formatted \(direct) dates")
        #expect(TransactionOutput.utcSeconds(Date(timeIntervalSince1970: -1)) == nil)
    }

    @Test func asciiAndWideLinesOfOneTableLineUp() {
        let table = TextTable(
            columns: [
                .init(header: "ID"), .init(header: "PRODUCT", maximumWidth: 8), .init(header: "QTY", alignment: .right),
                .init(header: "NOTE"),
            ],
            rows: [
                ["1", "coins", "10", ""],
                ["22", "a-very-long-product", "1", "x"],
                ["333", "コイン100枚", "7", ""],
                ["4", "e\u{301}clair", "", "  "],
                ["5"],
            ])
        #expect(
            table.render() == [
                "ID   PRODUCT   QTY  NOTE",
                "───  ────────  ───  ────",
                "1    coins      10",
                "22   a-very-…    1  x",
                "333  コイン1…    7",
                "4    e\u{301}clair",
                "5",
            ])
    }
}
