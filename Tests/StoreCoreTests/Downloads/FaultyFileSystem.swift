import Foundation
import Synchronization
@testable import StoreCore

/// The real file system, except that writes fail with `ENOSPC` once a byte budget is spent
/// (a full disk) and anything under a chosen directory fails with `EACCES` (an unwritable
/// directory; as root, `chmod` cannot make one).
final class FaultyFileSystem: DownloadFileSystem {
    private let real = POSIXFileSystem()
    private struct Faults {
        var budget: Int64?
        var unwritable: String?
    }
    private let faults = Mutex(Faults())

    func setBudget(_ bytes: Int64?) { faults.withLock { $0.budget = bytes } }
    func setUnwritable(_ directory: String?) { faults.withLock { $0.unwritable = directory } }

    private func spend(_ path: String, _ count: Int) throws(FileSystemError) {
        let full: Bool = faults.withLock { f in
            guard let budget = f.budget else { return false }
            if Int64(count) > budget { return true }
            f.budget = budget - Int64(count)
            return false
        }
        if full { throw FileSystemError(path: path, code: ENOSPC, message: "No space left on device") }
    }

    private func check(_ path: String) throws(FileSystemError) {
        if let dir = faults.withLock({ $0.unwritable }), path == dir || path.hasPrefix(dir + "/") {
            throw FileSystemError(path: path, code: EACCES, message: "Permission denied")
        }
    }

    func createDirectory(_ path: String) throws(FileSystemError) { try check(path); try real.createDirectory(path) }
    func open(_ path: String) throws(FileSystemError) -> OpenFile { try check(path); return try real.open(path) }
    func length(_ file: OpenFile) throws(FileSystemError) -> Int64 { try real.length(file) }
    func truncate(_ file: OpenFile, to length: Int64) throws(FileSystemError) { try real.truncate(file, to: length) }
    func write(_ file: OpenFile, _ bytes: [UInt8]) throws(FileSystemError) {
        try spend(file.path, bytes.count)
        try real.write(file, bytes)
    }
    func read(_ file: OpenFile, at offset: Int64, count: Int) throws(FileSystemError) -> [UInt8] {
        try real.read(file, at: offset, count: count)
    }
    func sync(_ file: OpenFile) throws(FileSystemError) { try real.sync(file) }
    func close(_ file: OpenFile) { real.close(file) }
    func writeAtomically(_ path: String, _ bytes: [UInt8], syncsDirectory: Bool) throws(FileSystemError) {
        try check(path)
        try spend(path, bytes.count)
        try real.writeAtomically(path, bytes, syncsDirectory: syncsDirectory)
    }
    func readSmallFile(_ path: String) throws(FileSystemError) -> [UInt8]? { try real.readSmallFile(path) }
    func rename(_ from: String, to: String) throws(FileSystemError) { try check(from); try check(to); try real.rename(from, to: to) }
    func syncDirectory(_ path: String) throws(FileSystemError) { try real.syncDirectory(path) }
    func remove(_ path: String) throws(FileSystemError) { try check(path); try real.remove(path) }
    func exists(_ path: String) -> Bool { real.exists(path) }
    func contents(ofDirectory path: String) -> [String] { real.contents(ofDirectory: path) }
    func fileSize(_ path: String) -> Int64? { real.fileSize(path) }
    func tryLock(_ path: String) throws(FileSystemError) -> OpenFile? { try real.tryLock(path) }
    func unlock(_ file: OpenFile) { real.unlock(file) }
}
