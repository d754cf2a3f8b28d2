/// Why the terminal could not be taken over. The descriptions do not name the program: the
/// caller prefixes its name once (`storefront: …`).
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Standard input or output is not a terminal (a pipe, a file, a CI job).
    case notATerminal
    /// ncurses could not set up the terminal, usually an unknown `TERM`.
    case cannotInitialize(term: String)
    /// The terminal cannot move its cursor (no `cup` in its terminfo entry, as `TERM=dumb`):
    /// a full-screen program cannot draw on it.
    case cannotAddressCursor(term: String)
    /// The system refused a pipe for waking the event loop.
    case cannotCreateWakePipe

    public var description: String {
        switch self {
        case .notATerminal:
            "the storefront needs a terminal (standard input and output are not one).\n"
                + "Use the CLI instead, for example: storefront products, storefront buy ID, "
                + "storefront restore, storefront history (see storefront --help)."
        case .cannotInitialize(let term):
            "cannot set up the terminal of type '\(term)'. Set TERM to a known type "
                + "(for example xterm-256color) or use the CLI subcommands (storefront --help)."
        case .cannotAddressCursor(let term):
            "the terminal of type '\(term)' cannot move its cursor, which the storefront needs. Set TERM to a "
                + "full-screen type (for example xterm-256color) or use the CLI subcommands (storefront --help)."
        case .cannotCreateWakePipe:
            "the system refused to create a pipe for the event loop; close some files and retry."
        }
    }
}
