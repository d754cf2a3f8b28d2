extension QuestionsFeature {
    /// The question asked.
    public struct State: ScreenState {
        /// What is asked (meaningful while `Modal.question` is open).
        public var asked = Question.quit(downloads: 0)

        /// Nothing asked yet.
        public init() {}
    }
}
