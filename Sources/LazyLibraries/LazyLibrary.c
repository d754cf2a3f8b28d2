#include "LazyLibrary.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern char *program_invocation_short_name;

__attribute__((noreturn)) static void fail(const char *what) {
    // What ld.so says when a library is missing at start, and its status.
    fprintf(stderr, "%s: error while loading shared libraries: %s\n", program_invocation_short_name, what);
    _exit(127);
}

void *lazy_library_function(LazyLibrary *library, const char *name, void *_Atomic *slot) {
    void *function = atomic_load_explicit(slot, memory_order_acquire);
    if (function != NULL) {
        return function;
    }
    void *handle = atomic_load_explicit(&library->handle, memory_order_acquire);
    if (handle == NULL) {
        // Two threads may both open it: the loader counts the second open and returns the same handle.
        handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            fail(dlerror());
        }
        atomic_store_explicit(&library->handle, handle, memory_order_release);
    }
    function = dlsym(handle, name);
    if (function == NULL) {
        fail(dlerror());
    }
    atomic_store_explicit(slot, function, memory_order_release);
    return function;
}
