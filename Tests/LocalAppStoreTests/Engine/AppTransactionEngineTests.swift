import Foundation
import Receipts
import StoreCore
import StoreTesting
import TestSupport
import Testing

@testable import LocalAppStore

/// `Store.appTransaction()` over the local store: StoreKit 2's `AppTransaction.shared`, signed
/// by the store and verified against its root and this device.
@Suite(.timeLimit(.minutes(10)))
struct AppTransactionEngineTests {
    let directory: TemporaryDirectory
    let clock = ManualClock(start: Date(timeIntervalSince1970: 1_790_000_000))

    init() throws { directory = try TemporaryDirectory() }

    func engine(_ backend: LocalAppStore, verifier: AppTransactionVerifier?) throws -> Store {
        Store(
            backend: backend, ledger: try FileLedger(path: directory.path("ledger.jsonl")),
            configuration: StoreConfiguration(
                notificationCenter: NotificationCenter(), clock: clock, appTransactionVerifier: verifier))
    }

    @Test func theAppTransactionIsVerifiedAndKeepsTheFirstDownload() async throws {
        let backend = try makeStore(directory, clock: clock)
        let store = try engine(backend, verifier: try await backend.appTransactionVerifier())
        let first = try await store.appTransaction().payloadValue
        #expect(first.bundleID == backend.configuration.bundleID)
        #expect(first.appVersion == "1.0")
        #expect(first.originalAppVersion == "1.0")
        #expect(first.originalPurchaseDate == clock.now)
        #expect(first.environment == AppStoreEnvironment.sandbox)
        #expect(first.appTransactionID == (try backend.receipts.appDownload()).appTransactionID)

        // Later, in a newer version of the app: the original version and date stay the first download's.
        clock.advance(by: 86_400)
        let later = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: try TestCatalog.load(), stateDirectory: directory.stateDirectory, clock: clock,
                appVersion: "2.0",
                initialLatencyMilliseconds: 0))
        let again = try await engine(later, verifier: try await later.appTransactionVerifier()).appTransaction(
            refresh: true
        ).payloadValue
        #expect(again.appVersion == "2.0")
        #expect(again.originalAppVersion == "1.0")
        #expect(again.originalPurchaseDate == first.originalPurchaseDate)
        #expect(again.signedDate == clock.now)
        #expect(again.appTransactionID == first.appTransactionID)
        #expect(again.deviceVerificationNonce != first.deviceVerificationNonce)
    }

    @Test func withoutAVerifierOrUnderAnotherRootItIsUnverified() async throws {
        let backend = try makeStore(directory, clock: clock)
        let unverified = try await engine(backend, verifier: nil).appTransaction()
        guard case .unverified(let app, .invalidCertificateChain(let why)) = unverified else {
            Issue.record("expected unverified, got \(unverified)")
            return
        }
        #expect(why.contains("appTransactionVerifier"))
        #expect(app.originalAppVersion == "1.0")

        let elsewhere = try TemporaryDirectory()
        let other = try makeStore(elsewhere, clock: clock)
        let foreign = try await engine(backend, verifier: try await other.appTransactionVerifier()).appTransaction()
        guard case .unverified(_, let error) = foreign else {
            Issue.record("expected unverified, got \(foreign)")
            return
        }
        // The other store's device differs too, but the chain is checked first.
        guard case .invalidCertificateChain = error else {
            Issue.record("expected an invalid chain, got \(error)")
            return
        }
    }

    @Test func everyEnvironmentSignsAndTheVerifierFollowsIt() async throws {
        let backend = try makeStore(directory, clock: clock)
        try await backend.settings.set(name: "environment", value: "Production")
        let app = try await engine(backend, verifier: try await backend.appTransactionVerifier()).appTransaction()
            .payloadValue
        #expect(app.environment == AppStoreEnvironment.production)
        #expect(app.appID == 1_000_000_000)
    }
}
