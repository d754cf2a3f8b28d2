import LocalAppStore

/// Refund requests as `store refund-requests` prints them: a table, or a JSON array of objects
/// with id, transactionID, productID, status, requestedAt and decidedAt.
struct RefundRequestList: VerbOutput {
    let requests: [RefundRequest]

    var json: JSONText { .array(requests.map(Self.json)) }

    var lines: [String] {
        guard !requests.isEmpty else { return ["No refund requests."] }
        return TextTable(
            columns: [
                .init(header: "REQUEST"), .init(header: "TRANSACTION"), .init(header: "PRODUCT"),
                .init(header: "STATUS"),
            ],
            rows: requests.map { [$0.id, $0.transactionID, $0.productID, $0.status.rawValue] }
        ).render()
    }

    /// One refund request as `--json` prints it.
    static func json(_ request: RefundRequest) -> JSONText {
        .object([
            ("id", .string(request.id)), ("transactionID", .string(request.transactionID)),
            ("productID", .string(request.productID)), ("status", .string(request.status.rawValue)),
            ("requestedAt", .string(request.requestedAt.formatted(.iso8601))),
            ("decidedAt", request.decidedAt.map { .string($0.formatted(.iso8601)) } ?? .null),
        ])
    }
}
