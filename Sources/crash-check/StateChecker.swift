import Catalog
import Crypto
import Foundation
import LocalAppStore
import StoreCore
import StoreTesting
import SystemIO
import TestSupport

/// Opens one crash state twice, as two successive runs of the app, and reports what each saw.
///
/// A run opens the local App Store and the engine over the vault exactly as `storefront` does
/// (`VaultLedger.open` with the key file beside it), starts the engine (purchases left
/// unfinished are delivered), settles what the store still owes (purchases a dead process left
/// charging, downloads to resume or restart), then reads the store, its notification outbox,
/// the ledger, the downloads and the installed content. The clock is a manual one at the recording's last moment, so no
/// renewal falls due that the recording did not see.
struct StateChecker {
    let catalog: StoreKitConfiguration
    let now: Date

    /// Checks the data directory `directory`.
    func check(_ directory: URL) async -> CrashCheckReport {
        var report = CrashCheckReport(state: directory.path)
        let owners = directory.appendingPathComponent("store/owners").path
        report.leasesBefore = ((try? FileManager.default.contentsOfDirectory(atPath: owners)) ?? []).sorted()
        let released = Released()
        let first: CrashCheckReport.RunFacts
        switch await openAndRecover(directory, released: released) {
        case .failure(let failure):
            report.storeError = failure.store
            report.vaultError = failure.vault
            report.integrityError = failure.integrity
            return report
        case .success(let facts):
            first = facts
        }
        report.first = first
        switch await openAndRecover(directory, released: released) {
        case .failure(let failure):
            report.secondRunDifference = "the second run could not open: \(failure.store ?? failure.vault ?? "?")"
        case .success(let second):
            report.secondRunDifference = Self.difference(first, second)
        }
        // A store's lease file goes when the store does: wait for both runs' stores (a bounded
        // number of turns), so the leases counted are the crash's, not this process's.
        var turns = 0
        while released.isAlive, turns < 1_000_000 {
            turns += 1
            await Task.yield()
        }
        if released.isAlive { report.first?.warnings.append("the checker's own store was never released") }
        report.leftoverLeases = ((try? FileManager.default.contentsOfDirectory(atPath: owners)) ?? []).sorted()
        return report
    }

    private struct OpenFailure: Error {
        var store: String?
        var vault: String?
        var integrity: Bool
    }

    /// Weak references to the runs' stores and engines, to see them go.
    private final class Released {
        private struct Reference {
            weak var object: AnyObject?
        }

        private var references: [Reference] = []

        func watch(_ object: AnyObject) { references.append(Reference(object: object)) }
        var isAlive: Bool { references.contains { $0.object != nil } }
    }

