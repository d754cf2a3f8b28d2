import Foundation
import TestSupport
import Testing

@testable import Vault

/// Items 8 and 9 of the vault issue: a real child process killed with SIGKILL, and two
/// processes incrementing one counter.
@Suite(.waitsOnProcesses, .timeLimit(.minutes(10))) struct CrashTests {
    static let writes = 1000
    static let compactionMinimum = 40

    /// The states after 0…1000 operations of `vault-torture write`, replayed here.
    static let expectedStates: [[String: String]] = {
        var states: [[String: String]] = [[:]]
        var state: [String: String] = [:]
        for i in 0..<writes {
            state["item-\(i % 37)"] = i % 10 == 9 ? nil : "\(i)"
            states.append(state)
        }
        return states
    }()

    /// The index of the operation that appends record number `n` (1-based): every operation
    /// appends one record except a delete of an item that does not exist.
    static func operationWritingRecord(_ n: Int) -> Int {
        var records = 0
        for i in 0..<writes {
            let writesRecord = i % 10 != 9 || expectedStates[i]["item-\(i % 37)"] != nil
            if writesRecord {
                records += 1
                if records == n { return i }
            }
        }
        return writes
    }

    /// Reopens the vault and checks it holds exactly the first k writes, for a k that
    /// includes every acknowledged write (and at most the one in flight).
    func verifyPrefix(_ vault: URL, acked: [Int], label: String) throws {
        #expect(acked == Array(0..<acked.count), "\(label): acknowledgements out of order")
        let opened = try Vault(
            at: vault, key: .keyFile(VaultKey.defaultKeyFile(for: vault)), configuration: testConfiguration())
        let items = try opened.items(service: "torture")
        let actual = Dictionary(uniqueKeysWithValues: items.map { ($0.account, text($0) ?? "") })
        let candidates = [acked.count, acked.count + 1].filter { $0 <= Self.writes }
        let match = candidates.first { Self.expectedStates[$0] == actual }
        #expect(match != nil, "\(label): \(acked.count) acknowledged, state is not a prefix that holds them")
        // The handle can write on top of whatever the crash left (a torn tail is cut first).
        try opened.upsert(service: "after", account: "crash", content("ok"))
        let again = try Vault(
            at: vault, key: .keyFile(VaultKey.defaultKeyFile(for: vault)), configuration: testConfiguration())
        #expect(try again.items(service: "torture") == items, "\(label)")
        #expect(text(try again.get(service: "after", account: "crash")) == "ok")
    }

    @Test func sigkillAtRandomMomentsKeepsExactlyAnAcknowledgedPrefix() throws {
        var rng = SeededGenerator(state: 0x5EED_0001)
        var killedMidway = 0
        for run in 0..<14 {
            let dir = try TemporaryDirectory()
            let killAfter = Int.random(in: 0..<Self.writes, using: &rng)
            let (acked, result) = try TortureProcess.runAndKill(
                ["write", dir.vault.path, "\(Self.writes)", "\(Self.compactionMinimum)"], killAfter: killAfter)
            if result.signaled {
                killedMidway += 1
            } else {
                #expect(result.status == 0, "run \(run): \(result.stderr)")
            }
            try verifyPrefix(dir.vault, acked: acked, label: "run \(run), kill after \(killAfter)")
        }
        #expect(killedMidway >= 10)
    }

    @Test(arguments: ["mid-vault-write", "mid-vault-compaction"])
    func sigkillAtAFaultPointKeepsExactlyAnAcknowledgedPrefix(point: String) throws {
        var rng = SeededGenerator(state: point == "mid-vault-write" ? 0x5EED_0002 : 0x5EED_0003)
        for run in 0..<6 {
            let dir = try TemporaryDirectory()
            let at = Int.random(in: 1..<(point == "mid-vault-write" ? Self.writes : 15), using: &rng)
            let (acked, result) = try TortureProcess.runAndKill(
                ["write", dir.vault.path, "\(Self.writes)", "\(Self.compactionMinimum)"], killAfter: nil,
                environment: ["STOREFRONT_FAULT": point, "STOREFRONT_FAULT_AT": "\(at)"])
            #expect(result.signaled, "run \(run): the child was not killed at \(point) #\(at): \(result.stderr)")
            if point == "mid-vault-write" {
                // Killed inside the operation that writes record number `at`: every operation
                // before it acknowledged, that one not.
                #expect(acked.count == Self.operationWritingRecord(at), "run \(run)")
            }
            try verifyPrefix(dir.vault, acked: acked, label: "\(point) #\(at)")
        }
    }

    @Test func twoProcessesTimesFourThreadsIncrementOneCounterExactly() throws {
        let dir = try TemporaryDirectory()
        let perThread = 2000
        let children = try (0..<2).map { _ in
            try TortureProcess.start(["increment", dir.vault.path, "4", "\(perThread)"])
        }
        for child in children {
            #expect(child.wait().status == 0)
        }
        let vault = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        #expect(text(try vault.get(service: "counter", account: "total")) == "\(2 * 4 * perThread)")
    }
}
