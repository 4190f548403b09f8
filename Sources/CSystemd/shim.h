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
    X(sd_bus_add_fallback) \
    X(sd_bus_add_object) \
    X(sd_bus_call) \
    X(sd_bus_call_async) \
    X(sd_bus_close_unref) \
    X(sd_bus_error_free) \
    X(sd_bus_flush_close_unref) \
    X(sd_bus_get_events) \
    X(sd_bus_get_fd) \
    X(sd_bus_get_n_queued_write) \
    X(sd_bus_get_unique_name) \
    X(sd_bus_is_open) \
    X(sd_bus_match_signal) \
    X(sd_bus_match_signal_async) \
    X(sd_bus_message_append_basic) \
    X(sd_bus_message_at_end) \
    X(sd_bus_message_close_container) \
    X(sd_bus_message_enter_container) \
    X(sd_bus_message_exit_container) \
    X(sd_bus_message_get_cookie) \
    X(sd_bus_message_get_errno) \
    X(sd_bus_message_get_error) \
    X(sd_bus_message_get_interface) \
    X(sd_bus_message_get_member) \
    X(sd_bus_message_get_path) \
    X(sd_bus_message_get_reply_cookie) \
    X(sd_bus_message_get_sender) \
    X(sd_bus_message_get_signature) \
    X(sd_bus_message_is_method_call) \
    X(sd_bus_message_is_method_error) \
    X(sd_bus_message_new_method_call) \
    X(sd_bus_message_new_method_error) \
    X(sd_bus_message_new_method_return) \
    X(sd_bus_message_new_signal) \
    X(sd_bus_message_open_container) \
    X(sd_bus_message_peek_type) \
    X(sd_bus_message_read_basic) \
    X(sd_bus_message_ref) \
    X(sd_bus_message_set_expect_reply) \
    X(sd_bus_message_unref) \
    X(sd_bus_new) \
    X(sd_bus_open_system) \
    X(sd_bus_open_user) \
    X(sd_bus_process) \
    X(sd_bus_release_name_async) \
    X(sd_bus_request_name_async) \
    X(sd_bus_send) \
    X(sd_bus_set_address) \
    X(sd_bus_set_bus_client) \
    X(sd_bus_set_description) \
    X(sd_bus_slot_unref) \
    X(sd_bus_start)

WAKE_LAZY_LIBRARY(wake_sd, "libsystemd.so.0", WAKE_SD_FUNCS)
#define wake_sd (*wake_sd_storage())

