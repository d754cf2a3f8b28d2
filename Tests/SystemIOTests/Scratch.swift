import Foundation

/// A private temporary directory for one test, removed when released.
final class Scratch: @unchecked Sendable {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("SystemIOTests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }

    func contents(_ name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: file(name)).map(Array.init)
    }
}
