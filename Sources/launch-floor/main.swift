import Foundation

// The physical floor of a launch, for `storefront-bench ui`: a Swift program linked as the
// storefront is (static Swift runtime and Foundation, lld) that starts, takes the terminal with
// ncurses and draws one frame, then waits for `q`. Anything a launch costs beyond this one's is
// the storefront's own work.
//
// ncurses is called through its C symbols (linked in Package.swift), not through `CNCurses`:
// the package's rule is one importing module per system library, and that one is TerminalCurses.
@_silgen_name("initscr") func initscr() -> OpaquePointer?
@_silgen_name("cbreak") func cbreak() -> Int32
@_silgen_name("noecho") func noecho() -> Int32
// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("curs_set") func curs_set(_ visibility: Int32) -> Int32
@_silgen_name("wmove") func wmove(_ window: OpaquePointer?, _ y: Int32, _ x: Int32) -> Int32
@_silgen_name("waddnstr") func waddnstr(_ window: OpaquePointer?, _ text: UnsafePointer<CChar>, _ count: Int32) -> Int32
@_silgen_name("wrefresh") func wrefresh(_ window: OpaquePointer?) -> Int32
@_silgen_name("wgetch") func wgetch(_ window: OpaquePointer?) -> Int32
@_silgen_name("endwin") func endwin() -> Int32

// Foundation started as the storefront starts it: the environment and the arguments.
let marker =
    ProcessInfo.processInfo.environment["LAUNCH_FLOOR_MARKER"] ?? CommandLine.arguments.dropFirst().first ?? "floor"
setlocale(LC_ALL, "")
let window = initscr()
_ = cbreak()
_ = noecho()
_ = curs_set(0)
_ = wmove(window, 0, 0)
_ = waddnstr(window, marker, -1)
_ = wrefresh(window)
// Until `q`, or until the input ends (ERR: no terminal to read).
var key: Int32 = 0
repeat { key = wgetch(window) } while key != Int32(UInt8(ascii: "q")) && key != -1
_ = endwin()
