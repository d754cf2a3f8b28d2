import Catalog
import Crypto
import Foundation
import TestSupport

// The power-loss tests' child: reopens crash states as the next run of the app would (a
// fresh process, separate from the one that recorded them) and reports what it finds, one
// JSON line per state. The tests judge the reports.
//
//     crash-check --catalog FILE --now SECONDS --states LIST   (LIST: state directories, one a line)

CryptoLibrary.initialize()

var catalogPath: String?
var now: Double?
var listPath: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--catalog": catalogPath = arguments.popFirst()
    case "--now": now = arguments.popFirst().flatMap(Double.init)
    case "--states": listPath = arguments.popFirst()
    default:
        FileHandle.standardError.write(Data("crash-check: unknown argument \(argument)\n".utf8))
        exit(2)
    }
}
guard let catalogPath, let now, let listPath, let list = try? String(contentsOfFile: listPath, encoding: .utf8) else {
    FileHandle.standardError.write(Data("usage: crash-check --catalog FILE --now SECONDS --states LIST\n".utf8))
    exit(2)
}
let catalog: StoreKitConfiguration
do {
    catalog = try StoreKitConfiguration.load(contentsOf: URL(fileURLWithPath: catalogPath))
} catch {
    FileHandle.standardError.write(Data("crash-check: \(error)\n".utf8))
    exit(1)
}

let checker = StateChecker(catalog: catalog, now: Date(timeIntervalSince1970: now))
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys]
for line in list.split(separator: "\n").map(String.init) {
    let report = await checker.check(URL(fileURLWithPath: line, isDirectory: true))
    var bytes =
        (try? encoder.encode(report)) ?? Data("{\"state\":\"\(line)\",\"storeError\":\"unencodable report\"}".utf8)
    bytes.append(UInt8(ascii: "\n"))
    FileHandle.standardOutput.write(bytes)
}
exit(0)
