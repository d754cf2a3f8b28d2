// libcurl on first use: the static FoundationNetworking's URLSession is its only caller, and
// most runs of the storefront never send a request; loading libcurl's tree of shared libraries
// at start took most of a launch (Docs/decisions/0146-libraries-loaded-on-first-use.md).
// These are the functions Foundation's `_CFURLSessionInterface` calls, no more.
#ifdef __linux__

#include <stdarg.h>

#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

#include "LazyLibrary.h"

static LazyLibrary curl = {.soname = "libcurl.so.4"};

// The three variadic calls take exactly one more argument, a long, a pointer or a
// curl_off_t: each is one integer register on the 64-bit ABIs Linux runs, passed on unchanged.
static void *lastArgument(va_list arguments) {
    return va_arg(arguments, void *);
}

LAZY_DEFINITION CURLcode curl_global_init(long flags) {
    return LAZY_FUNCTION(curl, curl_global_init)(flags);
}

LAZY_DEFINITION curl_version_info_data *curl_version_info(CURLversion version) {
    return LAZY_FUNCTION(curl, curl_version_info)(version);
}

LAZY_DEFINITION char *curl_version(void) {
    return LAZY_FUNCTION(curl, curl_version)();
}

LAZY_DEFINITION CURL *curl_easy_init(void) {
    return LAZY_FUNCTION(curl, curl_easy_init)();
}

LAZY_DEFINITION void curl_easy_cleanup(CURL *handle) {
    LAZY_FUNCTION(curl, curl_easy_cleanup)(handle);
}

LAZY_DEFINITION CURLcode curl_easy_setopt(CURL *handle, CURLoption option, ...) {
    va_list arguments;
    va_start(arguments, option);
    void *value = lastArgument(arguments);
    va_end(arguments);
    return LAZY_FUNCTION(curl, curl_easy_setopt)(handle, option, value);
}

LAZY_DEFINITION CURLcode curl_easy_getinfo(CURL *handle, CURLINFO info, ...) {
    va_list arguments;
    va_start(arguments, info);
    void *destination = lastArgument(arguments);
    va_end(arguments);
    return LAZY_FUNCTION(curl, curl_easy_getinfo)(handle, info, destination);
}

LAZY_DEFINITION CURLcode curl_easy_pause(CURL *handle, int bitmask) {
    return LAZY_FUNCTION(curl, curl_easy_pause)(handle, bitmask);
}

LAZY_DEFINITION const char *curl_easy_strerror(CURLcode code) {
    return LAZY_FUNCTION(curl, curl_easy_strerror)(code);
}

LAZY_DEFINITION void curl_free(void *pointer) {
    LAZY_FUNCTION(curl, curl_free)(pointer);
}

LAZY_DEFINITION CURLM *curl_multi_init(void) {
    return LAZY_FUNCTION(curl, curl_multi_init)();
}

LAZY_DEFINITION CURLMcode curl_multi_cleanup(CURLM *multi) {
    return LAZY_FUNCTION(curl, curl_multi_cleanup)(multi);
}

LAZY_DEFINITION CURLMcode curl_multi_setopt(CURLM *multi, CURLMoption option, ...) {
    va_list arguments;
    va_start(arguments, option);
    void *value = lastArgument(arguments);
    va_end(arguments);
    return LAZY_FUNCTION(curl, curl_multi_setopt)(multi, option, value);
}

LAZY_DEFINITION CURLMcode curl_multi_add_handle(CURLM *multi, CURL *handle) {
    return LAZY_FUNCTION(curl, curl_multi_add_handle)(multi, handle);
}

LAZY_DEFINITION CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return LAZY_FUNCTION(curl, curl_multi_remove_handle)(multi, handle);
}

LAZY_DEFINITION CURLMcode curl_multi_assign(CURLM *multi, curl_socket_t socket, void *pointer) {
    return LAZY_FUNCTION(curl, curl_multi_assign)(multi, socket, pointer);
}

LAZY_DEFINITION CURLMcode curl_multi_socket_action(CURLM *multi, curl_socket_t socket, int events, int *running) {
    return LAZY_FUNCTION(curl, curl_multi_socket_action)(multi, socket, events, running);
}

LAZY_DEFINITION CURLMsg *curl_multi_info_read(CURLM *multi, int *remaining) {
    return LAZY_FUNCTION(curl, curl_multi_info_read)(multi, remaining);
}

LAZY_DEFINITION struct curl_slist *curl_slist_append(struct curl_slist *list, const char *text) {
    return LAZY_FUNCTION(curl, curl_slist_append)(list, text);
}

LAZY_DEFINITION void curl_slist_free_all(struct curl_slist *list) {
    LAZY_FUNCTION(curl, curl_slist_free_all)(list);
}

LAZY_DEFINITION CURLU *curl_url(void) {
    return LAZY_FUNCTION(curl, curl_url)();
}

LAZY_DEFINITION CURLUcode curl_url_get(CURLU *url, CURLUPart part, char **text, unsigned int flags) {
    return LAZY_FUNCTION(curl, curl_url_get)(url, part, text, flags);
}

LAZY_DEFINITION CURLUcode curl_url_set(CURLU *url, CURLUPart part, const char *text, unsigned int flags) {
    return LAZY_FUNCTION(curl, curl_url_set)(url, part, text, flags);
}

#endif
