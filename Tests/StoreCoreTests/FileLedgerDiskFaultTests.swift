import Foundation
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import StoreCore

/// The file ledger on a failing disk (SystemIO's fake): the failure is a `LedgerError.io`
/// naming the file and the call, and nothing unacknowledged is reported as recorded.
@Suite struct FileLedgerDiskFaultTests {
    func coins(_ id: String) -> Transaction {
        Transaction(
            transactionID: id, productID: "coins", productType: .consumable,
            payment: Payment(productID: "coins", quantity: 1), state: .purchased,
            purchaseDate: Date(timeIntervalSince1970: 1))
    }

    @Test func aFullQuotaOrAFailedFsyncIsAnIOErrorNamingTheLedger() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("ledger.jsonl")
        let disk = FaultInjectingFileSystem()
        let ledger = try FileLedger(path: path, fileSystem: disk)
        #expect(try ledger.record(coins("1")))

        disk.fail(.write, with: .quotaExceeded)
        #expect(throws: LedgerError.io(path: path, reason: "pwrite: \(Errno.quotaExceeded)")) {
            try ledger.record(coins("2"))
        }
        #expect(try ledger.transactions().map(\.transactionID) == ["1"])

        disk.fail(.synchronize, with: .ioError)
        #expect(throws: LedgerError.io(path: path, reason: "fsync: \(Errno.ioError)")) { try ledger.record(coins("3")) }
        #expect(try ledger.record(coins("4")))
    }
}
