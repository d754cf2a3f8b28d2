import AppStoreServer
import Catalog
import Crypto
import Dispatch
import Foundation
import Receipts
import StoreCore
import StoreTesting
import SystemIO

@testable import LocalAppStore

// libFuzzer target for the App Store Server's request handling after libmicrohttpd (`make fuzz`):
// routing, path and query parsing, JSON bodies, bearer JWT verification and every endpoint, over a
// real LocalAppStore (in a temporary directory, with a consumable, a non-consumable and a
// subscription bought) through `AppStoreServer.answer`, the function the daemon calls.
// Built against the package's modules compiled with `-sanitize=fuzzer,address` (Makefile).
//
// An input is: one flags byte (bits 0-1: 0 or 3 = a valid token the harness signs, 1 = the
// Authorization header as fuzzed, 2 = none at all), then text lines: the method, the path with its
// query (`name=value&...`, percent-decoded as the daemon does), header lines (`Name: value`) up
// to an empty line, and the body (raw bytes).
//
// Invariants: a status is 200-599; without any Authorization header no `/inApps` request gets
// anything but 401, 404 or 405; a 401 has no body; a JSON answer is JSON.

@_cdecl("LLVMFuzzerTestOneInput")
public func httpFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data, count > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    let harness = Harness.shared
    let auth = bytes[0] & 3
    var request = parse(bytes[1...])
    switch auth {
    case 1: break
    case 2: request.headers["authorization"] = nil
    default: request.headers["authorization"] = "Bearer " + harness.token
    }
    let response = harness.answer(request)
    check((200...599).contains(response.status), "status \(response.status) for \(request.method) \(request.path)")
    if auth == 2, request.path.hasPrefix("/inApps") {
        check(
            [401, 404, 405].contains(response.status),
            "\(request.method) \(request.path) answered \(response.status) without a token")
    }
    if response.status == 401 { check(response.body.isEmpty, "a 401 with a body") }
    if response.header("Content-Type") == "application/json", !response.body.isEmpty {
        check(
            (try? JSONSerialization.jsonObject(with: response.body, options: [.fragmentsAllowed])) != nil,
            "\(request.method) \(request.path) answered \(response.status) with a body that is not JSON")
    }
    return 0
}

/// Splits an input into a request as the daemon would hand it over.
private func parse(_ input: ArraySlice<UInt8>) -> HTTPRequest {
    var rest = input
    func line() -> String {
        let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
        let text = String(decoding: rest[rest.startIndex..<end], as: UTF8.self)
        rest = end < rest.endIndex ? rest[(end + 1)...] : rest[rest.endIndex...]
        return text
    }
    let method = line()
    let target = line()
    var path = target
    var query: [HTTPRequest.QueryItem] = []
    if let mark = target.firstIndex(of: "?") {
        path = String(target[..<mark])
        for pair in target[target.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = percentDecoded(String(parts[0]))
            let value = parts.count > 1 ? percentDecoded(String(parts[1])) : nil
            query.append(.init(name: name, value: value))
        }
    }
    path = percentDecoded(path)
    var headers: [String: String] = [:]
    while !rest.isEmpty {
        let header = line()
        if header.isEmpty { break }
        guard let colon = header.firstIndex(of: ":") else { continue }
        headers[header[..<colon].lowercased()] = header[header.index(after: colon)...].trimmingCharacters(
            in: .whitespaces)
    }
    return HTTPRequest(method: method, path: path, query: query, headers: headers, body: Data(rest))
}

/// `text` percent-decoded (as it was when it cannot be); text without a `%` is returned as it is,
/// without Foundation's decoding (a tenth of each run), which would give it back unchanged.
private func percentDecoded(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
    return text.removingPercentEncoding ?? text
}

/// The harness's data directory, removed at exit.
nonisolated(unsafe) private var harnessDirectory: String?

/// One store and server for the whole run, and a valid token for it.
private final class Harness: @unchecked Sendable {
    static let shared = Harness()

    let server: AppStoreServer
    let token: String

    private init() {
        do {
            let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
            let directory = URL(fileURLWithPath: base).appendingPathComponent("storefront-http-fuzz-\(getpid())")
            try? FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            harnessDirectory = directory.path
            atexit { if let path = harnessDirectory { try? FileManager.default.removeItem(atPath: path) } }
            let clock = ManualClock()
            let store = try LocalAppStore(
                configuration: LocalAppStoreConfiguration(
                    catalog: try StoreKitConfiguration.decode(
                        data: Data(FuzzStore.catalogJSON.utf8), file: "Fuzz.storekit"),
                    stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: directory),
                    clock: clock, initialLatencyMilliseconds: 0
                ).syncing(false))
            let credentials = try APICredentials.loadOrCreate(dataDirectory: directory)
            server = try AppStoreServer(store: store, credentials: credentials)
            let signing = try PrivateKey(pem: credentials.privateKeyPEM())
            let now = Int(clock.now.timeIntervalSince1970)
            let header = #"{"alg":"ES256","kid":"\#(credentials.keyID)","typ":"JWT"}"#
            let claims =
                #"{"aud":"appstoreconnect-v1","bid":"com.storefront.demo","exp":\#(now + 3000),"iat":\#(now),"iss":"\#(credentials.issuerID)"}"#
            let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
            token = input + "." + Base64URL.encode(try ECDSA.signES256(Array(input.utf8), key: signing))
            for product in ["com.test.coins", "com.test.pro", "com.test.plus.monthly", "com.test.coins"] {
                Self.wait { try await FuzzStore.buy(product, in: store) }
            }
        } catch {
            fatalError("the HTTP fuzz harness could not start: \(error)")
        }
    }

    func answer(_ request: HTTPRequest) -> HTTPResponse {
        let server = self.server
        return Self.wait { await server.answer(request) }
    }

    /// Runs `body` to its end on the concurrency pool, blocking this (libFuzzer's) thread.
    private static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.value = .success(try await body()) } catch { box.value = .failure(error) }
            done.signal()
        }
        done.wait()
        switch box.value! {
        case .success(let value): return value
        case .failure(let error): fatalError("the HTTP fuzz harness failed: \(error)")
        }
    }

    private final class Box<T>: @unchecked Sendable {
        var value: Result<T, any Error>?
    }
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("HTTP fuzz invariant broken: \(message())") }
}
