import Catalog
import Foundation
import StoreTesting
import SystemIO
import TestSupport

/// Runs one scenario: sets it up, records its operation, generates every crash state in both
/// modes, writes each distinct one out as a data directory, has `crash-check` (a fresh process,
/// many states a process) reopen them, and judges every report.
enum PowerLossHarness {
    /// What exploring a scenario found.
    struct Outcome {
        let name: String
        /// Distinct states explored, by mode (a state the ordered mode already gave is not counted again).
        var explored: [CrashStateGenerator.Mode: Int] = [:]
        /// States that broke a rule: the state and what broke.
        var failures: [(mode: CrashStateGenerator.Mode, state: String, directory: URL, problems: [String])] = []
        /// States that ended in a clear integrity error, by mode.
        var integrityErrors: [CrashStateGenerator.Mode: Int] = [:]
        /// The first few of them: the state and the error.
        var integrityExamples: [String] = []
        /// The recording's length.
        var operations = 0
        /// Seconds spent writing the states out and having them checked (reported, never asserted).
        var seconds: (writing: Double, checking: Double) = (0, 0)

        /// The line the suite prints.
        var summary: String {
            let ordered = explored[.ordered] ?? 0
            let reordering = explored[.reordering] ?? 0
            var line =
                "power loss: \(name): \(operations) operations recorded, \(ordered + reordering) crash states explored "
                + "(\(ordered) ordered, \(reordering) more with reordering), \(failures.count) failed"
            let integrity = integrityErrors.values.reduce(0, +)
            if integrity > 0 {
                line += ", \(integrity) reported a clear integrity error (\(integrityErrors[.ordered] ?? 0) ordered)"
            }
            line += String(format: " [%.1f s writing, %.1f s checking]", seconds.writing, seconds.checking)
            return line
        }
    }

    /// A crash state as judged: its files' digest and the marks the operation had passed.
    private struct SeenState: Hashable {
        let image: [UInt8]
        let marks: Set<String>
    }

    /// States a `crash-check` process reopens.
    static let batchSize = 200

