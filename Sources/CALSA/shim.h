#ifndef WAKE_CALSA_SHIM_H
#define WAKE_CALSA_SHIM_H
// alsa-lib's headers only: libasound.so.2 is loaded with dlopen the first time wake opens a PCM,
// a mixer or ALSA's configuration, so the commands that play nothing (wake --version, list,
// next, stop, completions) start without mapping and relocating it (issue 28). alsa-lib is
// made to be loaded this way: it finds its own plugins by its own path (dladdr), and SDL and
// browsers dlopen it too. Swift calls the wake_snd_* functions below, which have alsa-lib's
// signatures; while the library cannot be loaded they fail with -ELIBACC (pointers: NULL) and
// wake_snd_strerror says why, so every caller's error path reports it as it reports ALSA's own.
#include <errno.h>
#include <string.h>
#include <alsa/asoundlib.h>
#include "../CLinux/lazy_library.h"

#define WAKE_SND_FUNCS(X) \
    X(snd_strerror) X(snd_asoundlib_version) X(snd_lib_error_set_handler) X(snd_config_update) \
    X(snd_config_update_ref) X(snd_config_unref) X(snd_config_search_definition) X(snd_config_search) \
    X(snd_config_get_string) X(snd_config_delete) \
    X(snd_card_next) X(snd_device_name_hint) X(snd_device_name_get_hint) X(snd_device_name_free_hint) \
    X(snd_pcm_open) X(snd_pcm_close) X(snd_pcm_set_params) X(snd_pcm_get_params) X(snd_pcm_type) \
    X(snd_pcm_type_name) X(snd_pcm_writei) X(snd_pcm_avail_update) X(snd_pcm_delay) X(snd_pcm_drop) \
    X(snd_pcm_recover) X(snd_pcm_rewind) X(snd_pcm_rewindable) X(snd_pcm_poll_descriptors) \
    X(snd_pcm_poll_descriptors_count) X(snd_pcm_poll_descriptors_revents) \
    X(snd_mixer_open) X(snd_mixer_close) X(snd_mixer_attach) X(snd_mixer_load) X(snd_mixer_handle_events) \
    X(snd_mixer_find_selem) X(snd_mixer_selem_register) X(snd_mixer_selem_id_malloc) \
    X(snd_mixer_selem_id_free) X(snd_mixer_selem_id_set_name) X(snd_mixer_selem_id_set_index) \
    X(snd_mixer_selem_has_playback_volume) X(snd_mixer_selem_has_playback_volume_joined) \
    X(snd_mixer_selem_has_playback_switch) X(snd_mixer_selem_has_playback_switch_joined) \
    X(snd_mixer_selem_has_playback_channel) X(snd_mixer_selem_is_playback_mono) \
    X(snd_mixer_selem_get_playback_volume_range) X(snd_mixer_selem_get_playback_volume) \
    X(snd_mixer_selem_get_playback_switch) X(snd_mixer_selem_set_playback_volume) \
    X(snd_mixer_selem_set_playback_volume_all) X(snd_mixer_selem_set_playback_switch) \
    X(snd_mixer_selem_set_playback_switch_all)

WAKE_LAZY_LIBRARY(wake_snd, "libasound.so.2", WAKE_SND_FUNCS)
#define wake_snd (*wake_snd_storage())
// What every wrapper returns while libasound cannot be loaded; an enum, not a macro, so Swift
// imports the same constant (ALSAError.libraryUnavailable).
enum { WAKE_SND_UNAVAILABLE = -ELIBACC };

// alsa-lib prints its own diagnostics to stderr ("ALSA lib pcm.c:...: Unknown PCM foo").
// wake reports every failure itself in one line, so those are silenced as the library loads,
// before any call can print. The handler is variadic, which Swift cannot define, hence C.
static void wake_alsa_quiet_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void wake_snd_load_quietly(void) {
    if (wake_snd_available()) wake_snd.snd_lib_error_set_handler(wake_alsa_quiet_handler);
}
/// Loads libasound once (thread-safe), silenced; 1 when it and every function are there.
static inline int wake_snd_ready(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, wake_snd_load_quietly);
    return wake_snd_storage()->loaded;
}

// One wrapper per function: the call when the library is there, else alsa-lib's way of failing.
#define WAKE_SND_CALL(fallback, call) return wake_snd_ready() ? wake_snd.call : (fallback)
#define WAKE_SND_VOID(call) if (wake_snd_ready()) wake_snd.call

