import Crypto
import Foundation
import Receipts
import StoreKitValues

/// Issue, decode and verify an app receipt with 10,000 in-app purchases, beside
/// `openssl cms -verify` plus `openssl asn1parse` of the same file in the same run.
struct ReceiptsBench: BenchSection {
    let name = "receipts"
    let summary = "decode + verify a 10,000-purchase receipt (peer: openssl cms -verify + openssl asn1parse, same file)"
    var purchases = 10_000
    var runs = 5

    typealias Mismatch = BenchFailure

    func run(_ report: BenchReport) throws {
        try ScratchDirectory.with("receipts") { try run(report, in: $0) }
    }

    private func run(_ report: BenchReport, in directory: URL) throws {
        let created = Date(timeIntervalSince1970: 1_767_225_600)
        // RSA 2048, as Apple signs receipts.
        let authority = try CertificateAuthority.create(
            configuration: .init(keyKind: .rsa(bits: 2048)), now: created.addingTimeInterval(-86_400)
        ).authority
        let signer = ReceiptSigner(authority: authority)
        let small = receipt(purchases / 10, created: created)
        let large = receipt(purchases, created: created)

        // Issuing: O(N) shows as ≈10× the time for 10× the purchases.
        let issueSmall = try Timing.measure(runs: runs) { _ = try signer.sign(small) }
        var der: [UInt8] = []
        let issueLarge = try Timing.measure(runs: runs) { der = try signer.sign(large) }
        let file = directory.appendingPathComponent("receipt.der")
        try Data(der).write(to: file)
        let rootFile = directory.appendingPathComponent("root.pem")
        try authority.root.pemRepresentation.write(to: rootFile, atomically: true, encoding: .utf8)
        report.line(
            "receipt file", BenchReport.bytes(der.count),
            "\(purchases) in-app purchases, RSA 2048 / SHA-256, \(runs) runs each")

        // Ours: decode alone, and decode + signature + chain (what the verifier does).
        let decoder = ReceiptDecoder()
        let validator = try ReceiptValidator(trustedRoots: [authority.root.derRepresentation])
        guard try decoder.decode(der).inApp.count == purchases,
            validator.validate(der).receipt?.inApp.count == purchases
        else { throw Mismatch(description: "the issued receipt did not decode and verify with \(purchases) purchases") }
        let decode = try Timing.measure(runs: runs) { _ = try decoder.decode(der) }
        let verify = Timing.measure(runs: runs) { _ = validator.validate(der) }
        let readFile = try Timing.measure(runs: runs) {
            _ = try ReceiptValidator(trustedRoots: [authority.root.derRepresentation]).validate(
                Array(Data(contentsOf: file)))
        }

        // The peer: OpenSSL's command line verifying the same file, then parsing the payload it wrote.
        let payload = directory.appendingPathComponent("payload.der")
        let attime = String(Int(created.timeIntervalSince1970))
        let cmsArguments = [
            "cms", "-verify", "-inform", "DER", "-in", file.path, "-CAfile", rootFile.path,
            "-purpose", "any", "-attime", attime, "-out", payload.path,
        ]
        let cms = try Timing.measure(runs: runs) { try ChildProcess.run("openssl", cmsArguments) }
        guard Array(try Data(contentsOf: payload)) == ReceiptEncoder().encodePayload(large) else {
            throw Mismatch(description: "openssl cms -verify did not return our payload")
        }
        let asn1parse = try Timing.measure(runs: runs) {
            try ChildProcess.run(
                "openssl", ["asn1parse", "-inform", "DER", "-in", payload.path, "-out", "/dev/null", "-noout"])
        }
        let asn1parsePrint = try Timing.measure(runs: runs) {
            try ChildProcess.run("openssl", ["asn1parse", "-inform", "DER", "-in", payload.path, "-i"])
        }
        let startup = try Timing.measure(runs: runs) { try ChildProcess.run("openssl", ["version"]) }
        let peer = cms.median + asn1parsePrint.median

        report.line(
            "issue (encode + sign) \(purchases / 10) purchases", BenchReport.duration(issueSmall.median),
            issueSmall.summary)
        report.line(
            "issue (encode + sign) \(purchases) purchases", BenchReport.duration(issueLarge.median), issueLarge.summary)
        report.line(
            "  issue 10× purchases / issue 1×", BenchReport.ratio(issueLarge.median / max(issueSmall.median, 1e-9)),
            "≈10× means linear in N")
        report.line("ReceiptDecoder.decode (bytes → model)", BenchReport.duration(decode.median), decode.summary)
        report.line("ReceiptValidator.validate (decode+CMS+chain)", BenchReport.duration(verify.median), verify.summary)
        report.line("  same, from the file with root parsing", BenchReport.duration(readFile.median), readFile.summary)
        report.line("openssl cms -verify (same file)", BenchReport.duration(cms.median), cms.summary)
        report.line(
            "openssl asn1parse -i of the payload", BenchReport.duration(asn1parsePrint.median), asn1parsePrint.summary)
        report.line(
            "  openssl asn1parse -noout (parse only)", BenchReport.duration(asn1parse.median), asn1parse.summary)
        report.line("  openssl version (process startup)", BenchReport.duration(startup.median), startup.summary)
        report.line(
            "validate / (cms -verify + asn1parse)", BenchReport.ratio(verify.median / peer),
            "below 1× means faster than the openssl tools")
        let peerWork = max(peer - 2 * startup.median, 1e-9)
        report.line(
            "validate / same, minus 2 process startups", BenchReport.ratio(verify.median / peerWork),
            "OpenSSL's work only; it prints a tree, we build the typed model")
        report.line(
            "decode+verify throughput", String(format: "%.0f purchases/ms", Double(purchases) / verify.median / 1000))
    }

    private func receipt(_ count: Int, created: Date) -> AppReceipt {
        let purchases = (0..<count).map { index -> InAppPurchaseReceipt in
            let date = created.addingTimeInterval(Double(-60 * (count - index)))
            let subscription = index % 3 == 0
            return InAppPurchaseReceipt(
                quantity: 1, productID: subscription ? "com.example.pro.monthly" : "com.example.coins.\(index % 7)",
                transactionID: String(2_000_000_000_000 + index),
                originalTransactionID: String(2_000_000_000_000 + index - index % 3),
                purchaseDate: date, originalPurchaseDate: date,
                productType: subscription ? .autoRenewableSubscription : .consumable,
                expiresDate: subscription ? date.addingTimeInterval(30 * 86_400) : nil,
                webOrderLineItemID: subscription ? Int64(1_000_000_000 + index) : nil, isInIntroOfferPeriod: false)
        }
        return AppReceipt(
            receiptType: .xcode, appItemID: 0, bundleID: "com.example.storefront", appVersion: "1",
            opaqueValue: Array(0..<16),
            sha1Hash: Array(repeating: 7, count: 20), creationDate: created, originalAppVersion: "1.0", inApp: purchases
        )
    }
}
