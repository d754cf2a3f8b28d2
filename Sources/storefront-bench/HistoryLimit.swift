import Crypto
import Foundation
import SystemIO
import Vault

/// The physical limit of `storefront history` on one data directory: reading the vault's
/// bytes (in 1 MiB pieces, as the listing does) and opening every record's AEAD seal, with
/// no decode, then writing the command's own output bytes to `/dev/null` in 64 KiB pieces.
///
/// The vault's record key stays inside the vault, so the bench re-seals every record of a
/// copy under a key of its own (same frame layout, same lengths, the frame head as associated
/// data) before timing; what is timed is the same bytes read and the same seals opened.
struct HistoryLimit {
    /// The re-sealed copy and what the timed pass needs.
    let copy: URL
    let key: AEADKey
    let output: [UInt8]
    /// Bytes read from the vault and records opened.
    let bytes: Int
    let records: Int

    /// Re-seals `vault` (a vault file) into `copy`; `output` is what the command printed.
    init(vault: URL, copy: URL, output: [UInt8]) throws {
        let file = try [UInt8](Data(contentsOf: vault))
        // The vault's own cipher (header byte 32).
        let cipher = AEAD.Algorithm(rawValue: file.count > 32 ? file[32] : 0) ?? .aes256GCM
        let key = try AEADKey(cipher, key: SecureBytes(try SecureRandom.bytes(count: AEAD.keyByteCount)))
        var resealed = Array(file.prefix(VaultFormat.headerLength))
        var position = VaultFormat.headerLength
        var records = 0
        while let frame = Self.frame(in: file, at: position) {
            let head = Array(file[position..<(position + 44)])
            let nonce = Array(file[(position + 32)..<(position + 44)])
            let plaintext = [UInt8](repeating: 0x5A, count: frame.sealed - AEAD.tagByteCount)
            let sealed = try plaintext.withUnsafeBytes { p in
                try head.withUnsafeBytes { try key.seal(nonce: nonce, plaintext: p, associatedData: $0) }
            }
            resealed += file[position..<(position + VaultFormat.frameHeaderLength)]
            resealed += sealed
            position += frame.length
            records += 1
        }
        try Data(resealed).write(to: copy)
        self.key = key
        self.copy = copy
        self.output = output
        self.bytes = file.count
        self.records = records
    }

    /// The frame at `position`: its whole length and its sealed part's.
    private static func frame(in bytes: [UInt8], at position: Int) -> (length: Int, sealed: Int)? {
        guard bytes.count - position >= VaultFormat.frameHeaderLength else { return nil }
        let sealed = bytes[(position + 4)..<(position + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
        let length = VaultFormat.frameHeaderLength + sealed
        guard sealed >= AEAD.tagByteCount, bytes.count - position >= length else { return nil }
        return (length, sealed)
    }

    /// One timed pass: CPU seconds of this thread (and wall seconds).
    func measure() throws -> (cpu: Double, wall: Double) {
        let fs = POSIXFileSystem()
        let startCPU = Self.threadCPU()
        let startWall = CommandTiming.now()
        let file = try fs.open(copy.path, .read)
        defer { fs.close(file) }
        var window: [UInt8] = []
        var windowStart = 0
        var position = VaultFormat.headerLength
        var opened = 0
        while true {
            // The window holds the frame at `position`, or is refilled from it.
            if position + VaultFormat.frameHeaderLength > windowStart + window.count {
                window = try fs.read(file, count: 1 << 20, at: UInt64(position))
                windowStart = position
            }
            let at = position - windowStart
            guard window.count - at >= VaultFormat.frameHeaderLength else { break }
            let sealed = window[(at + 4)..<(at + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
            let length = VaultFormat.frameHeaderLength + sealed
            if window.count - at < length {
                window = try fs.read(file, count: max(1 << 20, length), at: UInt64(position))
                windowStart = position
                continue
            }
            let base = position - windowStart
            let nonce = Array(window[(base + 32)..<(base + 44)])
            let plaintext = try window.withUnsafeBytes { all in
                try key.open(
                    nonce: nonce, sealed: UnsafeRawBufferPointer(rebasing: all[(base + 52)..<(base + length)]),
                    associatedData: UnsafeRawBufferPointer(rebasing: all[base..<(base + 44)]))
            }
            guard plaintext != nil else {
                throw BenchFailure(description: "the re-sealed record at \(position) does not open")
            }
            opened += 1
            position += length
        }
        guard opened == records else { throw BenchFailure(description: "opened \(opened) of \(records) records") }
        let null = try fs.open("/dev/null", .write)
        defer { fs.close(null) }
        var written = 0
        while written < output.count {
            let end = min(output.count, written + (1 << 16))
            try fs.write(null, output[written..<end], at: 0)
            written = end
        }
        return (Self.threadCPU() - startCPU, CommandTiming.now() - startWall)
    }

    /// CPU seconds this thread has used.
    static func threadCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
