#ifndef WAKE_CPULSE_SHIM_H
#define WAKE_CPULSE_SHIM_H
// A small synchronous libpulse client for the stream guard (WakeSystem/SoundServerStream.swift):
// find wake's own sink-input, read and set its mute and volume and those of the sink it plays
// on. libpulse is loaded with dlopen on first use (`wake_pa_load`); every call goes through the
// table, so the binary has no link-time dependency on it. Every wait is bounded by a deadline
// (a hung server never holds a caller longer), and runs on the caller's thread: call it from an
// output worker, never from the event loop.
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <pulse/pulseaudio.h>
#include <pulse/ext-stream-restore.h>
#include <poll.h>
#include "../CLinux/lazy_library.h"

#define WAKE_PA_FUNCS(X) \
    X(pa_mainloop_new) X(pa_mainloop_free) X(pa_mainloop_get_api) X(pa_mainloop_prepare) \
    X(pa_mainloop_poll) X(pa_mainloop_dispatch) \
    X(pa_context_new) X(pa_context_connect) X(pa_context_disconnect) X(pa_context_unref) \
    X(pa_context_get_state) X(pa_context_errno) X(pa_strerror) \
    X(pa_context_get_sink_input_info_list) X(pa_context_get_sink_info_by_index) \
    X(pa_context_get_sink_info_by_name) X(pa_context_get_sink_info_list) \
    X(pa_context_set_sink_input_mute) X(pa_context_set_sink_input_volume) \
    X(pa_context_set_sink_mute_by_name) X(pa_context_set_sink_volume_by_name) \
    X(pa_context_load_module) X(pa_context_unload_module) \
    X(pa_operation_get_state) X(pa_operation_unref) X(pa_operation_cancel) X(pa_proplist_gets) \
    X(pa_ext_stream_restore_read) X(pa_ext_stream_restore_write) \
    X(pa_mainloop_set_poll_func) X(pa_mainloop_iterate) X(pa_proplist_new) X(pa_proplist_sets) X(pa_proplist_free) \
    X(pa_channel_map_init_auto) X(pa_usec_to_bytes) X(pa_stream_new_with_proplist) X(pa_stream_connect_playback) \
    X(pa_stream_get_state) X(pa_stream_writable_size) X(pa_stream_write) X(pa_stream_cork) X(pa_stream_flush) \
    X(pa_stream_disconnect) X(pa_stream_unref) X(pa_stream_get_buffer_attr) X(pa_stream_get_index)

typedef struct {
#define WAKE_PA_FIELD(n) __typeof__(n) *n;
    WAKE_PA_FUNCS(WAKE_PA_FIELD)
#undef WAKE_PA_FIELD
} wake_pa_functions;

/// Loads libpulse.so.0; 0 on success, -1 when it or one of its functions is missing. A
/// definition in the global scope comes first (lazy_library.h says why: the benchmark's probe).
static inline int wake_pa_load(wake_pa_functions *f) {
    void *h = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!h) return -1;
#define WAKE_PA_LOAD(n) f->n = (__typeof__(n) *)wake_lazy_symbol(h, #n); if (!f->n) return -1;
    WAKE_PA_FUNCS(WAKE_PA_LOAD)
#undef WAKE_PA_LOAD
    return 0;
}

/// One connection: a private main loop and a context, with the deadline of the current call.
typedef struct {
    const wake_pa_functions *f;
    pa_mainloop *loop;
    pa_context *context;
    long long deadline_ns;
    int error;  // the libpulse error of the last failure, 0 if none
    int timed_out;
} wake_pa_connection;

static inline long long wake_pa_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/// One round of the loop, waiting at most 50 ms; 0 once the deadline has passed.
static inline int wake_pa_step(wake_pa_connection *c) {
    long long left = c->deadline_ns - wake_pa_now_ns();
    if (left <= 0) { c->timed_out = 1; return 0; }
    long long wait_us = left / 1000 < 50000 ? left / 1000 : 50000;
    if (c->f->pa_mainloop_prepare(c->loop, (int)wait_us) < 0) return 0;
    if (c->f->pa_mainloop_poll(c->loop) < 0) return 0;
    if (c->f->pa_mainloop_dispatch(c->loop) < 0) return 0;
    return 1;
}

