import Foundation
import LocalAppStore

/// `storefront store consumption [ID]`: the consumption information an app's server sent
/// through the App Store Server API (Send Consumption Information), per transaction.
enum StoreConsumptionVerb {
    static let verb = "consumption"
    static let usage = "consumption [ID]"
    static let discussion = """
        consumption [ID]   consumption information the app's server sent (Send Consumption
                           Information, through `storefront serve`), for one transaction or all
        """

    static func run(_ rest: [String], invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard rest.count <= 1 else { throw .usage("store consumption takes at most one transaction ID.") }
        let (_, _, backend) = try StoreSession.openBackend(invocation, context: context)
        let all: [String: [ConsumptionRecord]]
        do {
            all = try await backend.snapshot().allConsumption
        } catch {
            throw .runtime("cannot read the local App Store: \(error.description)")
        }
        let ids = rest.first.map { [$0] } ?? all.keys.sorted()
        let records = ids.flatMap { all[$0] ?? [] }
        if invocation.global.json {
            context.output.write(
                JSONText.array(
                    records.map { record in
                        .object([
                            ("transactionID", .string(record.transactionID)),
                            ("version", .number(String(record.version))),
                            ("receivedDate", .string(record.receivedDate.formatted(.iso8601))),
                            (
                                "fields",
                                .object(record.fields.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
                            ),
                        ])
                    }
                ).rendered())
            return
        }
        guard !records.isEmpty else {
            context.output.write("No consumption information\(rest.first.map { " for \($0)" } ?? "") yet.\n")
            return
        }
        let lines = records.map { record in
            "\(record.transactionID)  v\(record.version)  \(record.receivedDate.formatted(.iso8601))  "
                + record.fields.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        context.output.write(lines.joined(separator: "\n") + "\n")
    }
}
