import StoreCore

/// `storefront history`'s table (`TransactionOutput.table`'s columns) laid out straight from
/// the summaries as bytes, in two passes (the columns' widths, then the lines), with no cell
/// strings, row arrays or line strings made: a long history prints 100,000 rows (issue 13).
///
/// It takes the table `TextTable` lays out one byte a column: every cell printable ASCII, no
/// product ID beyond its column's maximum, every date in `TransactionOutput.utcSeconds`'
/// range. For anything else it writes nothing and says so, and the caller lays the table out
/// through `TransactionOutput.table`, as it always did; the lines are the same bytes either way.
enum HistoryTable {
    private static let headers = ["TRANSACTION", "ORIGINAL", "PRODUCT", "QTY", "DATE", "STATE"]
    /// The column a table with a monthly payment of a 12-month commitment has, after the others.
    private static let commitmentHeader = "COMMITMENT"
    /// `TransactionOutput.table`'s product column's maximum width.
    private static let productMaximum = 44
    private static let dateWidth = 20

    /// Hands the table's lines (UTF-8, no newline, from one reused buffer) to `line`: the
    /// delivered transactions with their state (or "refunded"), then the pending ones.
    /// - Returns: `false`, with nothing handed over, when the table is outside what it lays out.
    static func write(
        _ delivered: [TransactionSummary], pending: [TransactionSummary], line: (UnsafeRawBufferPointer) -> Void
    ) -> Bool {
        let committed =
            delivered.contains { $0.commitmentInfo != nil } || pending.contains { $0.commitmentInfo != nil }
        let headers = Self.headers + (committed ? [Self.commitmentHeader] : [])
        var widths = headers.map(\.utf8.count)
        func measure(_ t: TransactionSummary, _ state: String) -> Bool {
            guard let transaction = plainWidth(t.transactionID), let original = plainWidth(t.originalTransactionID),
                let product = plainWidth(t.productID), product <= productMaximum, let stateWidth = plainWidth(state),
                withUnsafeTemporaryAllocation(
                    of: UInt8.self, capacity: dateWidth, { TransactionOutput.utcSeconds(t.purchaseDate, into: $0) })
            else { return false }
            widths[0] = max(widths[0], transaction)
            widths[1] = max(widths[1], original)
            widths[2] = max(widths[2], product)
            widths[3] = max(widths[3], String(t.quantity).utf8.count)
            widths[4] = max(widths[4], dateWidth)
            widths[5] = max(widths[5], stateWidth)
            if let commitment = t.commitmentInfo {
                widths[6] = max(widths[6], TransactionOutput.commitment(commitment).utf8.count)
            }
            return true
        }
        // By index: each summary is read where it lies, not copied out (retaining its strings).
        for i in delivered.indices {
            guard measure(delivered[i], TransactionOutput.state(of: delivered[i])) else { return false }
        }
        for i in pending.indices { guard measure(pending[i], "pending") else { return false } }

        var bytes: [UInt8] = []
        bytes.reserveCapacity(widths.reduce(0, +) + 2 * widths.count)
        func cell(_ index: Int, _ text: String) {
            if index > 0 {
                bytes.append(0x20)
                bytes.append(0x20)
            }
            let fill = widths[index] - text.utf8.count
            if index == 3 { bytes.append(contentsOf: repeatElement(0x20, count: fill)) }
            bytes.append(contentsOf: text.utf8)
            if index != 3 { bytes.append(contentsOf: repeatElement(0x20, count: fill)) }
        }
        func end() {
            while bytes.last == 0x20 { bytes.removeLast() }
            bytes.withUnsafeBytes(line)
            bytes.removeAll(keepingCapacity: true)
        }
        for (index, header) in headers.enumerated() { cell(index, header) }
        end()
        var rule = widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")
        rule.withUTF8 { line(UnsafeRawBufferPointer($0)) }
        func row(_ t: TransactionSummary, _ state: String) {
            cell(0, t.transactionID)
            cell(1, t.originalTransactionID)
            cell(2, t.productID)
            cell(3, String(t.quantity))
            bytes.append(0x20)
            bytes.append(0x20)
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0x20, count: widths[4]))
            bytes.withUnsafeMutableBufferPointer { all in
                _ = TransactionOutput.utcSeconds(
                    t.purchaseDate, into: UnsafeMutableBufferPointer(rebasing: all[start..<(start + dateWidth)]))
            }
            cell(5, state)
            if committed { cell(6, t.commitmentInfo.map(TransactionOutput.commitment) ?? "") }
            end()
        }
        for i in delivered.indices { row(delivered[i], TransactionOutput.state(of: delivered[i])) }
        for i in pending.indices { row(pending[i], "pending") }
        return true
    }

    /// The width of a printable ASCII cell (one column a byte), `nil` for any other.
    private static func plainWidth(_ text: String) -> Int? {
        func plain(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? bytes.count : nil
        }
        // A native string's own bytes, read in place; any other is copied to contiguous UTF-8.
        if let width = text.utf8.withContiguousStorageIfAvailable(plain) { return width }
        var text = text
        return text.withUTF8(plain)
    }
}
