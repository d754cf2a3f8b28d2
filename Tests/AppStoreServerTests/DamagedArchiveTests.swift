import AppStoreServer
import Foundation
import LocalAppStore
import Receipts
import StoreCore
import Synchronization
import TestSupport
import Testing

/// A store whose compacted files on disk are damaged (a byte flipped in `outbox.dat` or
/// `history.dat`), served by the real server: a request whose reads meet the damage answers
/// Apple's general internal error and the server logs the file and what is wrong, never "not
/// found" nor a page without what could not be read; a request that does not meet the damage
/// answers as ever; once the store met it, it refuses what goes through it, and a refused write
/// changes nothing.
@Suite(.timeLimit(.minutes(10)))
struct DamagedArchiveTests {
    /// The server's log lines.
    final class Log: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func add(_ line: String) { lines.withLock { $0.append(line) } }
    }

    static func error(_ answer: HTTPClient.Answer) -> (code: Int?, message: String?) {
        let object = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any]
        return (object?["errorCode"] as? Int, object?["errorMessage"] as? String)
    }

    /// Apple's GeneralInternalError, exactly.
    static func isGeneralInternal(_ answer: HTTPClient.Answer) -> Bool {
        let (code, message) = error(answer)
        return answer.status == 500 && code == 5_000_000 && message == "An unknown error occurred."
    }

    /// Flips one byte inside the first frame of a compacted file of the store's state.
    static func damage(_ name: String, in fixture: ServerFixture) throws -> URL {
        let file = LocalAppStoreConfiguration.stateDirectory(inDataDirectory: fixture.directory).appendingPathComponent(
            name)
        var bytes = try Data(contentsOf: file)
        try #require(bytes.count > 64, "\(name) was written by a compaction")
        bytes[40] ^= 0x01  // inside the first frame's payload: its check fails
        try bytes.write(to: file)
        return file
    }

    @Test func aDamagedOutboxFailsTheNotificationEndpointsThatReadItAndIsLogged() async throws {
        let seeding = try await ServerFixture()
        try await seeding.store.settings.set(name: "notification-url", value: "http://127.0.0.1:9/notifications")
        var tokens: [String] = []
        // Enough made and settled for compactions to move most of them to the outbox archive.
        for _ in 0..<150 {
            tokens.append(try await seeding.store.notifications.requestTest())
            let n = try #require(try await seeding.store.notifications.due(by: .distantFuture).due.first)
            try await seeding.store.notifications.recordAttempt(
                n.notificationUUID, SendAttemptItem(attemptDate: seeding.clock.now, sendAttemptResult: .success),
                signedPayload: "sent")
        }
        await seeding.server.stop()
        let outbox = try Self.damage("outbox.dat", in: seeding)

        let log = Log()
        let fixture = try await ServerFixture(directory: seeding.scratch, log: { log.add($0) })
        let before = try fixture.stateFiles()
        // What does not read the damaged frame answers as ever.
        let other = try await fixture.api("GET", "/inApps/v1/notifications/test/\(tokens[149])")
        #expect(other.status == 200)
        let unknown = try await fixture.api("GET", "/inApps/v1/notifications/test/0123abcd_1")
        #expect(unknown.status == 404 && Self.error(unknown).code == 4_040_008)
        #expect(!log.all.contains { $0.contains(" 500 ") })

        // Twice: a refusal is not kept, the second request reads again.
        for _ in 0..<2 {
            let status = try await fixture.api("GET", "/inApps/v1/notifications/test/\(tokens[0])")
            #expect(Self.isGeneralInternal(status), "the first notification's frame is damaged: not 'not found'")
        }
        let start = NotificationEndpointTests.milliseconds(fixture.clock.now) - 86_400_000
        let end = NotificationEndpointTests.milliseconds(fixture.clock.now) + 86_400_000
        let history = try await fixture.api(
            "POST", "/inApps/v1/notifications/history", body: ["startDate": start, "endDate": end])
        #expect(Self.isGeneralInternal(history), "not a page without the damaged notification")

        let refused = log.all.filter { $0.contains(" 500 ") }
        #expect(refused.count == 3)
        #expect(refused.allSatisfy { $0.contains(outbox.path) && $0.contains("fails its check") }, "\(refused)")

        // Once the store met the damage, it refuses whatever goes through it (`StoreJournal.checked`)
        // until it is opened again: a write too, which changes nothing, and each refusal says why.
        let write = try await fixture.api("POST", "/inApps/v1/notifications/test")
        #expect(Self.isGeneralInternal(write))
        let later = try await fixture.api("GET", "/inApps/v1/notifications/test/\(tokens[149])")
        #expect(Self.isGeneralInternal(later))
        #expect(log.all.suffix(2).allSatisfy { $0.contains(" 500 ") && $0.contains(outbox.path) }, "\(log.all)")
        #expect(try fixture.stateFiles() == before)
        await fixture.close()
    }

    @Test func aDamagedHistoryFailsTheRequestsThatReadItAndARefusedWriteChangesNothing() async throws {
        let seeding = try await ServerFixture()
        var bought: [StoreCore.Transaction] = []
        // Enough purchases for a compaction to move the finished ones to the history.
        let history = LocalAppStoreConfiguration.stateDirectory(inDataDirectory: seeding.directory)
            .appendingPathComponent("history.dat")
        while !FileManager.default.fileExists(atPath: history.path) || bought.count < 80 {
            bought.append(try await seeding.buy(ServerFixture.coins))
            try #require(bought.count < 400, "no compaction wrote the history")
        }
        await seeding.server.stop()
        _ = try Self.damage("history.dat", in: seeding)

        let log = Log()
        let fixture = try await ServerFixture(directory: seeding.scratch, log: { log.add($0) })
        let before = try fixture.stateFiles()
        // The newest purchase is still in the journal: answered as ever.
        let newest = try await fixture.api("GET", "/inApps/v1/transactions/\(bought[bought.count - 1].transactionID)")
        #expect(newest.status == 200)
        let first = bought[0].transactionID
        // Twice: through the store's actor, then on the HTTP thread from the state it published.
        for _ in 0..<2 {
            let info = try await fixture.api("GET", "/inApps/v1/transactions/\(first)")
            #expect(
                Self.isGeneralInternal(info), "the first purchase's frame is damaged: not 'transaction id not found'")
        }
        let consumption = try await fixture.api(
            "PUT", "/inApps/v2/transactions/consumption/\(first)",
            body: [
                "customerConsented": true, "sampleContentProvided": false, "deliveryStatus": "DELIVERED",
            ])
        #expect(Self.isGeneralInternal(consumption))
        #expect(try fixture.stateFiles() == before, "a refused write changes nothing")
        let refused = log.all.filter { $0.contains(" 500 ") }
        #expect(refused.count == 3 && refused.allSatisfy { $0.contains(history.path) }, "\(refused)")

        await fixture.close()
    }
}
