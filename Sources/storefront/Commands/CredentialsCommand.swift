import AppStoreServer
import Foundation
import LocalAppStore

/// `storefront credentials`: what an app's backend needs to call `storefront serve`.
struct CredentialsCommand: Command {
    let name = "credentials"
    let summary = "Print the key ID, issuer ID, bundle ID, API key and root certificate a backend needs."
    var forms: [UsageForm] { [UsageForm(optional: [GlobalOptions.json, Self.key, Self.keyID, Self.issuerID])] }
    let discussion = """
        Prints what App Store Connect would give an app's backend for the App Store Server
        API, for the local server: the key ID, the issuer ID, the bundle ID, the path of the
        API private key (a PKCS#8 .p8 file, EC P-256, mode 0600: the store's subscription key,
        which also signs promotional offers, as App Store Connect's In-App Purchase key does),
        the root certificate that signed transactions chain to, the environment and the app's
        Apple ID. --key PATH --key-id ID --issuer-id UUID installs your own key instead (kept
        in the data directory for later runs; the store then accepts offers it signs).
        --json prints an object with keyID, issuerID, bundleID, privateKeyPath,
        rootCertificatePath, environment and appAppleID.
        """
    /// `--key PATH`.
    static let key = Option<String>("key", valueName: "PATH", help: "Use this .p8 private key (EC P-256, PEM) instead.")
    /// `--key-id ID`.
    static let keyID = Option<String>("key-id", valueName: "ID", help: "The key ID that goes with --key.")
    /// `--issuer-id UUID`.
    static let issuerID = Option<String>("issuer-id", valueName: "UUID", help: "The issuer ID that goes with --key.")

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard invocation.arguments.isEmpty else { throw .usage("credentials takes no arguments.") }
        let (_, dataDirectory, backend) = try await StoreSession.openBackend(invocation, context: context)
        let key = try invocation.value(Self.key)
        let keyID = try invocation.value(Self.keyID)
        let issuer = try invocation.value(Self.issuerID)
        let given = [key, keyID, issuer].compactMap { $0 }
        let credentials: APICredentials
        do {
            if given.isEmpty {
                credentials = try APICredentials.loadOrCreate(dataDirectory: dataDirectory)
            } else {
                guard given.count == 3, let key, let keyID, let issuer else {
                    throw CLIError.usage("--key, --key-id and --issuer-id go together.")
                }
                credentials = try APICredentials.install(
                    keyPath: Paths.absolute(
                        key, relativeTo: context.currentDirectory, home: context.environment["HOME"]),
                    keyID: keyID, issuerID: issuer, dataDirectory: dataDirectory)
            }
        } catch let error as CLIError {
            throw error
        } catch {
            throw .runtime("cannot set up the API credentials: \(error)")
        }
        let settings: LocalStoreSettings
        do {
            _ = try await backend.receipts.receiptIssuer()
            settings = try await backend.settings.current()
        } catch {
            throw .runtime("cannot read the local App Store: \(error)")
        }
        let rows: [(String, String, JSONText)] = [
            ("keyID", "Key ID", .string(credentials.keyID)),
            ("issuerID", "Issuer ID", .string(credentials.issuerID)),
            ("bundleID", "Bundle ID", .string(backend.configuration.bundleID)),
            ("privateKeyPath", "Private key", .string(credentials.keyPath)),
            ("rootCertificatePath", "Root certificate", .string(backend.receipts.rootCertificateURL.path)),
            ("environment", "Environment", .string(settings.environment.rawValue)),
            ("appAppleID", "App Apple ID", .number(String(settings.appAppleID))),
        ]
        if invocation.global.json {
            context.output.write(JSONText.object(rows.map { ($0.0, $0.2) }).rendered())
            return
        }
        let width = rows.map(\.1.count).max() ?? 0
        context.output.write(
            rows.map { row in
                let value: String
                switch row.2 {
                case .string(let text), .number(let text): value = text
                default: value = row.2.rendered()
                }
                return row.1.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + value
            }.joined(separator: "\n") + "\n")
    }
}
