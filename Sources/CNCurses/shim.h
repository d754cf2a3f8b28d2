#ifndef STOREFRONT_CNCURSES_SHIM_H
#define STOREFRONT_CNCURSES_SHIM_H

// ncursesw with the wide-character API. Nothing but includes.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <ncursesw/curses.h>

#endif
