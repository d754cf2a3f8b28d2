import Foundation
import LocalAppStore

/// `storefront store consumption [ID]`: the consumption information an app's server sent
/// through the App Store Server API (Send Consumption Information), per transaction.
struct ConsumptionVerb: Verb {
    let name = "consumption"
    let arguments = [Argument("ID", optional: true)]
    let abstract = """
        consumption information the app's server sent (Send Consumption Information, through `storefront \
        serve`), for one transaction or all
        """

    func run(_ call: VerbCall) async throws(CLIError) {
        let id = call.arguments.first
        let (_, _, backend) = try await StoreSession.openBackend(call.invocation, context: call.context)
        let all: [String: [ConsumptionRecord]]
        do {
            all = try await backend.server.snapshot().allConsumption
        } catch {
            throw .runtime("cannot read the local App Store: \(error.description)")
        }
        let records = (id.map { [$0] } ?? all.keys.sorted()).flatMap { all[$0] ?? [] }
        let fields = { (record: ConsumptionRecord) in record.fields.sorted { $0.key < $1.key } }
        call.write(
            json: .array(
                records.map { record in
                    .object([
                        ("transactionID", .string(record.transactionID)),
                        ("version", .number(String(record.version))),
                        ("receivedDate", .string(record.receivedDate.formatted(.iso8601))),
                        ("fields", .object(fields(record).map { ($0.key, .string($0.value)) })),
                    ])
                }),
            lines: records.isEmpty
                ? ["No consumption information\(id.map { " for \($0)" } ?? "") yet."]
                : records.map { record in
                    "\(record.transactionID)  v\(record.version)  \(record.receivedDate.formatted(.iso8601))  "
                        + fields(record).map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                })
    }
}