/// Connects to the server (PULSE_SERVER, else the user's) within `timeout_ms`; 0 on success.
static inline int wake_pa_connect(const wake_pa_functions *f, wake_pa_connection *c, int timeout_ms) {
    memset(c, 0, sizeof *c);
    c->f = f;
    c->deadline_ns = wake_pa_now_ns() + (long long)timeout_ms * 1000000LL;
    c->loop = f->pa_mainloop_new();
    if (!c->loop) return -1;
    c->context = f->pa_context_new(f->pa_mainloop_get_api(c->loop), "wake");
    if (!c->context) return -1;
    if (f->pa_context_connect(c->context, NULL, PA_CONTEXT_NOAUTOSPAWN, NULL) < 0) {
        c->error = f->pa_context_errno(c->context);
        return -1;
    }
    for (;;) {
        pa_context_state_t s = f->pa_context_get_state(c->context);
        if (s == PA_CONTEXT_READY) return 0;
        if (s == PA_CONTEXT_FAILED || s == PA_CONTEXT_TERMINATED) { c->error = f->pa_context_errno(c->context); return -1; }
        if (!wake_pa_step(c)) return -1;
    }
}

/// A connection kept for several calls (a watch): the next call gets `timeout_ms` of its own.
static inline void wake_pa_renew(wake_pa_connection *c, int timeout_ms) {
    c->deadline_ns = wake_pa_now_ns() + (long long)timeout_ms * 1000000LL;
    c->timed_out = 0;
    c->error = 0;
}

/// Whether the connection is still up (a server that went away ends it).
static inline int wake_pa_is_ready(const wake_pa_connection *c) {
    return c->context && c->f->pa_context_get_state(c->context) == PA_CONTEXT_READY;
}

static inline void wake_pa_disconnect(wake_pa_connection *c) {
    if (c->context) { c->f->pa_context_disconnect(c->context); c->f->pa_context_unref(c->context); }
    if (c->loop) c->f->pa_mainloop_free(c->loop);
    c->context = NULL;
    c->loop = NULL;
}

/// Runs `op` to its end within the deadline; 0 when it completed.
static inline int wake_pa_wait(wake_pa_connection *c, pa_operation *op) {
    if (!op) { c->error = c->f->pa_context_errno(c->context); return -1; }
    while (c->f->pa_operation_get_state(op) == PA_OPERATION_RUNNING) {
        if (!wake_pa_step(c)) { c->f->pa_operation_cancel(op); c->f->pa_operation_unref(op); return -1; }
    }
    c->f->pa_operation_unref(op);
    return 0;
}

/// A stream or a sink as read: its index, the sink it plays on (streams), name (sinks), mute, volume.
typedef struct {
    int found;
    uint32_t index;
    uint32_t sink;
    char name[256];
    char description[256];
    // streams: the key the server's stream restore remembers it under (module-stream-restore.id)
    char restore_id[256];
    // sinks: the device.bus property (bluetooth, usb, pci), empty when it has none
    char bus[32];
    // sinks: the module that made it (PA_INVALID_INDEX for none)
    uint32_t owner_module;
    int mute;
    pa_cvolume volume;
    int has_volume;
    // streams: paused by the server (or its client) rather than playing
    int corked;
    // while searching streams: the process whose newest stream is wanted
    const wake_pa_functions *f;
    char pid[24];
} wake_pa_object;

static inline void wake_pa_stream_cb(pa_context *ctx, const pa_sink_input_info *i, int eol, void *userdata) {
    (void)ctx;
    wake_pa_object *o = (wake_pa_object *)userdata;
    if (eol || !i) return;
    const char *pid = o->f->pa_proplist_gets(i->proplist, PA_PROP_APPLICATION_PROCESS_ID);
    if (!pid || strcmp(pid, o->pid) != 0) return;
    if (o->found && i->index < o->index) return;  // the newest of this process's streams
    o->found = 1;
    o->index = i->index;
    o->sink = i->sink;
    const char *restore_id = o->f->pa_proplist_gets(i->proplist, "module-stream-restore.id");
    memset(o->restore_id, 0, sizeof o->restore_id);
    if (restore_id) strncpy(o->restore_id, restore_id, sizeof o->restore_id - 1);
    o->mute = i->mute;
    o->volume = i->volume;
    o->has_volume = i->has_volume;
    o->corked = i->corked;
}

