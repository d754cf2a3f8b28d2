/// What a verb prints, as a value: JSON with `--json`, else lines of text. A verb that shows
/// what it read writes one (`call.write(OfferCodeList(codes))`), and a test can render it
/// without a store.
protocol VerbOutput {
    /// The output with `--json`.
    var json: JSONText { get }
    /// The output without it, one string a line.
    var lines: [String] { get }
}

extension VerbCall {
    /// Writes `output`: its JSON with `--json`, else its lines.
    func write(_ output: some VerbOutput) { write(json: output.json, lines: output.lines) }
}
