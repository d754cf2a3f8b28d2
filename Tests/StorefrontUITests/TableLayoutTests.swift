import Testing

@testable import StorefrontUI

/// The one column layout every list shares: widths from content and room, and rows that
/// borrow free cells before anything is cut.
@Suite struct TableLayoutTests {
    let columns = [
        TableColumn(natural: 20, minimum: 8, priority: 0),
        TableColumn(natural: 6, priority: 1, alignment: .trailing),
        TableColumn(natural: 12, minimum: 0, priority: 2, flexible: true),
    ]

    @Test func roomyTablesGiveEveryColumnItsNaturalWidthAndTheRestToTheFlexibleOne() {
        let table = TableLayout(columns: columns, width: 60)
        #expect(table.widths == [20, 6, 30])
        #expect(table.offsets == [0, 22, 30])
    }

    @Test func narrowTablesShrinkTheLeastImportantFirstAndDropOptionalColumns() {
        #expect(TableLayout(columns: columns, width: 34).widths == [20, 6, 4])
        #expect(TableLayout(columns: columns, width: 28).widths == [18, 6, 0])
        let optional = [
            TableColumn(natural: 10, priority: 0), TableColumn(natural: 10, priority: 3, optional: true),
            TableColumn(natural: 5, priority: 1),
        ]
        #expect(TableLayout(columns: optional, width: 20).widths == [10, 0, 5])
    }

    @Test func aCellThatFitsSitsInItsColumnRightAlignedWhenAsked() {
        let placed = TableLayout(columns: columns, width: 60).place(["Coins", "$0.99", "Owned"])
        #expect(placed.map(\.x) == [0, 23, 30])
        #expect(placed.map(\.text) == ["Coins", "$0.99", "Owned"])
    }

    @Test func aLongCellBorrowsTheRowsFreeCellsBeforeBeingCut() {
        let table = TableLayout(columns: columns, width: 40)  // widths 20, 6, 10
        // 26 cells of name: the row's empty status gives its room; nothing is cut.
        let long = String(repeating: "n", count: 26)
        let placed = table.place([long, "$0.99", ""])
        #expect(placed[0].text == long && !placed[0].isCut)
        #expect(placed[1].x == 28 && placed[1].text == "$0.99")
        // With a status too, the status gives way first, then the name, never the price.
        let crowded = table.place([String(repeating: "n", count: 36), "$0.99", "Active until 2026-12-01"])
        #expect(crowded[2].width == 0)
        #expect(crowded[0].isCut && crowded[0].text.hasSuffix("…"))
        #expect(crowded[1].text == "$0.99")
        #expect(crowded[0].width + 2 + crowded[1].width == 40, "no free cell left when the name is cut")
    }
}