static inline const char *wake_snd_strerror(int errnum) {
    WAKE_SND_CALL("libasound.so.2 cannot be loaded; reinstall it: sudo apt install --reinstall libasound2",
                  snd_strerror(errnum));
}
static inline const char *wake_snd_asoundlib_version(void) { WAKE_SND_CALL("(libasound.so.2 cannot be loaded)", snd_asoundlib_version()); }
static inline int wake_snd_config_update(void) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_config_update()); }

/// Whether PCM `name` is ALSA's pulse plugin (`type pulse`, as `default` is when a sound server
/// runs, and `pulse:'SINK'`): 1 with its `device` (the sink; empty: wherever the server puts an
/// application's stream) copied into `sink`, 0 for any other PCM or when the configuration
/// cannot say. Read from a reference to the configuration, so another thread's reload is safe.
static inline int wake_snd_pcm_pulse_sink(const char *name, char *sink, size_t size) {
    if (size == 0) return 0;
    sink[0] = 0;
    snd_config_t *top = NULL, *def = NULL, *node = NULL;
    if (!wake_snd_ready() || wake_snd.snd_config_update_ref(&top) < 0) return 0;
    int pulse = 0;
    if (wake_snd.snd_config_search_definition(top, "pcm", name, &def) >= 0) {
        const char *text = NULL;
        if (wake_snd.snd_config_search(def, "type", &node) >= 0 && wake_snd.snd_config_get_string(node, &text) >= 0 && text
            && strcmp(text, "pulse") == 0) {
            // A PCM of another server (`server "host"`) is left to the plugin: wake's own stream
            // reaches the user's server only.
            pulse = wake_snd.snd_config_search(def, "server", &node) < 0;
            text = NULL;
            if (wake_snd.snd_config_search(def, "device", &node) >= 0 && wake_snd.snd_config_get_string(node, &text) >= 0 && text) {
                if (strlen(text) >= size) pulse = 0;  // a sink name longer than any the server makes
                else strcpy(sink, text);
            }
        }
        wake_snd.snd_config_delete(def);
    }
    wake_snd.snd_config_unref(top);
    return pulse;
}
static inline int wake_snd_card_next(int *card) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_card_next(card)); }
static inline int wake_snd_device_name_hint(int card, const char *iface, void ***hints) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_device_name_hint(card, iface, hints));
}
static inline char *wake_snd_device_name_get_hint(const void *hint, const char *id) { WAKE_SND_CALL(NULL, snd_device_name_get_hint(hint, id)); }
static inline int wake_snd_device_name_free_hint(void **hints) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_device_name_free_hint(hints)); }

static inline int wake_snd_pcm_open(snd_pcm_t **pcm, const char *name, snd_pcm_stream_t stream, int mode) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_pcm_open(pcm, name, stream, mode));
}
static inline int wake_snd_pcm_close(snd_pcm_t *pcm) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_pcm_close(pcm)); }
static inline int wake_snd_pcm_set_params(snd_pcm_t *pcm, snd_pcm_format_t format, snd_pcm_access_t access,
                                          unsigned int channels, unsigned int rate, int soft_resample, unsigned int latency) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_pcm_set_params(pcm, format, access, channels, rate, soft_resample, latency));
}
static inline int wake_snd_pcm_get_params(snd_pcm_t *pcm, snd_pcm_uframes_t *buffer_size, snd_pcm_uframes_t *period_size) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_pcm_get_params(pcm, buffer_size, period_size));
}
static inline snd_pcm_type_t wake_snd_pcm_type(snd_pcm_t *pcm) { WAKE_SND_CALL(SND_PCM_TYPE_HW, snd_pcm_type(pcm)); }
static inline const char *wake_snd_pcm_type_name(snd_pcm_type_t type) { WAKE_SND_CALL("unknown", snd_pcm_type_name(type)); }
static inline snd_pcm_sframes_t wake_snd_pcm_writei(snd_pcm_t *pcm, const void *buffer, snd_pcm_uframes_t size) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_pcm_writei(pcm, buffer, size));
}
static inline snd_pcm_sframes_t wake_snd_pcm_avail_update(snd_pcm_t *pcm) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_pcm_avail_update(pcm)); }
static inline int wake_snd_pcm_delay(snd_pcm_t *pcm, snd_pcm_sframes_t *delayp) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_pcm_delay(pcm, delayp)); }
static inline int wake_snd_pcm_drop(snd_pcm_t *pcm) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_pcm_drop(pcm)); }
static inline int wake_snd_pcm_recover(snd_pcm_t *pcm, int err, int silent) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_pcm_recover(pcm, err, silent)); }
static inline snd_pcm_sframes_t wake_snd_pcm_rewind(snd_pcm_t *pcm, snd_pcm_uframes_t frames) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_pcm_rewind(pcm, frames));
}
static inline snd_pcm_sframes_t wake_snd_pcm_rewindable(snd_pcm_t *pcm) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_pcm_rewindable(pcm)); }
static inline int wake_snd_pcm_poll_descriptors(snd_pcm_t *pcm, struct pollfd *pfds, unsigned int space) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_pcm_poll_descriptors(pcm, pfds, space));
}
static inline int wake_snd_pcm_poll_descriptors_count(snd_pcm_t *pcm) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_pcm_poll_descriptors_count(pcm)); }
static inline int wake_snd_pcm_poll_descriptors_revents(snd_pcm_t *pcm, struct pollfd *pfds, unsigned int nfds, unsigned short *revents) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_pcm_poll_descriptors_revents(pcm, pfds, nfds, revents));
}

