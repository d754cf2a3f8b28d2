import Foundation
import TestSupport

@testable import StoreCore

/// What the engine suites over the in-memory backend share: a fresh directory, a
/// `QueueBackend`, and engines over them whose file ledger is the directory's `ledger.jsonl`
/// (a second engine over the same file is a relaunch).
struct QueueEngine {
    let directory: TemporaryDirectory
    let backend: QueueBackend

    init(backend: QueueBackend = QueueBackend()) throws {
        directory = try TemporaryDirectory()
        self.backend = backend
    }

    /// An engine (not started) over the backend and the directory's ledger file.
    func store(
        _ configuration: StoreConfiguration = StoreConfiguration(notificationCenter: NotificationCenter())
    ) throws -> Store {
        Store(
            backend: backend, ledger: try FileLedger(path: directory.path("ledger.jsonl")), configuration: configuration
        )
    }
}
