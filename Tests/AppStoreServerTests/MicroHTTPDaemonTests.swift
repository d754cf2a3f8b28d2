import Foundation
import TestSupport
import Testing
@testable import AppStoreServer

@Suite struct MicroHTTPDaemonTests {
    @Test func answersThroughTheAsyncHandlerWithQueryHeadersAndBody() async throws {
        let daemon = try MicroHTTPDaemon(configuration: .init()) { request in
            let summary = "\(request.method) \(request.path) \(request.values("a")) \(request.header("X-Test") ?? "-") \(request.body.count)"
            return HTTPResponse(status: 201, headers: [.init("X-Echo", "yes")], body: Data(summary.utf8))
        }
        let client = HTTPClient(port: daemon.port)
        let answer = try await client.send("PUT", "/p/q%20r?a=1&a=2&b", headers: ["X-Test": "t"], body: Data("hello".utf8))
        #expect(answer.status == 201)
        #expect(answer.headers["x-echo"] == "yes")
        #expect(answer.text == #"PUT /p/q r ["1", "2"] t 5"#)
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

    @Test func aHostThatIsNotAnAddressIsRefused() {
        #expect(throws: HTTPServerError.invalidHost("example.com")) {
            _ = try MicroHTTPDaemon(configuration: .init(host: "example.com")) { _ in HTTPResponse(status: 200) }
        }
    }
}

import Synchronization

final class CallCounter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}

@Suite struct FastJSONTests {
    @Test func theFastAnswersDecodeAsTheModelsAndEscapingFallsBack() throws {
        let history = HistoryResponse(revision: "YToy", hasMore: true, bundleId: "com.a.b", appAppleId: 12, environment: "Sandbox", signedTransactions: ["a.b.c", "d-e_f.g.h"])
        let fast = try #require(FastJSON.encode(history))
        #expect(try JSONDecoder().decode(HistoryResponse.self, from: fast) == history)
        let info = TransactionInfoResponse(signedTransactionInfo: "x.y.z")
        #expect(try JSONDecoder().decode(TransactionInfoResponse.self, from: try #require(FastJSON.encode(info))) == info)
        #expect(FastJSON.encode(TransactionInfoResponse(signedTransactionInfo: "a\"b")) == nil)
        #expect(FastJSON.encode(HistoryResponse(bundleId: "a\\b")) == nil)
    }
}