static inline void wake_pa_sink_cb(pa_context *ctx, const pa_sink_info *i, int eol, void *userdata) {
    (void)ctx;
    wake_pa_object *o = (wake_pa_object *)userdata;
    if (eol || !i) return;
    o->found = 1;
    o->index = i->index;
    strncpy(o->name, i->name ? i->name : "", sizeof o->name - 1);
    strncpy(o->description, i->description ? i->description : "", sizeof o->description - 1);
    const char *bus = o->f ? o->f->pa_proplist_gets(i->proplist, PA_PROP_DEVICE_BUS) : NULL;
    if (bus) strncpy(o->bus, bus, sizeof o->bus - 1);
    o->owner_module = i->owner_module;
    o->mute = i->mute;
    o->volume = i->volume;
    o->has_volume = 1;
}

/// The newest sink-input of process `pid`; 0 when the call completed (`out->found` says whether it is there).
static inline int wake_pa_find_stream(wake_pa_connection *c, int pid, wake_pa_object *out) {
    memset(out, 0, sizeof *out);
    out->f = c->f;
    snprintf(out->pid, sizeof out->pid, "%d", pid);
    return wake_pa_wait(c, c->f->pa_context_get_sink_input_info_list(c->context, wake_pa_stream_cb, out));
}

/// The sink with index `index`, or with name `name` when it is not NULL ("@DEFAULT_SINK@" is the default sink).
static inline int wake_pa_find_sink(wake_pa_connection *c, uint32_t index, const char *name, wake_pa_object *out) {
    memset(out, 0, sizeof *out);
    out->f = c->f;
    pa_operation *op = name ? c->f->pa_context_get_sink_info_by_name(c->context, name, wake_pa_sink_cb, out)
                            : c->f->pa_context_get_sink_info_by_index(c->context, index, wake_pa_sink_cb, out);
    return wake_pa_wait(c, op);
}

/// Every sink the server lists (at most WAKE_PA_SINKS_MAX; `count` says how many were kept).
#define WAKE_PA_SINKS_MAX 64
typedef struct {
    char name[256];
    char description[256];
    char bus[32];
} wake_pa_sink_entry;

typedef struct {
    const wake_pa_functions *f;
    int count;
    wake_pa_sink_entry sinks[WAKE_PA_SINKS_MAX];
} wake_pa_sink_list;

static inline void wake_pa_sink_list_cb(pa_context *ctx, const pa_sink_info *i, int eol, void *userdata) {
    (void)ctx;
    wake_pa_sink_list *l = (wake_pa_sink_list *)userdata;
    if (eol || !i || l->count >= WAKE_PA_SINKS_MAX) return;
    wake_pa_sink_entry *e = &l->sinks[l->count++];
    strncpy(e->name, i->name ? i->name : "", sizeof e->name - 1);
    strncpy(e->description, i->description ? i->description : "", sizeof e->description - 1);
    const char *bus = l->f->pa_proplist_gets(i->proplist, PA_PROP_DEVICE_BUS);
    if (bus) strncpy(e->bus, bus, sizeof e->bus - 1);
}

/// Fills `out` (zeroed first) with the server's sinks; 0 when the call completed.
static inline int wake_pa_list_sinks(wake_pa_connection *c, wake_pa_sink_list *out) {
    memset(out, 0, sizeof *out);
    out->f = c->f;
    return wake_pa_wait(c, c->f->pa_context_get_sink_info_list(c->context, wake_pa_sink_list_cb, out));
}

static inline const wake_pa_sink_entry *wake_pa_sink_at(const wake_pa_sink_list *l, int i) { return &l->sinks[i]; }

static inline void wake_pa_success_cb(pa_context *ctx, int success, void *userdata) {
    (void)ctx;
    *(int *)userdata = success;
}

static inline void wake_pa_index_cb(pa_context *ctx, uint32_t idx, void *userdata) {
    (void)ctx;
    *(uint32_t *)userdata = idx;
}

/// Loads module `name` with `args`; 0, with its index in `*index`, when the server loaded it.
static inline int wake_pa_load_module(wake_pa_connection *c, const char *name, const char *args, uint32_t *index) {
    *index = PA_INVALID_INDEX;
    if (wake_pa_wait(c, c->f->pa_context_load_module(c->context, name, args, wake_pa_index_cb, index))) return -1;
    return *index == PA_INVALID_INDEX ? -1 : 0;
}