    /// One run: open, recover, read, close.
    private func openAndRecover(
        _ directory: URL, released: Released
    ) async -> Result<CrashCheckReport.RunFacts, OpenFailure> {
        let clock = ManualClock(start: now)
        let backend: LocalAppStore
        do {
            backend = try LocalAppStore(
                configuration: LocalAppStoreConfiguration(
                    catalog: catalog,
                    stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: directory),
                    clock: clock, initialLatencyMilliseconds: 0))
        } catch {
            if case .corrupt = error { return .failure(OpenFailure(store: error.description, integrity: true)) }
            return .failure(OpenFailure(store: error.description, integrity: false))
        }
        let ledger: VaultLedger
        do {
            ledger = try VaultLedger.open(inDataDirectory: directory, environment: [:])
        } catch {
            let text = "\(error)"
            return .failure(OpenFailure(vault: text, integrity: text.contains("failed its integrity check")))
        }
        let store = Store(
            backend: backend, ledger: ledger,
            configuration: StoreConfiguration(
                notificationCenter: NotificationCenter(), clock: clock,
                downloads: DownloadConfiguration(dataDirectory: directory, checkpointBytes: 4096)))
        released.watch(backend)
        released.watch(store)
        var facts = CrashCheckReport.RunFacts()
        await store.start()
        facts.settled = await settle(store, backend)
        do {
            facts.store = try await backend.transactionManager.history().map(Self.facts)
            facts.charged = try await backend.transactionManager.charges().map(\.transactionID)
            facts.unfinished = try await backend.unfinishedTransactions().map(\.transactionID)
            facts.notifications = try await backend.notifications.all().map { n in
                CrashCheckReport.NotificationFacts(
                    uuid: n.notificationUUID,
                    kind: n.subtype.map { "\(n.notificationType)/\($0)" } ?? n.notificationType.rawValue,
                    transactionID: n.transaction?.transactionID,
                    attempts: n.sendAttempts.map(\.sendAttemptResult.rawValue),
                    due: n.nextAttemptDate != nil, delivered: n.isDelivered)
            }
        } catch {
            return .failure(OpenFailure(store: "reading the store after recovery: \(error)", integrity: false))
        }
        do {
            facts.ledger = try ledger.transactions().map(Self.facts)
            facts.balances = try ledger.balances()
        } catch {
            let text = "\(error)"
            return .failure(OpenFailure(vault: "reading the vault: \(text)", integrity: text.contains("integrity")))
        }
        if let downloads = store.downloads {
            facts.downloads = await downloads.downloads().map {
                CrashCheckReport.DownloadFacts(
                    id: $0.id, productID: $0.productID, state: $0.state.rawValue, error: $0.error?.description)
            }
        }
        facts.installed = installedContent(directory)
        await store.stop()
        do {
            // Every other account of the store: the family's members, and one removed from it
            // (whose shares the removal revoked).
            for member in try await backend.familySharing.accounts()
            where member.id != backend.configuration.account.id {
                facts.members[member.id] = try await memberFacts(member, directory: directory, released: released)
            }
        } catch {
            return .failure(OpenFailure(store: "running a family member's app: \(error)", integrity: false))
        }
        return .success(facts)
    }

    /// Runs a family member's app as `storefront --account ID` does (its own vault in
    /// `accounts/ID`): its shared transactions are delivered, then its store and ledger read.
    private func memberFacts(
        _ member: StoreAccount, directory: URL, released: Released
    ) async throws -> CrashCheckReport.MemberFacts {
        let clock = ManualClock(start: now)
        let backend = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: catalog,
                stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: directory),
                account: member, clock: clock, initialLatencyMilliseconds: 0))
        let vault = directory.appendingPathComponent("accounts/\(member.id)", isDirectory: true)
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        let ledger = try VaultLedger.open(inDataDirectory: vault, environment: [:])
        let store = Store(
            backend: backend, ledger: ledger,
            configuration: StoreConfiguration(notificationCenter: NotificationCenter(), clock: clock))
        released.watch(backend)
        released.watch(store)
        await store.start()
        let settled = await settle(store, backend)
        let facts = CrashCheckReport.MemberFacts(
            store: try await backend.transactionManager.history().map(Self.facts),
            ledger: try ledger.transactions().map(Self.facts), settled: settled)
        await store.stop()
        return facts
    }

    /// Delivers what is owed: waits (a bounded number of rounds, never the wall clock) until no
    /// purchase is left charging or undelivered and no download waits or runs.
    private func settle(_ store: Store, _ backend: LocalAppStore) async -> Bool {
        for _ in 0..<2_000 {
            await store.synchronize()
            var busy = false
            if let downloads = store.downloads {
                await downloads.retryDownloads()
                for download in await downloads.downloads()
                where download.state == .waiting || download.state == .active {
                    busy = true
                    _ = try? await downloads.waitUntilSettled(download.id)
                }
            }
            let unfinished = (try? await backend.unfinishedTransactions()) ?? []
            let owed = unfinished.filter { [.purchasing, .purchased, .restored].contains($0.state) }
            if owed.isEmpty, !busy { return true }
            await Task.yield()
        }
        return false
    }

    /// Every `Content/PRODUCT/VERSION` directory, checked against the catalog's manifest.
    private func installedContent(_ directory: URL) -> [CrashCheckReport.InstalledFacts] {
        let manager = FileManager.default
        let root = directory.appendingPathComponent("Content")
        var result: [CrashCheckReport.InstalledFacts] = []
        for product in ((try? manager.contentsOfDirectory(atPath: root.path)) ?? []).sorted() {
            for version in ((try? manager.contentsOfDirectory(atPath: root.appendingPathComponent(product).path)) ?? [])
                .sorted()
            {
                let installed = root.appendingPathComponent(product).appendingPathComponent(version)
                result.append(
                    CrashCheckReport.InstalledFacts(
                        productID: product, version: version,
                        problem: problem(installed, product: product, version: version)))
            }
        }
        return result
    }

    private func problem(_ installed: URL, product: String, version: String) -> String? {
        guard let content = catalog.content[product], content.version == version else {
            return "no such content in the catalog"
        }
        let manager = FileManager.default
        var found: Set<String> = []
        if let walker = manager.enumerator(atPath: installed.path) {
            while let path = walker.nextObject() as? String {
                var isDirectory: ObjCBool = false
                if manager.fileExists(atPath: installed.appendingPathComponent(path).path, isDirectory: &isDirectory),
                    !isDirectory.boolValue
                {
                    found.insert(path)
                }
            }
        }
        for file in content.files {
            guard found.remove(file.path) != nil else { return "\(file.path) is missing" }
            guard let bytes = try? Data(contentsOf: installed.appendingPathComponent(file.path)) else {
                return "\(file.path) cannot be read"
            }
            guard bytes.count == file.size else { return "\(file.path) is \(bytes.count) bytes, not \(file.size)" }
            guard (try? FileHash.sha256(bytes)) == file.sha256 else { return "\(file.path) does not match its SHA-256" }
        }
        if let extra = found.sorted().first { return "\(extra) is not in the manifest" }
        return nil
    }

    private static func facts(_ transaction: StoreCore.Transaction) -> CrashCheckReport.TransactionFacts {
        CrashCheckReport.TransactionFacts(
            id: transaction.transactionID, originalID: transaction.originalTransactionID,
            productID: transaction.productID,
            type: transaction.productType.rawValue, state: transaction.state.rawValue, quantity: transaction.quantity,
            requestID: transaction.payment.requestID, revoked: transaction.revocationDate != nil,
            expires: transaction.expiresDate?.timeIntervalSince1970,
            familyShared: transaction.ownershipType == .familyShared,
            billingPeriodNumber: transaction.commitmentInfo?.billingPeriodNumber)
    }

    /// What a second run saw differently, in a sentence; `nil` when it saw the same.
    private static func difference(_ a: CrashCheckReport.RunFacts, _ b: CrashCheckReport.RunFacts) -> String? {
        if a.ledger != b.ledger { return "the ledger changed: \(a.ledger.map(\.id)) then \(b.ledger.map(\.id))" }
        if a.balances != b.balances { return "balances changed: \(a.balances) then \(b.balances)" }
        if a.store != b.store { return "the store's history changed: \(a.store.map(\.id)) then \(b.store.map(\.id))" }
        if a.charged != b.charged { return "the charges changed: \(a.charged) then \(b.charged)" }
        if a.installed != b.installed { return "the installed content changed" }
        if a.members != b.members { return "a family member's store or ledger changed: \(a.members) then \(b.members)" }
        if a.notifications != b.notifications {
            return "the notifications changed: \(a.notifications.map(\.uuid)) then \(b.notifications.map(\.uuid))"
        }
        return nil
    }
}
