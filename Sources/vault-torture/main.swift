// vault-torture: a child process for the Vault crash and concurrency tests. Wiring only.
//
//   vault-torture write VAULT COUNT COMPACT_MIN   upsert/delete COUNT times, printing "ack I"
//                                                 after each acknowledged write
//   vault-torture batch VAULT COUNT               COUNT atomic writes of three items each (with a
//                                                 small index, rewritten every 8 records), printing
//                                                 "ack I" after each
//   vault-torture increment VAULT THREADS N       THREADS threads each add 1 to a counter N times
//   vault-torture create VAULT                    create a vault under umask 000, add one item
//   vault-torture read VAULT                      open a passphrase vault, asking at the terminal,
//                                                 and print its items as SERVICE/ACCOUNT=DATA
//
// STOREFRONT_FAULT=mid-vault-write (or mid-vault-compaction) with STOREFRONT_FAULT_AT=K makes
// the process send itself SIGKILL at the K-th time it reaches that point.
import Foundation
import SystemIO
import Vault

let arguments = CommandLine.arguments
let environment = ProcessInfo.processInfo.environment

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("vault-torture: \(message)\n".utf8))
    exit(2)
}

/// Counts arrivals at the fault point named in the environment and kills the process at the K-th.
final class FaultTrigger: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var count = 0
    let point: VaultFaultPoint?
    let at: Int

    init(environment: [String: String]) {
        point = environment["STOREFRONT_FAULT"].flatMap(VaultFaultPoint.init(rawValue:))
        at = environment["STOREFRONT_FAULT_AT"].flatMap(Int.init) ?? 1
    }

    func reached(_ here: VaultFaultPoint) {
        guard here == point else { return }
        let n = lock.withLock {
            count += 1
            return count
        }
        if n == at { CurrentProcess.killImmediately() }
    }
}

func open(_ path: String, compactMin: Int = 1024, indexMin: Int = 1024, indexTail: Int = 256) -> Vault {
    let trigger = FaultTrigger(environment: environment)
    let url = URL(fileURLWithPath: path)
    var hook: (@Sendable (VaultFaultPoint) -> Void)?
    if trigger.point != nil { hook = { point in trigger.reached(point) } }
    let configuration = VaultConfiguration(
        faultHook: hook, compactionMinimumGarbage: compactMin, indexMinimumRecords: indexMin,
        indexTailRecords: indexTail)
    do {
        return try Vault(at: url, key: .keyFile(VaultKey.defaultKeyFile(for: url)), configuration: configuration)
    } catch {
        fail("\(error)")
    }
}

guard arguments.count >= 3 else { fail("usage: vault-torture write|increment|create VAULT …") }
switch arguments[1] {
case "write":
    guard arguments.count == 5, let count = Int(arguments[3]), let compactMin = Int(arguments[4]) else {
        fail("usage: vault-torture write VAULT COUNT COMPACT_MIN")
    }
    let vault = open(arguments[2], compactMin: compactMin)
    for i in 0..<count {
        do {
            // The same sequence the test replays: every tenth operation deletes.
            try vault.modify(service: "torture", account: "item-\(i % 37)") { _ in
                i % 10 == 9 ? .delete : .put(VaultItemContent(data: Data("\(i)".utf8), label: "write \(i)"))
            }
        } catch {
            fail("write \(i): \(error)")
        }
        // One unbuffered write per acknowledgement: the parent sees it before the next write starts.
        FileHandle.standardOutput.write(Data("ack \(i)\n".utf8))
    }
case "batch":
    guard arguments.count == 4, let count = Int(arguments[3]) else { fail("usage: vault-torture batch VAULT COUNT") }
    let vault = open(arguments[2], compactMin: 40, indexMin: 16, indexTail: 8)
    for i in 0..<count {
        do {
            // Two items that must always agree, and one item per write: a torn write shows as
            // disagreement or as a missing or extra numbered item.
            try vault.transact { batch in
                batch.put(service: "pair", account: "a", VaultItemContent(data: Data("\(i)".utf8)))
                batch.put(service: "pair", account: "b", VaultItemContent(data: Data("\(i)".utf8)))
                batch.put(
                    service: "written", account: String(format: "%05d", i), VaultItemContent(data: Data("\(i)".utf8)))
            }
        } catch {
            fail("batch \(i): \(error)")
        }
        FileHandle.standardOutput.write(Data("ack \(i)\n".utf8))
    }
case "increment":
    guard arguments.count == 5, let threads = Int(arguments[3]), let n = Int(arguments[4]) else {
        fail("usage: vault-torture increment VAULT THREADS N")
    }
    let vault = open(arguments[2])
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
        for _ in 0..<n {
            do {
                try vault.modify(service: "counter", account: "total") { current in
                    let value = current.flatMap { Int(String(decoding: $0.data, as: UTF8.self)) } ?? 0
                    return .put(VaultItemContent(data: Data("\(value + 1)".utf8)))
                }
            } catch {
                fail("increment: \(error)")
            }
        }
    }
case "create":
    CurrentProcess.setFileCreationMask(0)
    let vault = open(arguments[2])
    do {
        try vault.add(service: "umask", account: "zero", VaultItemContent(data: Data("x".utf8)))
    } catch {
        fail("\(error)")
    }
case "read":
    let url = URL(fileURLWithPath: arguments[2])
    do {
        let vault = try Vault(at: url, key: .askPassphrase(TerminalPassphrasePrompt()))
        for item in try vault.allItems() {
            print("\(item.service)/\(item.account)=\(String(decoding: item.data, as: UTF8.self))")
        }
    } catch {
        fail("\(error)")
    }
default:
    fail("unknown command \(arguments[1])")
}
