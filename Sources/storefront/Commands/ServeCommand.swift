import AppStoreServer
import Foundation
import LocalAppStore
import Receipts
import StoreKitValues
import SystemIO

/// `storefront serve`: the local App Store Server over the data directory.
struct ServeCommand: Command {
    let name = "serve"
    let summary = "Run the local App Store Server (App Store Server API and verifyReceipt) over HTTP."
    var forms: [UsageForm] { [UsageForm(optional: [Self.port, Self.host, Self.environment])] }
    let discussion = """
        Serves Apple's App Store Server API (/inApps/...) and /verifyReceipt for an app's
        backend, answered from the same data directory every other command uses: purchases,
        renewals and refunds made by the CLI, the TUI or the app show at once. Prints its base
        URL first (http://127.0.0.1:PORT), then one line per request: method, path, status and
        milliseconds, and one line per attempt to send the store's App Store Server
        Notifications V2 to `store set notification-url URL` (UUID, type, result; those made
        while no server ran go out when it starts, retried as `notification-retries` says).
        It listens on the port of the server-url setting (8490 by default), whose /ocsp the
        certificates name, so Apple's online checks reach it; --port N listens elsewhere (0:
        any free port). It binds 127.0.0.1 unless --host says otherwise. --environment
        answers as that environment instead of the store's. `storefront credentials` prints
        the key and IDs a backend signs its tokens
        with. Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.
        """
    /// `--port N`.
    static let port = Option<UInt16>(
        "port", valueName: "N", help: "The port to listen on (default: server-url's, 8490; 0: any free port)."
    ) {
        (text: String) throws(CLIError) -> UInt16 in
        guard let port = UInt16(text) else { throw .usage("--port must be a number from 0 to 65535, not \"\(text)\".") }
        return port
    }
    /// `--host ADDR`.
    static let host = Option<String>("host", valueName: "ADDR", help: "The address to bind (default 127.0.0.1).")
    /// `--environment ENV`.
    static let environment = Option<AppStoreEnvironment>(
        "environment", valueName: "ENV", help: "Answer as Sandbox or Production (default: the store's)."
    ) { (text: String) throws(CLIError) -> AppStoreEnvironment in
        guard let value = AppStoreEnvironment.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() })
        else {
            throw .usage(
                "--environment must be one of \(AppStoreEnvironment.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(text)\"."
            )
        }
        return value
    }

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard invocation.arguments.isEmpty else { throw .usage("serve takes no arguments.") }
        var http = MicroHTTPDaemon.Configuration()
        let port = try invocation.value(Self.port)
        if let host = try invocation.value(Self.host) { http.host = host }
        let environment = try invocation.value(Self.environment)
        let (_, dataDirectory, backend) = try await StoreSession.openBackend(invocation, context: context)
        let settings: LocalStoreSettings
        do {
            settings = try await backend.settings.current()
        } catch {
            throw .runtime("cannot read the store's settings: \(error)")
        }
        http.port = port ?? Self.port(of: settings.serverURL)
        let credentials: APICredentials
        do {
            credentials = try APICredentials.loadOrCreate(dataDirectory: dataDirectory)
        } catch {
            throw .runtime("cannot read the API credentials: \(error)")
        }
        let log = LogSink(context.output)
        let server: AppStoreServer
        do {
            server = try AppStoreServer(
                store: backend, credentials: credentials,
                configuration: .init(
                    http: http, environment: environment, log: { line in log.line(line) },
                    notifications: .init(log: { line in log.line(line) })))
        } catch {
            throw .runtime("cannot start the server: \(error)")
        }
        let marker: ServerMarker?
        do {
            marker = try ServerMarker.claim(dataDirectory: dataDirectory, url: server.baseURL.absoluteString)
        } catch {
            await server.stop()
            throw .runtime("cannot write the server marker: \(error)")
        }
        guard let marker else {
            await server.stop()
            let other = ServerMarker.running(in: dataDirectory)
            throw .runtime(
                "a server already runs on this data directory\(other.map { " at \($0.url) (pid \($0.pid))" } ?? ""); stop it first."
            )
        }
        // Caught from before the URL is printed: whoever reads it may stop the server at once.
        let signals = SignalWaiter([.interrupt, .terminate])
        CurrentProcess.ignoreBrokenPipes()
        log.line(server.baseURL.absoluteString)
        if Self.port(of: settings.serverURL) != server.port {
            context.output.writeError(
                "note: the certificates name \(settings.ocspURL) for OCSP; for online checks to reach this server, "
                    + "run: storefront store set server-url \(server.baseURL.absoluteString)\n")
        }
        // Notifications journaled while no server ran go out now, then each as it happens.
        await server.notificationSender?.start()
        // Renewals fall due on the store clock while the server runs, as they do at Apple.
        await backend.synchronize()
        let signal = await signals.next()
        await server.stop()
        marker.release()
        log.line("stopped (\(signal == .interrupt ? "SIGINT" : "SIGTERM"))")
    }
}

extension ServeCommand {
    /// The port a `server-url` names (its scheme's default when it names none).
    static func port(of serverURL: String) -> UInt16 {
        let components = URLComponents(string: serverURL)
        if let port = components?.port, let value = UInt16(exactly: port) { return value }
        return components?.scheme?.lowercased() == "https" ? 443 : 80
    }
}

/// Request log lines from the server's threads, one whole line at a time.
private final class LogSink: @unchecked Sendable {
    private let output: any TextOutput
    private let lock = NSLock()

    init(_ output: any TextOutput) { self.output = output }

    func line(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        output.write(text + "\n")
    }
}
