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

// A cell holding every code point of a grapheme cluster (up to CCHARW_MAX): setcchar keeps the
// first spacing character and only the non-spacing ones after it, so an emoji with a skin tone
// or a ZWJ sequence lost its second emoji. ncurses writes each of `chars` out in order when it
// draws the cell, and counts the cell as wide as its first character.
static inline int cncurses_setcchar_cluster(cchar_t *cell, const wchar_t *cluster, attr_t attributes, short pair) {
    const wchar_t first[2] = { cluster[0], 0 };
    if (setcchar(cell, first, attributes, pair, NULL) != OK) return ERR;
    for (int i = 1; i < CCHARW_MAX && cluster[i] != 0; ++i) cell->chars[i] = cluster[i];
    return OK;
}

#endif