static inline int wake_snd_mixer_open(snd_mixer_t **mixer, int mode) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_mixer_open(mixer, mode)); }
static inline int wake_snd_mixer_close(snd_mixer_t *mixer) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_mixer_close(mixer)); }
static inline int wake_snd_mixer_attach(snd_mixer_t *mixer, const char *name) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_mixer_attach(mixer, name)); }
static inline int wake_snd_mixer_load(snd_mixer_t *mixer) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_mixer_load(mixer)); }
static inline int wake_snd_mixer_handle_events(snd_mixer_t *mixer) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_mixer_handle_events(mixer)); }
static inline snd_mixer_elem_t *wake_snd_mixer_find_selem(snd_mixer_t *mixer, const snd_mixer_selem_id_t *id) {
    WAKE_SND_CALL(NULL, snd_mixer_find_selem(mixer, id));
}
static inline int wake_snd_mixer_selem_register(snd_mixer_t *mixer, struct snd_mixer_selem_regopt *options, snd_mixer_class_t **classp) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_mixer_selem_register(mixer, options, classp));
}
static inline int wake_snd_mixer_selem_id_malloc(snd_mixer_selem_id_t **ptr) { WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_mixer_selem_id_malloc(ptr)); }
static inline void wake_snd_mixer_selem_id_free(snd_mixer_selem_id_t *obj) { WAKE_SND_VOID(snd_mixer_selem_id_free(obj)); }
static inline void wake_snd_mixer_selem_id_set_name(snd_mixer_selem_id_t *obj, const char *val) { WAKE_SND_VOID(snd_mixer_selem_id_set_name(obj, val)); }
static inline void wake_snd_mixer_selem_id_set_index(snd_mixer_selem_id_t *obj, unsigned int val) { WAKE_SND_VOID(snd_mixer_selem_id_set_index(obj, val)); }
static inline int wake_snd_mixer_selem_has_playback_volume(snd_mixer_elem_t *elem) { WAKE_SND_CALL(0, snd_mixer_selem_has_playback_volume(elem)); }
static inline int wake_snd_mixer_selem_has_playback_volume_joined(snd_mixer_elem_t *elem) { WAKE_SND_CALL(0, snd_mixer_selem_has_playback_volume_joined(elem)); }
static inline int wake_snd_mixer_selem_has_playback_switch(snd_mixer_elem_t *elem) { WAKE_SND_CALL(0, snd_mixer_selem_has_playback_switch(elem)); }
static inline int wake_snd_mixer_selem_has_playback_switch_joined(snd_mixer_elem_t *elem) { WAKE_SND_CALL(0, snd_mixer_selem_has_playback_switch_joined(elem)); }
static inline int wake_snd_mixer_selem_has_playback_channel(snd_mixer_elem_t *elem, snd_mixer_selem_channel_id_t channel) {
    WAKE_SND_CALL(0, snd_mixer_selem_has_playback_channel(elem, channel));
}
static inline int wake_snd_mixer_selem_is_playback_mono(snd_mixer_elem_t *elem) { WAKE_SND_CALL(0, snd_mixer_selem_is_playback_mono(elem)); }
static inline int wake_snd_mixer_selem_get_playback_volume_range(snd_mixer_elem_t *elem, long *min, long *max) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_mixer_selem_get_playback_volume_range(elem, min, max));
}
static inline int wake_snd_mixer_selem_get_playback_volume(snd_mixer_elem_t *elem, snd_mixer_selem_channel_id_t channel, long *value) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_mixer_selem_get_playback_volume(elem, channel, value));
}
static inline int wake_snd_mixer_selem_get_playback_switch(snd_mixer_elem_t *elem, snd_mixer_selem_channel_id_t channel, int *value) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_mixer_selem_get_playback_switch(elem, channel, value));
}
static inline int wake_snd_mixer_selem_set_playback_volume(snd_mixer_elem_t *elem, snd_mixer_selem_channel_id_t channel, long value) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_mixer_selem_set_playback_volume(elem, channel, value));
}
static inline int wake_snd_mixer_selem_set_playback_volume_all(snd_mixer_elem_t *elem, long value) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_mixer_selem_set_playback_volume_all(elem, value));
}
static inline int wake_snd_mixer_selem_set_playback_switch(snd_mixer_elem_t *elem, snd_mixer_selem_channel_id_t channel, int value) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_mixer_selem_set_playback_switch(elem, channel, value));
}
static inline int wake_snd_mixer_selem_set_playback_switch_all(snd_mixer_elem_t *elem, int value) {
    WAKE_SND_CALL(WAKE_SND_UNAVAILABLE, snd_mixer_selem_set_playback_switch_all(elem, value));
}