/// Unloads module `index`; 0 when the server did.
static inline int wake_pa_unload_module(wake_pa_connection *c, uint32_t index) {
    int ok = 0;
    if (wake_pa_wait(c, c->f->pa_context_unload_module(c->context, index, wake_pa_success_cb, &ok)) || !ok) return -1;
    return 0;
}

/// Sets a stream's mute and volume (volume skipped when `volume` is NULL); 0 when the server agreed.
static inline int wake_pa_set_stream(wake_pa_connection *c, uint32_t index, int mute, const pa_cvolume *volume) {
    int ok = 0;
    if (volume) {
        if (wake_pa_wait(c, c->f->pa_context_set_sink_input_volume(c->context, index, volume, wake_pa_success_cb, &ok)) || !ok) return -1;
    }
    ok = 0;
    if (wake_pa_wait(c, c->f->pa_context_set_sink_input_mute(c->context, index, mute, wake_pa_success_cb, &ok)) || !ok) return -1;
    return 0;
}

/// Sets a sink's mute and volume, by name.
static inline int wake_pa_set_sink(wake_pa_connection *c, const char *name, int mute, const pa_cvolume *volume) {
    int ok = 0;
    if (volume) {
        if (wake_pa_wait(c, c->f->pa_context_set_sink_volume_by_name(c->context, name, volume, wake_pa_success_cb, &ok)) || !ok) return -1;
    }
    ok = 0;
    if (wake_pa_wait(c, c->f->pa_context_set_sink_mute_by_name(c->context, name, mute, wake_pa_success_cb, &ok)) || !ok) return -1;
    return 0;
}

/// One entry of the server's stream restore database (what it remembers of a kind of stream).
typedef struct {
    int found;
    char name[256];
    char device[256];
    int has_device;
    pa_channel_map channel_map;
    pa_cvolume volume;
    int mute;
} wake_pa_restore_entry;

static inline void wake_pa_restore_read_cb(pa_context *ctx, const pa_ext_stream_restore_info *i, int eol, void *userdata) {
    (void)ctx;
    wake_pa_restore_entry *e = (wake_pa_restore_entry *)userdata;
    if (eol || !i || !i->name || strcmp(i->name, e->name) != 0) return;
    e->found = 1;
    e->channel_map = i->channel_map;
    e->volume = i->volume;
    e->mute = i->mute;
    e->has_device = i->device != NULL;
    if (i->device) strncpy(e->device, i->device, sizeof e->device - 1);
}

/// The stream restore entry called `name`; 0 when the call completed (`out->found` says
/// whether the server remembers one), -1 when it failed (no such extension: a server without it).
static inline int wake_pa_read_restore_entry(wake_pa_connection *c, const char *name, wake_pa_restore_entry *out) {
    memset(out, 0, sizeof *out);
    strncpy(out->name, name, sizeof out->name - 1);
    return wake_pa_wait(c, c->f->pa_ext_stream_restore_read(c->context, wake_pa_restore_read_cb, out));
}

/// Writes `entry` back with its mute and volume replaced (merged: other entries stay); 0 when
/// the server agreed. Only remembered values change: no stream plays under this name now.
static inline int wake_pa_write_restore_entry(wake_pa_connection *c, const wake_pa_restore_entry *entry, int mute,
                                              const pa_cvolume *volume) {
    pa_ext_stream_restore_info info;
    memset(&info, 0, sizeof info);
    info.name = entry->name;
    info.channel_map = entry->channel_map;
    info.volume = volume ? *volume : entry->volume;
    info.device = entry->has_device ? entry->device : NULL;
    info.mute = mute;
    int ok = 0;
    if (wake_pa_wait(c, c->f->pa_ext_stream_restore_write(c->context, PA_UPDATE_REPLACE, &info, 1, 0, wake_pa_success_cb, &ok)) || !ok)
        return -1;
    return 0;
}

static inline const char *wake_pa_error(const wake_pa_connection *c) {
    if (c->timed_out) return "the sound server did not answer in time";
    return c->error ? c->f->pa_strerror(c->error) : "the sound server refused";
}