static inline int wake_sd_bus_add_fallback(sd_bus *bus, sd_bus_slot **slot, const char *prefix, sd_bus_message_handler_t callback, void *userdata) { return wake_sd_available() ? wake_sd.sd_bus_add_fallback(bus, slot, prefix, callback, userdata) : -ELIBACC; }
static inline int wake_sd_bus_add_object(sd_bus *bus, sd_bus_slot **slot, const char *path, sd_bus_message_handler_t callback, void *userdata) { return wake_sd_available() ? wake_sd.sd_bus_add_object(bus, slot, path, callback, userdata) : -ELIBACC; }
static inline int wake_sd_bus_message_at_end(sd_bus_message *m, int complete) { return wake_sd_available() ? wake_sd.sd_bus_message_at_end(m, complete) : -ELIBACC; }
static inline int wake_sd_bus_message_exit_container(sd_bus_message *m) { return wake_sd_available() ? wake_sd.sd_bus_message_exit_container(m) : -ELIBACC; }
static inline const char *wake_sd_bus_message_get_interface(sd_bus_message *m) { return wake_sd_available() ? wake_sd.sd_bus_message_get_interface(m) : NULL; }
static inline const char *wake_sd_bus_message_get_path(sd_bus_message *m) { return wake_sd_available() ? wake_sd.sd_bus_message_get_path(m) : NULL; }
static inline const char *wake_sd_bus_message_get_sender(sd_bus_message *m) { return wake_sd_available() ? wake_sd.sd_bus_message_get_sender(m) : NULL; }
static inline const char *wake_sd_bus_message_get_signature(sd_bus_message *m, int complete) { return wake_sd_available() ? wake_sd.sd_bus_message_get_signature(m, complete) : NULL; }
static inline int wake_sd_bus_message_new_method_error(sd_bus_message *call, sd_bus_message **m, const sd_bus_error *e) { return wake_sd_available() ? wake_sd.sd_bus_message_new_method_error(call, m, e) : -ELIBACC; }
static inline int wake_sd_bus_message_new_method_return(sd_bus_message *call, sd_bus_message **m) { return wake_sd_available() ? wake_sd.sd_bus_message_new_method_return(call, m) : -ELIBACC; }
static inline int wake_sd_bus_message_new_signal(sd_bus *bus, sd_bus_message **m, const char *path, const char *interface, const char *member) { return wake_sd_available() ? wake_sd.sd_bus_message_new_signal(bus, m, path, interface, member) : -ELIBACC; }
static inline int wake_sd_bus_message_peek_type(sd_bus_message *m, char *type, const char **contents) { return wake_sd_available() ? wake_sd.sd_bus_message_peek_type(m, type, contents) : -ELIBACC; }
static inline int wake_sd_bus_release_name_async(sd_bus *bus, sd_bus_slot **ret_slot, const char *name, sd_bus_message_handler_t callback, void *userdata) { return wake_sd_available() ? wake_sd.sd_bus_release_name_async(bus, ret_slot, name, callback, userdata) : -ELIBACC; }
static inline int wake_sd_bus_request_name_async(sd_bus *bus, sd_bus_slot **ret_slot, const char *name, uint64_t flags, sd_bus_message_handler_t callback, void *userdata) { return wake_sd_available() ? wake_sd.sd_bus_request_name_async(bus, ret_slot, name, flags, callback, userdata) : -ELIBACC; }
static inline int wake_sd_bus_message_is_method_call(sd_bus_message *m, const char *interface, const char *member) { return wake_sd_available() ? wake_sd.sd_bus_message_is_method_call(m, interface, member) : -ELIBACC; }
static inline int wake_sd_bus_get_unique_name(sd_bus *bus, const char **unique) { return wake_sd_available() ? wake_sd.sd_bus_get_unique_name(bus, unique) : -ELIBACC; }
static inline int wake_sd_bus_new(sd_bus **ret) { return wake_sd_available() ? wake_sd.sd_bus_new(ret) : -ELIBACC; }
static inline int wake_sd_bus_set_address(sd_bus *bus, const char *address) { return wake_sd_available() ? wake_sd.sd_bus_set_address(bus, address) : -ELIBACC; }
static inline int wake_sd_bus_set_bus_client(sd_bus *bus, int b) { return wake_sd_available() ? wake_sd.sd_bus_set_bus_client(bus, b) : -ELIBACC; }
static inline int wake_sd_bus_start(sd_bus *bus) { return wake_sd_available() ? wake_sd.sd_bus_start(bus) : -ELIBACC; }
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
static inline sd_bus_message *wake_sd_bus_message_ref(sd_bus_message *m) { return wake_sd_available() ? wake_sd.sd_bus_message_ref(m) : NULL; }
static inline sd_bus_message *wake_sd_bus_message_unref(sd_bus_message *m) { return wake_sd_available() ? wake_sd.sd_bus_message_unref(m) : NULL; }
static inline int wake_sd_bus_open_system(sd_bus **ret) { return wake_sd_available() ? wake_sd.sd_bus_open_system(ret) : -ELIBACC; }
static inline int wake_sd_bus_open_user(sd_bus **ret) { return wake_sd_available() ? wake_sd.sd_bus_open_user(ret) : -ELIBACC; }
static inline int wake_sd_bus_process(sd_bus *bus, sd_bus_message **r) { return wake_sd_available() ? wake_sd.sd_bus_process(bus, r) : -ELIBACC; }
static inline int wake_sd_bus_send(sd_bus *bus, sd_bus_message *m, uint64_t *cookie) { return wake_sd_available() ? wake_sd.sd_bus_send(bus, m, cookie) : -ELIBACC; }
static inline int wake_sd_bus_set_description(sd_bus *bus, const char *description) { return wake_sd_available() ? wake_sd.sd_bus_set_description(bus, description) : -ELIBACC; }
static inline sd_bus_slot *wake_sd_bus_slot_unref(sd_bus_slot *slot) { return wake_sd_available() ? wake_sd.sd_bus_slot_unref(slot) : NULL; }

#endif
