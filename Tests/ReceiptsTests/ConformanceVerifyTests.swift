import Foundation
import StoreKitValues
import Testing

@testable import Receipts

/// Each real receipt verifies against the root named in expected.json at its creation date,
/// is rejected by the other root, and its hash checks with the given device identifier only.
@Suite struct ConformanceVerifyTests {
    private func signature(_ name: String) throws -> [String: String] {
        let expected = try #require(try ConformanceFixtures.expected()[name])
        return try #require(expected["signature"] as? [String: String])
    }

    /// A validator trusting only the root that `name`'s signature facts give under `key`
    /// (`trustedRoot` or `mustRejectWithRoot`).
    private func validatorTrusting(_ key: String, of name: String) throws -> ReceiptValidator {
        let rootName = try #require(try signature(name)[key])
        return try ReceiptValidator(trustedRoots: [ConformanceFixtures.bytes(rootName)])
    }

    @Test(arguments: ConformanceFixtures.receiptNames)
    func verifiesAgainstNamedRootAtCreationDate(name: String) throws {
        let validator = try validatorTrusting("trustedRoot", of: name)
        let verifyAt = try #require(ConformanceFixtures.date(try signature(name)["verifyAt"]))
        let result = validator.validate(try ConformanceFixtures.bytes(name), at: verifyAt)
        #expect(result.receipt != nil, "\(String(describing: result.reason))")
        // Without a date, the receipt's own creation date is used.
        #expect(validator.validate(try ConformanceFixtures.bytes(name)).receipt != nil)
    }

    @Test(arguments: ConformanceFixtures.receiptNames)
    func rejectedByTheOtherRoot(name: String) throws {
        let validator = try validatorTrusting("mustRejectWithRoot", of: name)
        let result = validator.validate(try ConformanceFixtures.bytes(name))
        guard case .invalid(.untrustedChain) = result else {
            Issue.record("expected an untrusted chain, got \(result)")
            return
        }
    }

    @Test func appleReceiptsFailAtTodaysDateBecauseTheirSignerExpired() throws {
        let validator = try validatorTrusting("trustedRoot", of: "receipt-production.b64")
        let later = try #require(ConformanceFixtures.date("2030-01-01T00:00:00Z"))
        guard
            case .invalid(.certificateExpired) = validator.validate(
                try ConformanceFixtures.bytes("receipt-production.b64"), at: later)
        else {
            Issue.record("expected an expired certificate at 2030")
            return
        }
    }

    @Test func deviceHashChecksWithTheGivenIdentifierOnly() throws {
        let all = try ConformanceFixtures.expected()
        let withHash = all.filter { $0.value["hash"] != nil }
        try #require(!withHash.isEmpty)
        for (name, expected) in withHash {
            let hash = try #require(expected["hash"] as? [String: String])
            let uuid = try #require(hash["deviceIdentifierUUID"])
            let identifier = try #require(ReceiptValidator.deviceIdentifier(uuid: uuid))
            let validator = try validatorTrusting("trustedRoot", of: name)
            let bytes = try ConformanceFixtures.bytes(name)
            let good = validator.validate(bytes, expecting: .init(deviceIdentifier: identifier))
            #expect(good.receipt != nil, "\(String(describing: good.reason))")
            for position in [0, 7, 15] {
                var other = identifier
                other[position] ^= 0x01
                #expect(
                    validator.validate(bytes, expecting: .init(deviceIdentifier: other))
                        == .invalid(.deviceHashMismatch))
            }
            #expect(
                validator.validate(bytes, expecting: .init(deviceIdentifier: Array(identifier.prefix(15))))
                    == .invalid(.deviceHashMismatch))
        }
    }

    @Test func bundleIDAndVersionExpectations() throws {
        let validator = try ReceiptValidator(trustedRoots: [ConformanceFixtures.bytes("StoreKitTestCertificate.cer")])
        let bytes = try ConformanceFixtures.bytes("receipt-xcode-with-purchases.b64")
        let expected = try #require(try ConformanceFixtures.expected()["receipt-xcode-with-purchases.b64"])
        let bundleID = try #require(expected["bundleID"] as? String)
        let version = try #require(expected["appVersion"] as? String)
        #expect(validator.validate(bytes, expecting: .init(bundleID: bundleID, appVersion: version)).receipt != nil)
        #expect(
            validator.validate(bytes, expecting: .init(bundleID: "com.example.other"))
                == .invalid(.bundleIDMismatch(expected: "com.example.other", found: bundleID)))
        #expect(
            validator.validate(bytes, expecting: .init(appVersion: version + "0"))
                == .invalid(.appVersionMismatch(expected: version + "0", found: version)))
    }

    @Test func misconfigurationThrows() {
        #expect(throws: ReceiptValidatorError.noTrustedRoot) { try ReceiptValidator(trustedRoots: []) }
        #expect(throws: ReceiptValidatorError.self) { try ReceiptValidator(trustedRoots: [[0x30, 0x01, 0x00]]) }
    }
}