static inline uint32_t wake_pa_cvolume_get(const pa_cvolume *v, int i) { return v->values[i]; }
static inline void wake_pa_cvolume_set(pa_cvolume *v, int i, uint32_t value) { v->values[i] = value; }
// ---------------------------------------------------------------------------------------------
// wake's own playback stream (WakeSystem/SoundServerPlayback.swift): named for the alarm, which
// ALSA's pulse plugin cannot do (it names every stream "ALSA Playback"). One connection of its
// own, driven by the output worker's thread alone; the worker's request descriptor joins the
// loop's poll, so a stop wakes a wait for room at once.

typedef struct {
    wake_pa_connection c;
    pa_stream *stream;
    size_t frame_bytes;
    uint32_t buffer_bytes;
    int wake_fd;  // polled beside the loop's own descriptors while waiting for room; -1: none
    int woken;
} wake_pa_playback;

#define WAKE_PA_POLL_MAX 32
static int wake_pa_playback_poll(struct pollfd *ufds, unsigned long nfds, int timeout, void *userdata) {
    wake_pa_playback *p = (wake_pa_playback *)userdata;
    if (p->wake_fd < 0 || nfds >= WAKE_PA_POLL_MAX) return poll(ufds, nfds, timeout);
    struct pollfd all[WAKE_PA_POLL_MAX + 1];
    memcpy(all, ufds, nfds * sizeof *ufds);
    all[nfds].fd = p->wake_fd;
    all[nfds].events = POLLIN;
    all[nfds].revents = 0;
    int r = poll(all, nfds + 1, timeout);
    if (r < 0) return r;
    memcpy(ufds, all, nfds * sizeof *ufds);
    if (all[nfds].revents) { p->woken = 1; r--; }
    return r;
}

static inline int wake_pa_playback_alive(const wake_pa_playback *p) {
    return p->stream && wake_pa_is_ready(&p->c) && p->c.f->pa_stream_get_state(p->stream) == PA_STREAM_READY;
}

static inline void wake_pa_playback_close(wake_pa_playback *p) {
    if (p->stream) {
        p->c.f->pa_stream_disconnect(p->stream);
        p->c.f->pa_stream_unref(p->stream);
        p->stream = NULL;
    }
    wake_pa_disconnect(&p->c);
}

/// Connects a playback stream called `name` to `sink` (NULL: where the server puts the
/// application's streams, as the plugin's `default` does) within `timeout_ms`, its buffer sized
/// for `latency_us`; 0 when it is ready. On failure the connection is closed and
/// `wake_pa_error(&p->c)` says why.
static inline int wake_pa_playback_open(const wake_pa_functions *f, wake_pa_playback *p, const char *sink, const char *name,
                                        int s32, int channels, int rate, long long latency_us, int timeout_ms) {
    memset(p, 0, sizeof *p);
    p->wake_fd = -1;
    if (channels < 1 || channels > PA_CHANNELS_MAX) { p->c.f = f; return -1; }
    if (wake_pa_connect(f, &p->c, timeout_ms)) { wake_pa_disconnect(&p->c); return -1; }
    f->pa_mainloop_set_poll_func(p->c.loop, wake_pa_playback_poll, p);
    pa_sample_spec ss = { s32 ? PA_SAMPLE_S32LE : PA_SAMPLE_S16LE, (uint32_t)rate, (uint8_t)channels };
    // ALSA's channel order, as the plugin maps it: the files' frames are in that order.
    pa_channel_map map;
    int c = channels;
    while (c > 0 && !f->pa_channel_map_init_auto(&map, (unsigned)c, PA_CHANNEL_MAP_ALSA)) c--;
    for (int d = c; d < channels; d++) map.map[d] = (pa_channel_position_t)(PA_CHANNEL_POSITION_AUX0 + (d - c));
    map.channels = (uint8_t)channels;
    pa_proplist *props = f->pa_proplist_new();
    if (props) f->pa_proplist_sets(props, PA_PROP_MEDIA_NAME, name);
    p->stream = f->pa_stream_new_with_proplist(p->c.context, name, &ss, &map, props);
    if (props) f->pa_proplist_free(props);
    if (!p->stream) { p->c.error = f->pa_context_errno(p->c.context); wake_pa_playback_close(p); return -1; }
    pa_buffer_attr attr;
    memset(&attr, 0xff, sizeof attr);  // (uint32_t)-1: the server's choice
    attr.tlength = (uint32_t)f->pa_usec_to_bytes((pa_usec_t)latency_us, &ss);
    if (f->pa_stream_connect_playback(p->stream, sink && sink[0] ? sink : NULL, &attr, PA_STREAM_ADJUST_LATENCY, NULL, NULL) < 0) {
        p->c.error = f->pa_context_errno(p->c.context);
        wake_pa_playback_close(p);
        return -1;
    }
    for (;;) {
        pa_stream_state_t s = f->pa_stream_get_state(p->stream);
        if (s == PA_STREAM_READY) break;
        if (s == PA_STREAM_FAILED || s == PA_STREAM_TERMINATED || !wake_pa_step(&p->c)) {
            p->c.error = f->pa_context_errno(p->c.context);
            wake_pa_playback_close(p);
            return -1;
        }
    }
    p->frame_bytes = (size_t)channels * (s32 ? 4 : 2);
    const pa_buffer_attr *got = f->pa_stream_get_buffer_attr(p->stream);
    p->buffer_bytes = got ? got->tlength : attr.tlength;
    return 0;
}