    /// Explores `scenario`; failing states are kept on disk for inspection.
    static func explore(_ scenario: CrashScenario) async throws -> (Outcome, Recording) {
        let scratch = try TemporaryDirectory.inMemory(prefix: "sf-powerloss")
        let catalogFile = try CrashCatalog.write(into: scratch.url)
        let catalog = try StoreKitConfiguration.load(contentsOf: catalogFile)
        let data = scratch.url.appendingPathComponent("data", isDirectory: true)
        try FileManager.default.createDirectory(
            at: data, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let clock = ManualClock(start: scenario.setupTime)
        let context = CrashScenario.Context(data: data, catalog: catalog, clock: clock)

        try await scenario.setup(context)
        let baseline = try await Self.baseline(context)
        clock.advance(by: scenario.operationTime.timeIntervalSince(clock.now))
        let recorder = try RecordingFileSystem(root: data.path)
        try await scenario.operation(context, recorder)
        let recording = try recorder.finish()

        var outcome = Outcome(name: scenario.name)
        outcome.operations = recording.operations.count
        let writingStarted = Date()
        let states = try TemporaryDirectory.inMemory(prefix: "sf-crash-states")
        let marks = recording.operations.enumerated().compactMap { index, operation -> (Int, String)? in
            if case .mark(let label) = operation { return (index, label) }
            return nil
        }
        func marksPassed(_ state: CrashState) -> Set<String> { Set(marks.filter { $0.0 < state.crashPoint }.map(\.1)) }
        // A state is judged by its files and by what the app had been told when the power went:
        // the same bytes after one more mark (say, "the app was told") are a stricter case.
        var seen: Set<SeenState> = []
        var pending: [(mode: CrashStateGenerator.Mode, state: CrashState, directory: URL)] = []
        for mode in CrashStateGenerator.Mode.allCases {
            for state in CrashStateGenerator(recording).states(mode) {
                let image = state.image(of: recording)
                guard seen.insert(SeenState(image: try image.digest(), marks: marksPassed(state))).inserted else {
                    continue
                }
                let directory = states.url.appendingPathComponent(
                    "\(mode.rawValue)-\(pending.count)", isDirectory: true)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
                try image.materialize(at: directory)
                pending.append((mode, state, directory))
                outcome.explored[mode, default: 0] += 1
            }
        }

        outcome.seconds.writing = Date().timeIntervalSince(writingStarted)
        let checkingStarted = Date()
        let reports = try check(
            pending.map(\.directory), catalog: catalogFile, now: scenario.operationTime, scratch: scratch)
        for item in pending {
            let passed = marksPassed(item.state)
            guard let report = reports[item.directory.path] else {
                outcome.failures.append(
                    (item.mode, item.state.summary(of: recording), item.directory, ["the child gave no report"]))
                continue
            }
            switch CrashJudge.judge(report, marks: passed, scenario: scenario, baseline: baseline) {
            case .passed: break
            case .integrityError(let error):
                outcome.integrityErrors[item.mode, default: 0] += 1
                if outcome.integrityExamples.count < 3 {
                    outcome.integrityExamples.append("[\(item.mode)] \(item.state.summary(of: recording)): \(error)")
                }
            case .failed(let problems):
                outcome.failures.append((item.mode, item.state.summary(of: recording), item.directory, problems))
            }
        }
        outcome.seconds.checking = Date().timeIntervalSince(checkingStarted)
        if !outcome.failures.isEmpty { states.keep() }
        return (outcome, recording)
    }

    /// The ledger and store before the operation (nothing when there is no vault yet: opening
    /// the app would create what the operation is to create).
    private static func baseline(_ context: CrashScenario.Context) async throws -> CrashScenario.Baseline {
        guard FileManager.default.fileExists(atPath: context.data.appendingPathComponent("vault.sfv").path) else {
            return CrashScenario.Baseline(ledger: [], charged: [], balances: [:])
        }
        let (ledger, charged, balances) = try await AppSession.with(
            context.data, catalog: context.catalog, clock: context.clock
        ) { session in
            let ledger = try session.ledger.transactions().map { transaction in
                CrashCheckReport.TransactionFacts(
                    id: transaction.transactionID, originalID: transaction.originalTransactionID,
                    productID: transaction.productID,
                    type: transaction.productType.rawValue, state: transaction.state.rawValue,
                    quantity: transaction.quantity,
                    requestID: transaction.payment.requestID, revoked: transaction.revocationDate != nil,
                    expires: transaction.expiresDate?.timeIntervalSince1970)
            }
            return (
                ledger, try await session.backend.transactionManager.charges().map(\.transactionID),
                try session.ledger.balances()
            )
        }
        return CrashScenario.Baseline(ledger: ledger, charged: charged, balances: balances)
    }

    /// Has `crash-check` reopen `directories`, `batchSize` a process, two processes at a time
    /// (the machine's cores), and returns the reports by directory.
    static func check(
        _ directories: [URL], catalog: URL, now: Date, scratch: TemporaryDirectory
    ) throws -> [String: CrashCheckReport] {
        var batches: [[URL]] = []
        var start = 0
        while start < directories.count {
            batches.append(Array(directories[start..<min(start + batchSize, directories.count)]))
            start += batchSize
        }
        var reports: [String: CrashCheckReport] = [:]
        var next = 0
        while next < batches.count {
            let running = try batches[next..<min(next + 2, batches.count)].map { batch in
                let list = scratch.url.appendingPathComponent("states-\(UUID().uuidString).txt")
                try Data(batch.map(\.path).joined(separator: "\n").utf8).write(to: list)
                return try ChildProcess(
                    BuiltProduct.crashCheck,
                    ["--catalog", catalog.path, "--now", String(now.timeIntervalSince1970), "--states", list.path])
            }
            next += running.count
            for child in running {
                let result = child.wait(timeout: .seconds(900))
                guard result.status == 0, !result.timedOut else {
                    throw SessionError(
                        "crash-check ended with status \(result.status)\(result.timedOut ? " (timed out)" : ""): \(result.stderr.suffix(2000))"
                    )
                }
                let decoder = JSONDecoder()
                for line in result.stdout.split(separator: "\n") {
                    let report = try decoder.decode(CrashCheckReport.self, from: Data(line.utf8))
                    reports[report.state] = report
                }
            }
        }
        return reports
    }
}
