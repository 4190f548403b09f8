#ifndef WAKE_CSYSTEMD_SHIM_H
#define WAKE_CSYSTEMD_SHIM_H
// sd-bus's headers only: libsystemd (with the compression and crypto libraries it links: lzma,
// zstd, lz4, gcrypt, cap) is loaded with dlopen the first time wake talks to a bus (the logind
// inhibitor, notifications, timedated), so the commands that never do (wake list, stop,
// --version, completions) start without mapping and relocating it. Swift calls the
// wake_sd_bus_* functions below, which have sd-bus's signatures (written out from
// <systemd/sd-bus.h>, one per function wake calls); while the library cannot be loaded they fail
// as sd-bus fails, with -ELIBACC ("cannot access a needed shared library") or NULL.
#include <errno.h>
#include <stddef.h>
#include <systemd/sd-bus.h>
#include "../CLinux/lazy_library.h"

#define WAKE_SD_FUNCS(X) \
    X(sd_bus_call) \
    X(sd_bus_call_async) \
    X(sd_bus_close_unref) \
    X(sd_bus_error_free) \
    X(sd_bus_flush_close_unref) \
    X(sd_bus_get_events) \
    X(sd_bus_get_fd) \
    X(sd_bus_get_n_queued_write) \
    X(sd_bus_is_open) \
    X(sd_bus_match_signal) \
    X(sd_bus_match_signal_async) \
    X(sd_bus_message_append_basic) \
    X(sd_bus_message_close_container) \
    X(sd_bus_message_enter_container) \
    X(sd_bus_message_get_cookie) \
    X(sd_bus_message_get_errno) \
    X(sd_bus_message_get_error) \
    X(sd_bus_message_get_member) \
    X(sd_bus_message_get_reply_cookie) \
    X(sd_bus_message_is_method_error) \
    X(sd_bus_message_new_method_call) \
    X(sd_bus_message_open_container) \
    X(sd_bus_message_read_basic) \
    X(sd_bus_message_set_expect_reply) \
    X(sd_bus_message_unref) \
    X(sd_bus_open_system) \
    X(sd_bus_open_user) \
    X(sd_bus_process) \
    X(sd_bus_send) \
    X(sd_bus_set_description) \
    X(sd_bus_slot_unref)

WAKE_LAZY_LIBRARY(wake_sd, "libsystemd.so.0", WAKE_SD_FUNCS)
#define wake_sd (*wake_sd_storage())