// --- Other libraries' stderr lines (LibraryNoise.swift) -------------------------------------
// libmpg123 (inside libsndfile), libpulse (inside ALSA's pulse plugin) and libjack (inside its
// plugin) print their diagnostics with fprintf(stderr, ...). wake writes its own lines with
// write(2) on descriptor 2, never through stdio's `stderr`, so pointing that stream elsewhere
// moves only the libraries' lines. glibc's fopencookie is declared only under _GNU_SOURCE,
// which Swift's Glibc module is built without: it is declared here, with glibc's layout of
// cookie_io_functions_t (read, write, seek, close).
#include <stdint.h>
#include <syslog.h>
#include <unistd.h>
typedef struct {
    ssize_t (*read)(void *, char *, size_t);
    ssize_t (*write)(void *, const char *, size_t);
    int (*seek)(void *, long long *, int);
    int (*close)(void *);
} wake_cookie_io_functions_t;
FILE *fopencookie(void *cookie, const char *mode, wake_cookie_io_functions_t functions);

// Each line written: to the descriptor in `cookie` (tests), or to syslog (the journal) when it is -1.
static ssize_t wake_library_line_write(void *cookie, const char *buf, size_t size) {
    int fd = (int)(intptr_t)cookie;
    size_t start = 0;
    for (size_t i = 0; i <= size; i++) {
        if (i < size && buf[i] != '\n') continue;
        size_t len = i - start;
        if (len > 0) {
            if (fd >= 0) {
                ssize_t ignored = write(fd, buf + start, len);
                ignored = write(fd, "\n", 1);
                (void)ignored;
            } else {
                syslog(LOG_USER | LOG_NOTICE, "%.*s", (int)(len > 4096 ? 4096 : len), buf + start);
            }
        }
        start = i + 1;
    }
    return (ssize_t)size;
}

// Points stdio's `stderr` at a line-buffered stream that sends each line to `fd`, or to syslog
// when `fd` is -1. Returns the stream it replaced (for wake_restore_stdio_stderr), or NULL when
// no stream could be made (then nothing changed).
static inline FILE *wake_divert_stdio_stderr(int fd) {
    wake_cookie_io_functions_t functions = { 0, wake_library_line_write, 0, 0 };
    FILE *f = fopencookie((void *)(intptr_t)fd, "w", functions);
    if (f == NULL) return NULL;
    setvbuf(f, NULL, _IOLBF, 0);
    FILE *previous = stderr;
    fflush(previous);
    stderr = f;
    return previous;
}

static inline void wake_restore_stdio_stderr(FILE *previous) {
    FILE *current = stderr;
    stderr = previous;
    fclose(current);
}

// What a library does: one line through stdio's stderr, flushed (for the tests of the above).
static inline int wake_stdio_stderr_puts(const char *s) {
    int r = fputs(s, stderr);
    fflush(stderr);
    return r;
}
#endif
