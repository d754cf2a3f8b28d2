extension QuestionsFeature {
    /// What happens to a question.
    public enum Action: Hashable, Sendable {
        /// Ask `question` over the window `over` (nil: over the list).
        case ask(Question, over: Modal?)
        /// A key: y (or Enter) answers yes, n (or Esc) no.
        case key(Key)
    }
}
