extension ChildProcess {
    /// A child that did not do what was asked, with what it said.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed and why.
        public let description: String

        /// A failure described in words.
        public init(_ description: String) { self.description = description }

        /// `what` ended badly: its status or signal and the ends of what it printed.
        public init(_ what: String, _ result: Result) {
            description =
                "\(what) exited with \(result.signaled ? "signal " : "status ")\(result.status)"
                + (result.timedOut ? " (killed: it ran past its bound)" : "") + "\n"
                + result.stdout.suffix(6000) + result.stderr.suffix(6000)
        }
    }
}
