import Foundation
import TestSupport
import Testing

@testable import StoreCore

/// The verifyReceipt client against a real HTTP server on 127.0.0.1.
@Suite struct RemoteReceiptVerifierTests {
    func verifier(
        _ server: VerifyReceiptServer, timeout: TimeInterval = 5, startWithSandbox: Bool = false
    ) -> RemoteReceiptVerifier {
        RemoteReceiptVerifier(
            configuration: .init(
                productionURL: server.productionURL, sandboxURL: server.sandboxURL, sharedSecret: "s3cret",
                excludeOldTransactions: true, bundleID: "com.example.storefront", timeout: timeout,
                startWithSandbox: startWithSandbox))
    }

    func transaction(_ id: String, state: TransactionState = .purchased, original: String? = nil) -> Transaction {
        Transaction(
            transactionID: id, originalTransactionID: original, productID: "p", productType: .nonConsumable,
            payment: Payment(productID: "p"), state: state, purchaseDate: Date(timeIntervalSince1970: 1_767_225_600))
    }

    func receipt(_ scenario: String) -> Data { Data(scenario.utf8) }

    @Test func validReceiptAsksProductionOnlyAndSendsTheProtocolFields() async throws {
        let server = try VerifyReceiptServer()
        defer { server.stop() }
        let outcome = await verifier(server).verify(transaction("42"), receipt: receipt("ok:42"))
        #expect(outcome == .valid)
        let requests = try await server.requests()
        #expect(requests.map(\.path) == ["/production"])
        let body = try #require(requests.first?.body)
        #expect(body["receipt-data"] as? String == receipt("ok:42").base64EncodedString())
        #expect(body["password"] as? String == "s3cret")
        #expect(body["exclude-old-transactions"] as? Bool == true)
    }

    @Test func sandboxReceiptGoesToTheSandboxOn21007() async throws {
        let server = try VerifyReceiptServer()
        defer { server.stop() }
        #expect(await verifier(server).verify(transaction("7"), receipt: receipt("sandbox:7")) == .valid)
        #expect(try await server.requests().map(\.path) == ["/production", "/sandbox"])
    }

    @Test func productionReceiptGoesToProductionOn21008() async throws {
        let server = try VerifyReceiptServer()
        defer { server.stop() }
        let result = await verifier(server, startWithSandbox: true).verifyReceipt(receipt("production:9"))
        #expect(try result.get().status == 0)
        #expect(try await server.requests().map(\.path) == ["/sandbox", "/production"])
    }

    @Test func redirectsAreFollowedOnlyOnce() async throws {
        let server = try VerifyReceiptServer()
        defer { server.stop() }
        let result = await verifier(server).verifyReceipt(receipt("status:21007"))
        #expect(result == .failure(.sandboxReceiptSentToProduction))
        #expect(try await server.requests().map(\.path) == ["/production", "/sandbox"])
    }

    @Test func everyStatusCodeMapsToATypedErrorAndNeverToValid() async throws {
        let server = try VerifyReceiptServer()
        defer { server.stop() }
        let verifier = verifier(server)
        let named: [Int: VerifyReceiptError] = [
            21000: .requestNotPost, 21001: .unusedStatus21001, 21002: .malformedReceiptData,
            21003: .receiptNotAuthenticated, 21004: .sharedSecretMismatch, 21005: .serverUnavailable,
            21006: .subscriptionExpired, 21007: .sandboxReceiptSentToProduction,
            21008: .productionReceiptSentToSandbox, 21009: .internalDataAccessError, 21010: .accountNotFound,
        ]
        for status in Array(21000...21010) + Array(21100...21199) + [21011, 21200, 1] {
            let result = await verifier.verifyReceipt(receipt("status:\(status)"))
            let expected: VerifyReceiptError =
                named[status]
                ?? ((21100...21199).contains(status) ? .internalError(status: status) : .unknownStatus(status))
            #expect(result == .failure(expected), "status \(status)")
            let outcome = await verifier.verify(transaction("1"), receipt: receipt("status:\(status)"))
            #expect(outcome != .valid)
            if case .unableToComplete = outcome {
                #expect(expected.isRetryable)
            } else {
                #expect(!expected.isRetryable)
            }
        }
    }

    @Test(arguments: ["garbage", "nostatus", "http500"])
    func brokenAnswersAreUnableToComplete(scenario: String) async throws {
        let server = try VerifyReceiptServer()
        defer { server.stop() }
        let outcome = await verifier(server).verify(transaction("1"), receipt: receipt(scenario))
        guard case .unableToComplete = outcome else {
            Issue.record("got \(outcome)")
            return
        }
    }

    @Test func timeoutIsUnableToComplete() async throws {
        let server = try VerifyReceiptServer()
        defer { server.stop() }
        let outcome = await verifier(server, timeout: 1).verify(transaction("1"), receipt: receipt("hang"))
        guard case .unableToComplete(let reason) = outcome else {
            Issue.record("got \(outcome)")
            return
        }
        #expect(reason.contains("could not be reached"))
    }

    @Test func refusedConnectionIsUnableToComplete() async throws {
        let server = try VerifyReceiptServer()
        let verifier = verifier(server, timeout: 2)
        server.stop()
        guard case .unableToComplete = await verifier.verify(transaction("1"), receipt: receipt("ok:1")) else {
            Issue.record("expected unable to complete")
            return
        }
    }

    @Test func receiptWithoutThisTransactionIsInvalid() async throws {
        let server = try VerifyReceiptServer()
        defer { server.stop() }
        guard case .invalid(let reason) = await verifier(server).verify(transaction("43"), receipt: receipt("ok:42"))
        else {
            Issue.record("expected invalid")
            return
        }
        #expect(reason.contains("43"))
        // A restore may be verified by its original transaction.
        #expect(
            await verifier(server).verify(
                transaction("43", state: .restored, original: "42"), receipt: receipt("ok:42")) == .valid)
    }

    @Test func receiptForAnotherAppIsInvalid() async throws {
        let server = try VerifyReceiptServer()
        defer { server.stop() }
        guard case .invalid = await verifier(server).verify(transaction("5"), receipt: receipt("otherbundle:5")) else {
            Issue.record("expected invalid")
            return
        }
    }
}
