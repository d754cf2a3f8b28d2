#ifndef STOREFRONT_CMICROHTTPD_SHIM_H
#define STOREFRONT_CMICROHTTPD_SHIM_H

// libmicrohttpd, as the AppStoreServer target uses it: its header, plus one-line
// accessors for the two variadic calls Swift cannot import (MHD_start_daemon and
// MHD_get_daemon_info), passing MHD's own option array and union through unchanged.
// Nothing links the library: every function called here is LazyLibraries', which opens it
// on the first call (Docs/decisions/0146-libraries-loaded-on-first-use.md).
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>

static inline struct MHD_Daemon *storefront_mhd_start(
    unsigned int flags, uint16_t port, MHD_AccessHandlerCallback handler, void *handler_cls,
    struct MHD_OptionItem *options) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_cls,
                            MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

static inline uint16_t storefront_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

#endif
