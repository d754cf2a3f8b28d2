import Foundation
import Synchronization
import TestSupport
import Testing

@testable import AppStoreServer

@Suite struct MicroHTTPDaemonTests {
    @Test func answersThroughTheAsyncHandlerWithQueryHeadersAndBody() async throws {
        let daemon = try MicroHTTPDaemon(configuration: .init()) { request in
            let summary =
                "\(request.method) \(request.path) \(request.values("a")) \(request.header("X-Test") ?? "-") \(request.body.count)"
            return HTTPResponse(status: 201, headers: [.init("X-Echo", "yes")], body: Data(summary.utf8))
        }
        let client = HTTPClient(port: daemon.port)
        let answer = try await client.send(
            "PUT", "/p/q%20r?a=1&a=2&b", headers: ["X-Test": "t"], body: Data("hello".utf8))
        #expect(answer.status == 201)
        #expect(answer.headers["x-echo"] == "yes")
        #expect(answer.text == #"PUT /p/q r ["1", "2"] t 5"#)
        await daemon.stop()
    }

    /// MHD decodes `%00` to a NUL byte; its C strings would end there. The request keeps it,
    /// in the path, a query value and a query name, with what follows.
    @Test func aDecodedNULIsKeptInThePathAndTheQuery() async throws {
        let daemon = try MicroHTTPDaemon(configuration: .init()) { request in
            let query = request.query.map { "\($0.name)=\($0.value ?? "-")" }.joined(separator: "&")
            return HTTPResponse(status: 200, body: Data("\(request.path) \(query)".utf8))
        }
        let client = HTTPClient(port: daemon.port)
        let answer = try await client.send("GET", "/t/25%00xyz?a=X%00garbage&b%00c=1&d=%2500")
        #expect(answer.text == "/t/25\u{0}xyz a=X\u{0}garbage&b\u{0}c=1&d=%00")
        #expect(try await client.send("GET", "/t/%2500/q%20r").text == "/t/%00/q r ", "no NUL: MHD's path as it was")
        await daemon.stop()
    }

    @Test func bodiesOverTheLimitGet413AndTheHandlerNeverRuns() async throws {
        let calls = CallCounter()
        let daemon = try MicroHTTPDaemon(configuration: .init(maxBodyBytes: 1024)) { _ in
            calls.increment()
            return HTTPResponse(status: 200)
        }
        let client = HTTPClient(port: daemon.port)
        let answer = try await client.send("POST", "/x", body: Data(repeating: 65, count: 4096))
        #expect(answer.status == 413)
        let small = try await client.send("POST", "/x", body: Data(repeating: 65, count: 1000))
        #expect(small.status == 200)
        #expect(calls.value == 1)
        await daemon.stop()
    }

    @Test func manyConcurrentRequestsAreAllAnswered() async throws {
        let daemon = try MicroHTTPDaemon(configuration: .init(threads: 2)) { request in
            await Task.yield()
            return HTTPResponse(status: 200, body: Data(request.path.utf8))
        }
        let client = HTTPClient(port: daemon.port)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let answer = try await client.send("GET", "/n/\(index)")
                    #expect(answer.text == "/n/\(index)")
                }
            }
            try await group.waitForAll()
        }
        await daemon.stop()
    }

    @Test func theImmediateHandlerAnswersOnMHDsThreadAndLeavesTheRestToTheAsyncOne() async throws {
        let calls = CallCounter()
        let daemon = try MicroHTTPDaemon(
            configuration: .init(),
            immediate: { request in
                guard request.path == "/now" else { return nil }
                return HTTPResponse(status: 200, body: Data("now \(request.values("a")) \(request.body.count)".utf8))
            }
        ) { request in
            calls.increment()
            return HTTPResponse(status: 202, body: Data("later \(request.body.count)".utf8))
        }
        let client = HTTPClient(port: daemon.port)
        let now = try await client.send("POST", "/now?a=1", body: Data("ab".utf8))
        #expect(now.status == 200)
        #expect(now.text == #"now ["1"] 2"#)
        let later = try await client.send("POST", "/later", body: Data("abc".utf8))
        #expect(later.status == 202)
        #expect(later.text == "later 3")
        #expect(calls.value == 1)
        await daemon.stop()
    }

    @Test func aHostThatIsNotAnAddressIsRefused() {
        #expect(throws: HTTPServerError.invalidHost("example.com")) {
            _ = try MicroHTTPDaemon(configuration: .init(host: "example.com")) { _ in HTTPResponse(status: 200) }
        }
    }
}

final class CallCounter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

@Suite struct FastJSONTests {
    @Test func theFastAnswersDecodeAsTheModelsAndEscapingFallsBack() throws {
        let history = HistoryResponse(
            revision: "YToy", hasMore: true, bundleId: "com.a.b", appAppleId: 12, environment: "Sandbox",
            signedTransactions: ["a.b.c", "d-e_f.g.h"])
        let fast = try #require(FastJSON.encode(history))
        #expect(try JSONDecoder().decode(HistoryResponse.self, from: fast) == history)
        let info = TransactionInfoResponse(signedTransactionInfo: "x.y.z")
        #expect(
            try JSONDecoder().decode(TransactionInfoResponse.self, from: try #require(FastJSON.encode(info))) == info)
        #expect(FastJSON.encode(TransactionInfoResponse(signedTransactionInfo: "a\"b")) == nil)
        #expect(FastJSON.encode(HistoryResponse(bundleId: "a\\b")) == nil)
    }

    @Test func theFastAnswersWriteEveryPlainCharacterAsIsInTheModelsOrder() throws {
        // JSONEncoder on Linux orders members by a seeded hash, so its bytes are compared for
        // one member only, and the decoded model for the rest.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let printable = String(
            (0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }.filter { $0 != "\"" && $0 != "\\" })
        let history = HistoryResponse(
            revision: "YToy", hasMore: false, bundleId: printable, appAppleId: -7, environment: "Sandbox",
            signedTransactions: ["a.b.c", printable, ""])
        let fast = try #require(FastJSON.encode(history))
        #expect(
            String(decoding: fast, as: UTF8.self)
                == #"{"revision":"YToy","hasMore":false,"bundleId":"\#(printable)","appAppleId":-7,"environment":"Sandbox","signedTransactions":["a.b.c","\#(printable)",""]}"#
        )
        #expect(try JSONDecoder().decode(HistoryResponse.self, from: fast) == history)
        #expect(FastJSON.encode(HistoryResponse(hasMore: true)) == Data(#"{"hasMore":true}"#.utf8))
        let info = TransactionInfoResponse(signedTransactionInfo: printable)
        #expect(FastJSON.encode(info) == (try encoder.encode(info)))
    }

    @Test func everyCharacterThatNeedsEscapingIsFoundWhereverItIs() {
        // Eight bytes at a time, then one by one: each bad character at each position.
        for bad in ["\"", "\\", "\n", "\u{1}", "\u{1F}", "é", "\u{80}"] {
            for position in 0..<20 {
                let text = String(repeating: "a", count: position) + bad + String(repeating: "Z", count: 19 - position)
                #expect(!FastJSON.isPlain(text), "\(bad.debugDescription) at \(position)")
            }
        }
        #expect(FastJSON.isPlain("eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2ln-_"))
        #expect(FastJSON.isPlain(""))
    }
}
