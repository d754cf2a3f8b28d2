import Foundation
import LocalAppStore
import StoreCore

/// The bench's own child process, run under callgrind to count a purchase's instructions
/// (`Callgrind.perOperation`): `storefront-bench --purchases store|engine COUNT DIRECTORY` makes
/// COUNT purchases in a store (and, for `engine`, through the engine with a file ledger) that
/// a section seeded in DIRECTORY, without fsync (the CPU's share), and exits.
enum BenchChild {
    static let flag = "--purchases"

    /// Runs the child named by `arguments` (what follows the flag); the process's exit status.
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 3, let count = Int(arguments[1]) else {
            FileHandle.standardError.write(
                Data("usage: storefront-bench \(flag) store|engine|vault COUNT DIRECTORY\n".utf8))
            return 2
        }
        let directory = URL(fileURLWithPath: arguments[2])
        do {
            switch arguments[0] {
            case "store":
                try Blocking.await { try await StoreBench.buy(try StoreBench.open(in: directory), count: count) }
            case "vault":
                try VaultBench.upserts(count, in: directory)
            case "engine":
                let opened = try Blocking.await {
                    let (backend, ledger, store) = try EngineBench.open(in: directory, sync: false)
                    await store.start()
                    try await EngineBench.buy(store, count: count)
                    await store.stop()
                    return (backend, ledger, store)
                }
                // Exits with the stores still open: freeing a long history (each ledger line's
                // transaction) would run on whichever thread lets go last, racing the exit, so
                // a count would hold some of it or none.
                withExtendedLifetime(opened) { exit(0) }
            default:
                FileHandle.standardError.write(Data("unknown child \(arguments[0])\n".utf8))
                return 2
            }
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return 1
        }
        return 0
    }

    /// This executable, for a child.
    static var executable: String { Bundle.main.executablePath ?? CommandLine.arguments[0] }
}
