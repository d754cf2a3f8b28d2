import Foundation
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// Issue 18: the receipt, the signing chain (`Certificates/`), the device identifier and the app
/// downloads (`AppTransactions/`) are written through the store's file layer like the journal,
/// so the fault injection and the power-loss recorder see them: a directory that refuses writes
/// makes each one fail naming it, and once it heals they are made (by link, so the first of
/// several processes wins) and read back through the same layer.
@Suite struct ReceiptFilesTests {
    @Test func theChainDeviceIDAppDownloadAndReceiptGoThroughTheFileLayer() async throws {
        let dir = try TemporaryDirectory()
        let disk = FaultInjectingFileSystem()
        let store = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: TestCatalog.load(), stateDirectory: dir.stateDirectory, clock: ManualClock(),
                initialLatencyMilliseconds: 0
            ).keeping(through: disk))
        let state = dir.stateDirectory.path
        for name in ["device-id", "AppTransactions", "Certificates"] {
            disk.denyWrites(under: state + "/" + name)
            let error = await #expect(throws: (any Error).self, "\(name) refused") {
                _ = try await store.receipts.receiptIssuer()
            }
            #expect(
                "\(error.map { "\($0)" } ?? "")".contains(state + "/" + name), "\(name): \(String(describing: error))")
            disk.heal()
        }
        _ = try await store.receipts.receiptIssuer()
        // The device identifier and the account's app download were each linked into place.
        #expect(disk.calls(of: .link) >= 2)
        #expect(FileManager.default.fileExists(atPath: state + "/Certificates/root.cer"))

        disk.denyWrites(under: state + "/receipt")
        await #expect(throws: (any Error).self) { _ = try await store.receipts.writeAppReceipt() }
        #expect(store.receipts.storedAppReceipt() == nil)
        disk.heal()
        let receipt = try await store.receipts.writeAppReceipt()
        #expect(store.receipts.storedAppReceipt() == receipt)
        // Nothing temporary is left beside what was made.
        let names =
            try FileManager.default.contentsOfDirectory(atPath: state)
            + FileManager.default.contentsOfDirectory(atPath: state + "/AppTransactions")
        #expect(!names.contains { $0.hasSuffix(".tmp") || $0.contains(".tmp-") }, "\(names)")
    }
}
