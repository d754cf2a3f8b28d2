import Foundation
import LocalAppStore
import Receipts
import StoreCore
import Testing

@testable import AppStoreServer

/// The server signs through the store's one signing path, under the store's settings: its JWS
/// are the app's, its answers say the `environment` and `app-apple-id` settings, and an app
/// account token set through the API reaches the app's transactions too.
@Suite struct ServerSigningTests {
    @Test func theServersSignedTransactionsAreTheAppsOwn() async throws {
        let fixture = try await ServerFixture()
        let pro = try await fixture.buy(ServerFixture.pro)
        let sub = try await fixture.buy(ServerFixture.monthly)
        let engine = try #require(pro.signedTransaction)
        let answer = try await fixture.api("GET", "/inApps/v1/transactions/\(pro.transactionID)")
        #expect(try answer.json()["signedTransactionInfo"] as? String == engine)
        let history = try await fixture.api("GET", "/inApps/v2/history/\(pro.transactionID)")
        let listed = try #require(try history.json()["signedTransactions"] as? [String])
        let apps = try await fixture.store.transactionManager.history().compactMap(\.signedTransaction)
        #expect(listed == apps)

        // Renewal info: the engine's payload, field for field (each is signed when asked).
        let statuses = try await fixture.api("GET", "/inApps/v1/subscriptions/\(sub.transactionID)")
        let groups = try #require(try statuses.json()["data"] as? [[String: Any]])
        let last = try #require((groups.first?["lastTransactions"] as? [[String: Any]])?.first)
        let served = try ServerFixture.payload(try #require(last["signedRenewalInfo"] as? String))
        let engineInfo = try #require(await fixture.store.renewalInfo().first?.signedRenewalInfo)
        var expected = try ServerFixture.payload(engineInfo)
        var actual = served
        expected["signedDate"] = nil
        actual["signedDate"] = nil
        #expect(NSDictionary(dictionary: actual) == NSDictionary(dictionary: expected))
        #expect(actual["renewalPrice"] as? Int == 2990)
        #expect(actual["currency"] as? String == "USD")
        #expect(last["signedTransactionInfo"] as? String == sub.signedTransaction)
        await fixture.close()
    }

    @Test func answersFollowTheEnvironmentAndAppAppleIDSettings() async throws {
        let fixture = try await ServerFixture()
        let pro = try await fixture.buy(ServerFixture.pro)
        try await fixture.store.settings.set(name: "app-apple-id", value: "6543210987")
        try await fixture.store.settings.set(name: "environment", value: "Production")
        let history = try await fixture.api("GET", "/inApps/v2/history/\(pro.transactionID)")
        let json = try history.json()
        #expect(json["environment"] as? String == "Production")
        #expect(json["appAppleId"] as? Int == 6_543_210_987)
        let jws = try #require((json["signedTransactions"] as? [String])?.first)
        #expect(try ServerFixture.payload(jws)["environment"] as? String == "Production")
        // The app's copy of the transaction is signed for Production too, and is the same JWS.
        let apps = try await fixture.store.transactionManager.history()
        #expect(apps.first?.signedTransaction == jws)
        let app = try await fixture.api("GET", "/inApps/v1/transactions/appTransactions/\(pro.transactionID)")
        let appPayload = try ServerFixture.payload(try #require(try app.json()["signedAppTransactionInfo"] as? String))
        #expect(appPayload["receiptType"] as? String == "Production")
        #expect(appPayload["appAppleId"] as? Int == 6_543_210_987)

        try await fixture.store.settings.set(name: "environment", value: "Sandbox")
        let back = try await fixture.api("GET", "/inApps/v1/transactions/\(pro.transactionID)")
        let sandbox = try ServerFixture.payload(try #require(try back.json()["signedTransactionInfo"] as? String))
        #expect(sandbox["environment"] as? String == "Sandbox")
        await fixture.close()
    }

    @Test func aServerAnsweringAsAnotherEnvironmentSignsAsIt() async throws {
        let fixture = try await ServerFixture(environment: .production)
        let pro = try await fixture.buy(ServerFixture.pro)
        let answer = try await fixture.api("GET", "/inApps/v1/transactions/\(pro.transactionID)")
        let jws = try #require(try answer.json()["signedTransactionInfo"] as? String)
        #expect(try ServerFixture.payload(jws)["environment"] as? String == "Production")
        // The app's stays the store's (Sandbox).
        #expect(try ServerFixture.payload(try #require(pro.signedTransaction))["environment"] as? String == "Sandbox")
        await fixture.close()
    }

    @Test func anAppAccountTokenSetThroughTheAPIReachesTheAppsTransactionsAndRenewals() async throws {
        let fixture = try await ServerFixture()
        let sub = try await fixture.buy(ServerFixture.monthly)
        let token = UUID()
        let set = try await fixture.api(
            "PUT", "/inApps/v1/transactions/\(sub.transactionID)/appAccountToken",
            body: ["appAccountToken": token.uuidString])
        #expect(set.status == 200)
        let lowercase = token.uuidString.lowercased()
        let apps = try await fixture.store.transactionManager.history()
        let app = try #require(apps.first { $0.transactionID == sub.transactionID })
        #expect(
            try ServerFixture.payload(try #require(app.signedTransaction))["appAccountToken"] as? String == lowercase)
        let renewed = try #require(try await fixture.store.subscriptions.renew(sub.transactionID))
        #expect(
            try ServerFixture.payload(try #require(renewed.signedTransaction))["appAccountToken"] as? String
                == lowercase)
        let statuses = try await fixture.api("GET", "/inApps/v1/subscriptions/\(sub.transactionID)")
        let groups = try #require(try statuses.json()["data"] as? [[String: Any]])
        let last = try #require((groups.first?["lastTransactions"] as? [[String: Any]])?.first)
        let info = try ServerFixture.payload(try #require(last["signedRenewalInfo"] as? String))
        #expect(info["appAccountToken"] as? String == lowercase)
        let latest = try ServerFixture.payload(try #require(last["signedTransactionInfo"] as? String))
        #expect(latest["transactionId"] as? String == renewed.transactionID)
        #expect(latest["appAccountToken"] as? String == lowercase)
        // A second token replaces the first everywhere.
        let second = UUID()
        _ = try await fixture.api(
            "PUT", "/inApps/v1/transactions/\(sub.transactionID)/appAccountToken",
            body: ["appAccountToken": second.uuidString])
        let history = try await fixture.api("GET", "/inApps/v2/history/\(sub.transactionID)")
        let tokens = try (try #require(try history.json()["signedTransactions"] as? [String])).map {
            try ServerFixture.payload($0)["appAccountToken"] as? String
        }
        #expect(tokens == [second.uuidString.lowercased(), second.uuidString.lowercased()])
        await fixture.close()
    }
}
