import Foundation
import TestSupport
import Testing

/// The storefront does not read OpenSSL's configuration file
/// (Docs/decisions/0094-openssl-configuration-not-read.md): a machine's `openssl.cnf`, or the one
/// `OPENSSL_CONF` names, changes nothing it signs, hashes or encrypts.
@Suite struct OpenSSLConfigurationTests {
    /// A configuration that activates a provider section naming a module this machine does not
    /// have, with diagnostics on: OpenSSL's fetches all fail once it is read.
    static let brokenConfiguration = """
        config_diagnostics = 1
        openssl_conf = storefront_test_init
        [storefront_test_init]
        providers = storefront_test_providers
        [storefront_test_providers]
        missing = storefront_test_missing
        [storefront_test_missing]
        module = /nonexistent/storefront-test-provider.so
        activate = 1
        """

    @Test func aBuyUnderAConfigurationThatStopsOpenSSLSignsAndKeepsItsVault() throws {
        let cli = try StorefrontCLI(prefix: "e2e-openssl-conf")
        let configuration = cli.scratch.url.appendingPathComponent("openssl.cnf")
        try Data(Self.brokenConfiguration.utf8).write(to: configuration)
        // OpenSSL's own tool, reading it, cannot hash: the file does what it says.
        let tool = try ChildProcess.run(
            .tool("openssl"), ["dgst", "-sha256", configuration.path],
            environment: ["OPENSSL_CONF": configuration.path])
        #expect(tool.status != 0, "\(tool.stdout)")

        let environment = ["OPENSSL_CONF": configuration.path]
        let first = try cli.run(["buy", "com.storefront.demo.coins.100", "--json"], environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        // The second opens the vault the first wrote (its checksums are hashed again) and signs again.
        let second = try cli.run(["buy", "com.storefront.demo.coins.100", "--json"], environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(second.stdout.utf8))
        let purchase = try #require(object as? [String: Any], "\(second.stdout)")
        #expect(purchase["state"] as? String == "purchased")
        let history = try cli.object(["history"])["transactions"] as? [[String: Any]]
        #expect(history?.count == 2)
    }
}
