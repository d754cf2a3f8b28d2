/// A question before something that cannot be undone: what will happen, then Yes / No.
enum QuestionView {
    static func text(_ question: Question, _ state: State) -> String {
        let s = state.strings
        switch question {
        case .refund(let id, let productID):
            return s("Refund transaction {} ({})? The app loses what it bought.", id, state.name(of: productID))
        case .expire(let id, let productID):
            return s("End {} now (transaction {})? Access stops at once.", state.name(of: productID), id)
        case .quit(let downloads):
            return s(
                "{} under way. Quit anyway? Downloading carries on at the next launch.",
                CountedWords.phrase(downloads, .download, s.language))
        case .cancelDownload(_, let productID):
            return s("Cancel the download of {}? Its downloaded bytes are deleted.", state.name(of: productID))
        case .removeFromFamily(_, let name):
            return s("Remove {} from the family? What is shared with or by them is revoked.", name)
        }
    }

    static func render(_ state: State, into screen: inout Screen) {
        let s = state.strings
        let question = state.questions.asked
        let width = min(screen.width - 4, 60)
        let lines = TextLayout.wrap(text(question, state), width: max(1, width - 6))
        let prompt = s("y: Yes   n: No")
        let inner = SheetView.window(s("Are you sure?"), width: width, height: lines.count + 5, into: &screen)
        for (i, line) in lines.enumerated() { SheetView.line(line, inner, 1 + i, indent: 2, into: &screen) }
        SheetView.line(
            prompt, inner, inner.height - 1, style: Theme.key,
            indent: max(1, (inner.width - DisplayWidth.of(prompt)) / 2), into: &screen)
    }
}
