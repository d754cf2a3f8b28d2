import Foundation
import LocalAppStore

/// `storefront store approve-message ID`, `reject-message ID`, `approve-image ID` and
/// `reject-image ID`: Apple's review of an upload the `retention-review` setting held `PENDING`.
struct ReviewVerb: Verb {
    let name: String
    let abstract: String
    /// A message's review, else an image's.
    let message: Bool
    /// Approves, else rejects.
    let approve: Bool
    let arguments = [
        Argument("ID") { (text: String) throws(CLIError) -> UUID in
            guard let id = UUID(uuidString: text) else {
                throw .usage("ID must be the identifier (a UUID) of an upload (got '\(text)').")
            }
            return id
        }
    ]
    var footnote: String? {
        "approve-… and reject-… are Apple's review of an upload held PENDING by the retention-review setting "
            + "(a rejected one is never shown)."
    }

    static let approveMessage = ReviewVerb(
        name: "approve-message", abstract: "approve a retention message", message: true, approve: true)
    static let rejectMessage = ReviewVerb(
        name: "reject-message", abstract: "reject a retention message", message: true, approve: false)
    static let approveImage = ReviewVerb(
        name: "approve-image", abstract: "approve a retention image", message: false, approve: true)
    static let rejectImage = ReviewVerb(
        name: "reject-image", abstract: "reject a retention image", message: false, approve: false)

    func run(_ call: VerbCall) async throws(CLIError) {
        guard let id = UUID(uuidString: call.arguments[0]) else { throw .usage("ID must be a UUID.") }
        let retention = try await call.store { $0.retention }
        let state: String
        do {
            state =
                message
                ? try retention.reviewMessage(id, approve: approve).rawState
                : try retention.reviewImage(id, approve: approve).rawState
        } catch {
            throw .runtime(error.description)
        }
        let text = id.uuidString.lowercased()
        call.write(
            json: .object([("identifier", .string(text)), ("state", .string(state))]),
            lines: ["The \(message ? "message" : "image") \(text) is \(state)."])
    }
}
