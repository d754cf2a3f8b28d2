import Crypto
import Foundation
import Testing

@testable import AppStoreServer

@Suite struct AuthenticationTests {
    @Test func everyBadTokenGets401WithNoBodyAndChangesNothing() async throws {
        let fixture = try await ServerFixture()
        let t = try await fixture.buy(ServerFixture.pro)
        let now = fixture.clock.now.timeIntervalSince1970
        let other = try PrivateKey.generate(.p256)
        let bad: [String: String?] = [
            "missing": nil,
            "not bearer": "Basic abc",
            "malformed": "Bearer a.b",
            "garbage": "Bearer !!!.???.***",
            "wrong key": "Bearer " + (try fixture.token(key: other)),
            "wrong kid": "Bearer " + (try fixture.token { $0.kid = "OTHERKEY00" }),
            "no kid": "Bearer " + (try fixture.token { $0.kid = nil }),
            "wrong alg": "Bearer " + (try fixture.token { $0.alg = "HS256" }),
            "wrong audience": "Bearer " + (try fixture.token { $0.aud = "appstoreconnect-v2" }),
            "wrong bundle": "Bearer " + (try fixture.token { $0.bid = "com.other.app" }),
            "wrong issuer": "Bearer " + (try fixture.token { $0.iss = UUID().uuidString.lowercased() }),
            "expired": "Bearer "
                + (try fixture.token {
                    $0.iat = now - 600
                    $0.exp = now - 1
                }),
            "too long lived": "Bearer " + (try fixture.token { $0.exp = now + 3601 }),
            "no exp": "Bearer " + (try fixture.token { $0.exp = nil }),
            "from the future": "Bearer "
                + (try fixture.token {
                    $0.iat = now + 600
                    $0.exp = now + 900
                }),
        ]
        let before = try fixture.stateFiles()
        for (name, authorization) in bad {
            for (method, path, body) in [
                ("GET", "/inApps/v1/transactions/\(t.transactionID)", nil as Data?),
                (
                    "PUT", "/inApps/v1/transactions/\(t.transactionID)/appAccountToken",
                    Data(#"{"appAccountToken":"\#(UUID())"}"#.utf8)
                ),
            ] {
                var headers: [String: String] = ["Content-Type": "application/json"]
                if let authorization { headers["Authorization"] = authorization }
                let answer = try await fixture.client.send(method, path, headers: headers, body: body)
                #expect(answer.status == 401, "\(name) \(method)")
                #expect(answer.body.isEmpty, "\(name)")
            }
        }
        #expect(try fixture.stateFiles() == before)
        await fixture.close()
    }

    @Test func aTokenWithoutIatAsPythonsLibraryMakesIsAccepted() async throws {
        let fixture = try await ServerFixture()
        let t = try await fixture.buy(ServerFixture.pro)
        let now = fixture.clock.now.timeIntervalSince1970
        let token = try fixture.token {
            $0.iat = nil
            $0.exp = now + 300
        }
        let answer = try await fixture.client.send(
            "GET", "/inApps/v1/transactions/\(t.transactionID)", headers: ["Authorization": "Bearer \(token)"])
        #expect(answer.status == 200)
        let expiredByTheStoreClock = try fixture.token {
            $0.iat = nil
            $0.exp = now + 300
        }
        fixture.clock.advance(by: 301)
        let late = try await fixture.client.send(
            "GET", "/inApps/v1/transactions/\(t.transactionID)",
            headers: ["Authorization": "Bearer \(expiredByTheStoreClock)"])
        #expect(late.status == 401)
        await fixture.close()
    }
}
