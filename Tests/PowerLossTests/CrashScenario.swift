import Catalog
import Foundation
import StoreTesting
import SystemIO
import TestSupport

/// One durable operation to explore: how to bring the data directory to where it starts (on
/// the real file system, all of it durable), the operation itself (recorded), and what must
/// hold in every crash state beyond the rules every state must keep (`CrashJudge`).
struct CrashScenario: Sendable {
    /// The operation's name, as the suite prints it.
    let name: String
    /// Where the store's clock stands at the start of the setup.
    var setupTime = Date(timeIntervalSince1970: 1_767_225_600)
    /// Where it stands when the operation runs (and when the child reopens the states).
    var operationTime = Date(timeIntervalSince1970: 1_767_225_600 + 60)
    /// Brings the data directory to the operation's start (real file system).
    let setup: @Sendable (Context) async throws -> Void
    /// The operation, through the recording file system; it marks the moments the app was told
    /// something (`Marks`).
    let operation: @Sendable (Context, RecordingFileSystem) async throws -> Void
    /// What else must hold in a recovered state; returns what does not.
    let expectations: @Sendable (Judgement) -> [String]
    /// How many consumable units the operation may have used up, given the marks passed.
    var consumption: @Sendable (Set<String>) -> ClosedRange<Int> = { _ in 0...0 }

    /// What the scenario's steps work on.
    struct Context: Sendable {
        let data: URL
        let catalog: StoreKitConfiguration
        let clock: ManualClock
    }

    /// A recovered state, with what the recording had told the app before the crash.
    struct Judgement {
        /// What the child's first run saw.
        let facts: CrashCheckReport.RunFacts
        /// The marks the recording passed before the crash.
        let marks: Set<String>
        /// The ledger and the store at the start of the operation.
        let baseline: Baseline

        func passed(_ mark: String) -> Bool { marks.contains(mark) }
        func ledger(_ productID: String) -> [CrashCheckReport.TransactionFacts] {
            facts.ledger.filter { $0.productID == productID }
        }
        func store(_ productID: String) -> [CrashCheckReport.TransactionFacts] {
            facts.store.filter { $0.productID == productID }
        }
    }

    /// The ledger and store before the operation: nothing in it may be lost.
    struct Baseline: Sendable {
        let ledger: [CrashCheckReport.TransactionFacts]
        let charged: [String]
        let balances: [String: Int]
    }
}

/// The names of the moments a scenario marks in its recording.
enum Marks {
    /// The app was told the operation succeeded (the purchase returned, the refund was recorded…).
    static let acknowledged = "acknowledged"
    /// The store said it charged (or refunded, or renewed).
    static let storeSaid = "the store said so"
}
