import CNCurses
import Glibc
import StorefrontUI

/// The ncurses backend: draws `Screen` diffs, reads keys, restores the terminal.
public enum Terminal {
    /// Whether standard input and output are both a terminal.
    public static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }
}