static inline int wake_sd_bus_call(sd_bus *bus, sd_bus_message *m, uint64_t usec, sd_bus_error *ret_error, sd_bus_message **reply) { return wake_sd_available() ? wake_sd.sd_bus_call(bus, m, usec, ret_error, reply) : -ELIBACC; }
static inline int wake_sd_bus_call_async(sd_bus *bus, sd_bus_slot **slot, sd_bus_message *m, sd_bus_message_handler_t callback, void *userdata, uint64_t usec) { return wake_sd_available() ? wake_sd.sd_bus_call_async(bus, slot, m, callback, userdata, usec) : -ELIBACC; }
static inline sd_bus *wake_sd_bus_close_unref(sd_bus *bus) { return wake_sd_available() ? wake_sd.sd_bus_close_unref(bus) : NULL; }
static inline void wake_sd_bus_error_free(sd_bus_error *e) { if (wake_sd_available()) wake_sd.sd_bus_error_free(e); }
static inline sd_bus *wake_sd_bus_flush_close_unref(sd_bus *bus) { return wake_sd_available() ? wake_sd.sd_bus_flush_close_unref(bus) : NULL; }
static inline int wake_sd_bus_get_events(sd_bus *bus) { return wake_sd_available() ? wake_sd.sd_bus_get_events(bus) : -ELIBACC; }
static inline int wake_sd_bus_get_fd(sd_bus *bus) { return wake_sd_available() ? wake_sd.sd_bus_get_fd(bus) : -ELIBACC; }
static inline int wake_sd_bus_get_n_queued_write(sd_bus *bus, uint64_t *ret) { return wake_sd_available() ? wake_sd.sd_bus_get_n_queued_write(bus, ret) : -ELIBACC; }
static inline int wake_sd_bus_is_open(sd_bus *bus) { return wake_sd_available() ? wake_sd.sd_bus_is_open(bus) : 0; }
static inline int wake_sd_bus_match_signal(sd_bus *bus, sd_bus_slot **ret, const char *sender, const char *path, const char *interface, const char *member, sd_bus_message_handler_t callback, void *userdata) { return wake_sd_available() ? wake_sd.sd_bus_match_signal(bus, ret, sender, path, interface, member, callback, userdata) : -ELIBACC; }
static inline int wake_sd_bus_match_signal_async(sd_bus *bus, sd_bus_slot **ret, const char *sender, const char *path, const char *interface, const char *member, sd_bus_message_handler_t match_callback, sd_bus_message_handler_t add_callback, void *userdata) { return wake_sd_available() ? wake_sd.sd_bus_match_signal_async(bus, ret, sender, path, interface, member, match_callback, add_callback, userdata) : -ELIBACC; }
static inline int wake_sd_bus_message_append_basic(sd_bus_message *m, char type, const void *p) { return wake_sd_available() ? wake_sd.sd_bus_message_append_basic(m, type, p) : -ELIBACC; }
static inline int wake_sd_bus_message_close_container(sd_bus_message *m) { return wake_sd_available() ? wake_sd.sd_bus_message_close_container(m) : -ELIBACC; }
static inline int wake_sd_bus_message_enter_container(sd_bus_message *m, char type, const char *contents) { return wake_sd_available() ? wake_sd.sd_bus_message_enter_container(m, type, contents) : -ELIBACC; }
static inline int wake_sd_bus_message_get_cookie(sd_bus_message *m, uint64_t *cookie) { return wake_sd_available() ? wake_sd.sd_bus_message_get_cookie(m, cookie) : -ELIBACC; }
static inline int wake_sd_bus_message_get_errno(sd_bus_message *m) { return wake_sd_available() ? wake_sd.sd_bus_message_get_errno(m) : -ELIBACC; }
static inline const sd_bus_error *wake_sd_bus_message_get_error(sd_bus_message *m) { return wake_sd_available() ? wake_sd.sd_bus_message_get_error(m) : NULL; }
static inline const char *wake_sd_bus_message_get_member(sd_bus_message *m) { return wake_sd_available() ? wake_sd.sd_bus_message_get_member(m) : NULL; }
static inline int wake_sd_bus_message_get_reply_cookie(sd_bus_message *m, uint64_t *cookie) { return wake_sd_available() ? wake_sd.sd_bus_message_get_reply_cookie(m, cookie) : -ELIBACC; }
static inline int wake_sd_bus_message_is_method_error(sd_bus_message *m, const char *name) { return wake_sd_available() ? wake_sd.sd_bus_message_is_method_error(m, name) : -ELIBACC; }
static inline int wake_sd_bus_message_new_method_call(sd_bus *bus, sd_bus_message **m, const char *destination, const char *path, const char *interface, const char *member) { return wake_sd_available() ? wake_sd.sd_bus_message_new_method_call(bus, m, destination, path, interface, member) : -ELIBACC; }
static inline int wake_sd_bus_message_open_container(sd_bus_message *m, char type, const char *contents) { return wake_sd_available() ? wake_sd.sd_bus_message_open_container(m, type, contents) : -ELIBACC; }
static inline int wake_sd_bus_message_read_basic(sd_bus_message *m, char type, void *p) { return wake_sd_available() ? wake_sd.sd_bus_message_read_basic(m, type, p) : -ELIBACC; }
static inline int wake_sd_bus_message_set_expect_reply(sd_bus_message *m, int b) { return wake_sd_available() ? wake_sd.sd_bus_message_set_expect_reply(m, b) : -ELIBACC; }
static inline sd_bus_message *wake_sd_bus_message_unref(sd_bus_message *m) { return wake_sd_available() ? wake_sd.sd_bus_message_unref(m) : NULL; }
static inline int wake_sd_bus_open_system(sd_bus **ret) { return wake_sd_available() ? wake_sd.sd_bus_open_system(ret) : -ELIBACC; }
static inline int wake_sd_bus_open_user(sd_bus **ret) { return wake_sd_available() ? wake_sd.sd_bus_open_user(ret) : -ELIBACC; }
static inline int wake_sd_bus_process(sd_bus *bus, sd_bus_message **r) { return wake_sd_available() ? wake_sd.sd_bus_process(bus, r) : -ELIBACC; }
static inline int wake_sd_bus_send(sd_bus *bus, sd_bus_message *m, uint64_t *cookie) { return wake_sd_available() ? wake_sd.sd_bus_send(bus, m, cookie) : -ELIBACC; }
static inline int wake_sd_bus_set_description(sd_bus *bus, const char *description) { return wake_sd_available() ? wake_sd.sd_bus_set_description(bus, description) : -ELIBACC; }
static inline sd_bus_slot *wake_sd_bus_slot_unref(sd_bus_slot *slot) { return wake_sd_available() ? wake_sd.sd_bus_slot_unref(slot) : NULL; }

#endif
