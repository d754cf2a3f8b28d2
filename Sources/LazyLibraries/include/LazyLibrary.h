#ifndef STOREFRONT_LAZY_LIBRARY_H
#define STOREFRONT_LAZY_LIBRARY_H

// A shared library opened on the first call into it (Docs/decisions/0146-libraries-loaded-on-first-use.md).

/// A library by its soname, opened once; its functions are looked up once each.
typedef struct LazyLibrary {
    const char *soname;
    void *_Atomic handle;
} LazyLibrary;

/// The address of `name` in `library`, cached in `slot`. Opens the library on the first call.
/// A library or function that is missing ends the process as the dynamic loader would have
/// at start: its message on standard error, exit status 127.
void *lazy_library_function(LazyLibrary *library, const char *name, void *_Atomic *slot)
    __attribute__((visibility("hidden")));

/// `name`'s real function in `library`, typed as the header declares it.
#define LAZY_FUNCTION(library, name)                                                                 \
    ({                                                                                               \
        static void *_Atomic slot;                                                                   \
        (__typeof__(&name))lazy_library_function(&(library), #name, &slot);                          \
    })

/// Defined here, not exported: the definitions only this program's own objects bind to.
#define LAZY_DEFINITION __attribute__((visibility("hidden")))

#endif
