import Foundation
import LocalAppStore
import TestSupport
import Testing

@testable import AppStoreServer

/// The limit is a hang guard: the 10,000 mutated requests took 770 s in a CI run at load 20.
@Suite(.timeLimit(.minutes(30))) struct RobustnessTests {
    @Test func aOneByteAtATimeClientBlocksNobodyAndIsClosedWhenIdle() async throws {
        let fixture = try await ServerFixture(http: .init(threads: 1, connectionTimeoutSeconds: 30))
        let t = try await fixture.buy(ServerFixture.pro)
        let slow = try SlowClient(port: fixture.server.port)
        #expect(await slow.command(nil) == "connected")
        for _ in 0..<8 {
            #expect(await slow.command("byte") == "sent")
            // With a single MHD thread, the slow connection must not hold it.
            let answer = try await fixture.api("GET", "/inApps/v1/transactions/\(t.transactionID)")
            #expect(answer.status == 200)
        }
        #expect(await slow.command("wait") == "closed")
        slow.finish()
        #expect(try await fixture.api("GET", "/inApps/v1/transactions/\(t.transactionID)").status == 200)
        await fixture.close()
    }

    /// A `%00` decodes to a NUL, which must not cut a value short (`25%00xyz` read as `25`):
    /// the request is refused with Apple's error for that parameter and changes nothing.
    @Test func aDecodedNULInThePathOrQueryIsRefusedWithTheParametersError() async throws {
        let fixture = try await ServerFixture()
        let pro = try await fixture.buy(ServerFixture.pro).transactionID
        let sub = try await fixture.buy(ServerFixture.monthly).transactionID
        let before = try fixture.stateFiles()
        let history = "/inApps/v2/history/\(pro)"
        let extend: [String: Any] = ["extendByDays": 1, "extendReasonCode": 0, "requestIdentifier": "nul"]
        for (method, path, body, code) in [
            ("GET", "/inApps/v1/transactions/\(pro)%00xyz", nil, 4_000_006),
            ("GET", "/inApps/v1/transactions/\(pro)%00", nil, 4_000_006),
            ("GET", "/inApps/v2/refund/lookup/\(pro)%00", nil, 4_000_006),
            ("GET", "\(history)?productId=\(ServerFixture.pro)%00garbage", nil, 4_000_023),
            ("GET", "\(history)?productId=\(ServerFixture.pro)%00", nil, 4_000_023),
            ("GET", "\(history)?subscriptionGroupIdentifier=G1%00x", nil, 4_000_024),
            ("GET", "\(history)?sort=ASCENDING%00", nil, 4_000_021),
            ("GET", "\(history)?productId%00x=\(ServerFixture.pro)", nil, 4_000_000),
            ("GET", "/inApps/v1/subscriptions/\(sub)?status=1%00", nil, 4_000_031),
            ("GET", "/inApps/v1/subscriptions/extend/mass/\(ServerFixture.monthly)%00/r", nil, 4_000_023),
            ("PUT", "/inApps/v1/subscriptions/extend/\(sub)%00", extend as Any?, 4_000_008),
        ] as [(String, String, Any?, Int)] {
            let answer = try await fixture.api(method, path, body: body)
            #expect(answer.status == 400, "\(path)")
            #expect(try answer.json()["errorCode"] as? Int == code, "\(path)")
        }
        #expect(try fixture.stateFiles() == before)
        await fixture.close()
    }

    @Test func oversizedBodiesGet413AndChangeNothing() async throws {
        let fixture = try await ServerFixture()
        let t = try await fixture.buy(ServerFixture.coins)
        let before = try fixture.stateFiles()
        let huge = Data(repeating: UInt8(ascii: " "), count: (1 << 20) + 1)
        // A client that sends its body at once has it read and dropped before the 413 (a reset
        // mid-body would be an EPIPE here); one that waits for "100 Continue" is answered first.
        for expect in [nil, "100-continue"] {
            var headers = ["Authorization": "Bearer \(try fixture.token())"]
            headers["Expect"] = expect
            let answer = try await fixture.client.send(
                "PUT", "/inApps/v2/transactions/consumption/\(t.transactionID)", headers: headers, body: huge)
            #expect(answer.status == 413)
            let receipt = try await fixture.client.send("POST", "/verifyReceipt", headers: headers, body: huge)
            #expect(receipt.status == 413)
        }
        #expect(try fixture.stateFiles() == before)
        await fixture.close()
    }

    /// Every request goes through the server's whole answer (routing, token, parsing, the store);
    /// every tenth also over HTTP through libmicrohttpd, so the suite's time stays small.
    @Test func tenThousandMutatedRequestsAreAllAnsweredAndRejectedOnesChangeNothing() async throws {
        let fixture = try await ServerFixture()
        let coins = try await fixture.buy(ServerFixture.coins)
        let sub = try await fixture.buy(ServerFixture.monthly)
        let token = try fixture.token()
        let receipt = try #require(await fixture.store.appReceipt()).base64EncodedString()
        let bases: [(String, String, String?)] = [
            ("GET", "/inApps/v1/transactions/\(coins.transactionID)", nil),
            ("GET", "/inApps/v2/history/\(coins.transactionID)?sort=DESCENDING&productType=CONSUMABLE", nil),
            ("GET", "/inApps/v1/history/\(sub.transactionID)?revoked=false", nil),
            ("GET", "/inApps/v1/subscriptions/\(sub.transactionID)?status=1", nil),
            ("GET", "/inApps/v1/lookup/\(OrderID.make(transactionID: coins.transactionID)!)", nil),
            ("GET", "/inApps/v2/refund/lookup/\(coins.transactionID)", nil),
            ("GET", "/inApps/v1/transactions/appTransactions/\(coins.transactionID)", nil),
            (
                "PUT", "/inApps/v1/subscriptions/extend/\(sub.originalTransactionID)",
                #"{"extendByDays":3,"extendReasonCode":1,"requestIdentifier":"fuzz"}"#
            ),
            (
                "POST", "/inApps/v1/subscriptions/extend/mass",
                #"{"extendByDays":3,"extendReasonCode":1,"requestIdentifier":"m","productId":"com.test.plus.monthly"}"#
            ),
            (
                "PUT", "/inApps/v2/transactions/consumption/\(coins.transactionID)",
                #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#
            ),
            (
                "PUT", "/inApps/v1/transactions/\(coins.transactionID)/appAccountToken",
                #"{"appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138"}"#
            ),
            ("POST", "/verifyReceipt", #"{"receipt-data":"\#(receipt)","exclude-old-transactions":true}"#),
        ]
        var random = SeededGenerator(state: 0x5EED_0014)
        var journal = try fixture.stateFiles()
        var answered = 0
        var statuses: [Int: Int] = [:]
        for _ in 0..<10_000 {
            let base = bases[Int.random(in: 0..<bases.count, using: &random)]
            var (method, path, body) = (base.0, base.1, base.2)
            var authorization: String? = "Bearer \(token)"
            let mutations = Int.random(in: 1...3, using: &random)
            for _ in 0..<mutations {
                switch Int.random(in: 0..<8, using: &random) {
                case 0:
                    method = ["GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS", "FOO"].randomElement(
                        using: &random)!
                case 1: path = Self.mutate(path, using: &random)
                case 2:
                    path +=
                        (path.contains("?") ? "&" : "?") + [
                            "sort=", "revision=%FF", "startDate=99999999999999999999", "status=-1", "productId=",
                            "a=b=c",
                        ].randomElement(using: &random)!
                case 3:
                    authorization = Bool.random(using: &random) ? nil : Self.mutate(authorization ?? "", using: &random)
                case 4: body = body.map { Self.mutate($0, using: &random) } ?? #"{"x":1}"#
                case 5:
                    body = [
                        #"{"extendByDays":"7"}"#, "[]", "null", "{", #"{"appAccountToken":5}"#,
                        #"{"customerConsented":"yes"}"#, #"{"receipt-data":12}"#, "\u{0}\u{1}",
                    ].randomElement(using: &random)!
                case 6: body = String(repeating: "[", count: Int.random(in: 1...5000, using: &random))
                default:
                    path = path.replacingOccurrences(
                        of: coins.transactionID,
                        with: ["0", "-1", "99999999999999999999999", "abc", "%20", ""].randomElement(using: &random)!)
                }
            }
            if method == "GET" || method == "HEAD" { body = nil }
            var headers = ["Content-Type": "application/json"]
            if let authorization { headers["Authorization"] = authorization }
            let target = Self.encoded(path)
            let status: Int
            if answered % 10 == 0 {
                status = try await fixture.client.send(
                    method, target, headers: headers, body: body.map { Data($0.utf8) }
                ).status
            } else {
                let components = URLComponents(string: "http://127.0.0.1" + target)
                let request = HTTPRequest(
                    method: method, path: components?.path ?? "/",
                    query: (components?.queryItems ?? []).map { HTTPRequest.QueryItem(name: $0.name, value: $0.value) },
                    headers: Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) }),
                    body: body.map { Data($0.utf8) } ?? Data())
                status = await fixture.server.answer(request).status
            }
            let answer = (status: status, ())
            answered += 1
            statuses[answer.status, default: 0] += 1
            #expect((200..<600).contains(answer.status))
            let now = try fixture.stateFiles()
            if answer.status >= 300 || (method == "POST" && path.hasPrefix("/verifyReceipt")) {
                #expect(now == journal, "\(method) \(path) answered \(answer.status) and changed the journal")
            }
            journal = now
        }
        #expect(answered == 10_000)
        #expect(statuses.keys.contains { $0 >= 400 } && statuses.keys.contains(200))
        #expect(try await fixture.api("GET", "/inApps/v1/transactions/\(coins.transactionID)").status == 200)
        await fixture.close()
    }

    /// Replaces, inserts or deletes one character.
    static func mutate(_ text: String, using random: inout SeededGenerator) -> String {
        var characters = Array(text)
        let alphabet = Array("/?&=%.-_aZ09 {}[]\":,\\\u{7F}é")
        let index = characters.isEmpty ? 0 : Int.random(in: 0..<characters.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0 where !characters.isEmpty: characters[index] = alphabet.randomElement(using: &random)!
        case 1: characters.insert(alphabet.randomElement(using: &random)!, at: index)
        default: if !characters.isEmpty { characters.remove(at: index) }
        }
        return String(characters)
    }

    /// A path and query that URLSession accepts: characters a URL cannot hold are percent-encoded.
    static func encoded(_ pathAndQuery: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.insert(charactersIn: "?&=%")
        let path = pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? "/"
        return URL(string: "http://127.0.0.1" + encoded) == nil ? "/" : encoded
    }
}
