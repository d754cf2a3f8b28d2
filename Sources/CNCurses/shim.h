#ifndef STOREFRONT_CNCURSES_SHIM_H
#define STOREFRONT_CNCURSES_SHIM_H

// ncursesw with the wide-character API.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <ncursesw/curses.h>

// Swift does not import function-like macros (WA_BOLD is NCURSES_BITS(1, 13)) nor C globals
// under strict concurrency, so these one-line accessors hand ncurses' own values to Swift
// instead of hard-coding them.
static inline attr_t cncurses_wa_bold(void) { return WA_BOLD; }
static inline attr_t cncurses_wa_dim(void) { return WA_DIM; }
static inline attr_t cncurses_wa_reverse(void) { return WA_REVERSE; }
static inline attr_t cncurses_wa_underline(void) { return WA_UNDERLINE; }
static inline attr_t cncurses_wa_normal(void) { return WA_NORMAL; }
static inline int cncurses_key_f(int n) { return KEY_F(n); }
static inline WINDOW *cncurses_stdscr(void) { return stdscr; }
static inline int cncurses_colors(void) { return COLORS; }
static inline int cncurses_color_pairs(void) { return COLOR_PAIRS; }

#endif