/// Runs the loop once, waiting at most `timeout_ms` (0: only what is ready now).
static inline void wake_pa_playback_iterate(wake_pa_playback *p, int timeout_ms) {
    const wake_pa_functions *f = p->c.f;
    if (f->pa_mainloop_prepare(p->c.loop, timeout_ms * 1000) < 0) return;
    if (f->pa_mainloop_poll(p->c.loop) < 0) return;
    f->pa_mainloop_dispatch(p->c.loop);
}

/// Frames the server took of `frames`; 0 when it has no room now, -1 when the stream or the
/// server has failed (gone, killed, the stream removed).
static inline long wake_pa_playback_write(wake_pa_playback *p, const void *data, long frames) {
    if (!p->stream) return -1;
    wake_pa_playback_iterate(p, 0);  // the server's requests for more, and news of its end
    if (!wake_pa_playback_alive(p)) return -1;
    size_t room = p->c.f->pa_stream_writable_size(p->stream);
    if (room == (size_t)-1) return -1;
    size_t bytes = (size_t)frames * p->frame_bytes;
    if (bytes > room) bytes = room - room % p->frame_bytes;
    if (bytes == 0) return 0;
    if (p->c.f->pa_stream_write(p->stream, data, bytes, NULL, 0, PA_SEEK_RELATIVE) < 0) return -1;
    wake_pa_playback_iterate(p, 0);  // sent now, not at the next wait
    return (long)(bytes / p->frame_bytes);
}

/// Waits until the server has room, the stream fails, `wake_fd` is readable (then 1) or
/// `timeout_ms` has passed; 0 otherwise.
static inline int wake_pa_playback_wait(wake_pa_playback *p, int wake_fd, int timeout_ms) {
    if (!p->stream) return 0;
    p->wake_fd = wake_fd;
    p->woken = 0;
    long long deadline = wake_pa_now_ns() + (long long)timeout_ms * 1000000LL;
    int woken = 0;
    for (;;) {
        if (!wake_pa_playback_alive(p)) break;
        size_t room = p->c.f->pa_stream_writable_size(p->stream);
        if (room == (size_t)-1 || room >= p->frame_bytes) break;
        long long left = deadline - wake_pa_now_ns();
        if (left <= 0) break;
        wake_pa_playback_iterate(p, (int)((left + 999999) / 1000000));
        if (p->woken) { woken = 1; break; }
    }
    p->wake_fd = -1;
    return woken;
}

/// Silence at once: the stream is corked and what the server holds of it thrown away (within
/// `timeout_ms`; a server that does not answer is left to the close).
static inline void wake_pa_stream_success_cb(pa_stream *stream, int success, void *userdata) {
    (void)stream;
    *(int *)userdata = success;
}

static inline void wake_pa_playback_drop(wake_pa_playback *p, int timeout_ms) {
    if (!wake_pa_playback_alive(p)) return;
    wake_pa_renew(&p->c, timeout_ms);
    int ok = 0;
    if (wake_pa_wait(&p->c, p->c.f->pa_stream_cork(p->stream, 1, wake_pa_stream_success_cb, &ok)) == 0)
        wake_pa_wait(&p->c, p->c.f->pa_stream_flush(p->stream, wake_pa_stream_success_cb, &ok));
}

static inline uint32_t wake_pa_playback_index(const wake_pa_playback *p) {
    return p->stream ? p->c.f->pa_stream_get_index(p->stream) : PA_INVALID_INDEX;
}
#endif
