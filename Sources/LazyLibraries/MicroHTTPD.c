// libmicrohttpd on first use: only `storefront serve` (and the tests and the bench that start
// a server) call it, and its TLS library's tree was part of every launch's loading
// (Docs/decisions/0146-libraries-loaded-on-first-use.md). These are the functions the
// AppStoreServer target calls, through CMicroHTTPD's shim or directly, no more.
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

#include "LazyLibrary.h"

#ifdef __APPLE__
static LazyLibrary microhttpd = {.soname = "libmicrohttpd.12.dylib"};
#else
static LazyLibrary microhttpd = {.soname = "libmicrohttpd.so.12"};
#endif

// Its options, whatever they are, reach the library's own `va_list` entry point unchanged.
LAZY_DEFINITION struct MHD_Daemon *MHD_start_daemon(
    unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback accept, void *acceptContext,
    MHD_AccessHandlerCallback handler, void *handlerContext, ...) {
    va_list options;
    va_start(options, handlerContext);
    struct MHD_Daemon *daemon = LAZY_FUNCTION(microhttpd, MHD_start_daemon_va)(
        flags, port, accept, acceptContext, handler, handlerContext, options);
    va_end(options);
    return daemon;
}

LAZY_DEFINITION void MHD_stop_daemon(struct MHD_Daemon *daemon) {
    LAZY_FUNCTION(microhttpd, MHD_stop_daemon)(daemon);
}

// The library reads no argument after the type for any type it answers (its `...` is kept for
// types yet to come), so none is passed on.
LAZY_DEFINITION const union MHD_DaemonInfo *MHD_get_daemon_info(
    struct MHD_Daemon *daemon, enum MHD_DaemonInfoType type, ...) {
    return LAZY_FUNCTION(microhttpd, MHD_get_daemon_info)(daemon, type);
}

LAZY_DEFINITION int MHD_get_connection_values_n(
    struct MHD_Connection *connection, enum MHD_ValueKind kind, MHD_KeyValueIteratorN iterator, void *context) {
    return LAZY_FUNCTION(microhttpd, MHD_get_connection_values_n)(connection, kind, iterator, context);
}

LAZY_DEFINITION size_t MHD_http_unescape(char *text) {
    return LAZY_FUNCTION(microhttpd, MHD_http_unescape)(text);
}

LAZY_DEFINITION struct MHD_Response *MHD_create_response_from_buffer(
    size_t size, void *buffer, enum MHD_ResponseMemoryMode mode) {
    return LAZY_FUNCTION(microhttpd, MHD_create_response_from_buffer)(size, buffer, mode);
}

LAZY_DEFINITION enum MHD_Result MHD_add_response_header(
    struct MHD_Response *response, const char *header, const char *content) {
    return LAZY_FUNCTION(microhttpd, MHD_add_response_header)(response, header, content);
}

LAZY_DEFINITION enum MHD_Result MHD_queue_response(
    struct MHD_Connection *connection, unsigned int status, struct MHD_Response *response) {
    return LAZY_FUNCTION(microhttpd, MHD_queue_response)(connection, status, response);
}

LAZY_DEFINITION void MHD_destroy_response(struct MHD_Response *response) {
    LAZY_FUNCTION(microhttpd, MHD_destroy_response)(response);
}

LAZY_DEFINITION void MHD_suspend_connection(struct MHD_Connection *connection) {
    LAZY_FUNCTION(microhttpd, MHD_suspend_connection)(connection);
}

LAZY_DEFINITION void MHD_resume_connection(struct MHD_Connection *connection) {
    LAZY_FUNCTION(microhttpd, MHD_resume_connection)(connection);
}
