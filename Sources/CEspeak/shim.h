#ifndef WAKE_CESPEAK_SHIM_H
#define WAKE_CESPEAK_SHIM_H
// espeak-ng's headers only: the library (and the libpcaudio, libpulse and libsonic it links) is
// loaded with dlopen when an alarm with --say on is set, so the commands that speak nothing never
// map it; wake_espeak_release ends espeak-ng and closes the library again, so a daemon waiting
// between spoken alarms holds neither it nor its voice data. Swift calls wake_espeak_speak below,
// which synthesises one text into memory; every call is serialised, since espeak-ng keeps its
// state in globals, and so are the loading and the release.
//
// Only the espeak_ng_* initialisation is used: the legacy espeak_Initialize calls exit(1) when
// its data is missing, which would end the daemon.
#include <stdlib.h>
#include <string.h>
#include <espeak-ng/espeak_ng.h>
#include "../CLinux/lazy_library.h"

#define WAKE_ESPEAK_FUNCS(X) \
    X(espeak_ng_InitializePath) X(espeak_ng_Initialize) X(espeak_ng_InitializeOutput) \
    X(espeak_ng_GetSampleRate) X(espeak_ng_SetVoiceByName) X(espeak_ng_Synthesize) \
    X(espeak_SetSynthCallback) X(espeak_ng_GetStatusCodeMessage) X(espeak_ng_ClearErrorContext) \
    X(espeak_Terminate)

/* Not WAKE_LAZY_LIBRARY: its pthread_once loads a library for the life of the process, and this
 * one is closed again. The table, the handle and espeak-ng's set-up are guarded by
 * wake_espeak_lock. */
typedef struct {
    WAKE_ESPEAK_FUNCS(WAKE_LAZY_FIELD)
    void *handle;
    /// espeak-ng set up since the library was loaded, and how that went.
    int setup_done;
    espeak_ng_STATUS setup_status;
    /// espeak_ng_Initialize succeeded: espeak_Terminate has something to end.
    int initialized;
} wake_espeak_functions;

static inline wake_espeak_functions *wake_espeak_storage(void) {
    static wake_espeak_functions table;
    return &table;
}
#define wake_espeak (*wake_espeak_storage())

static inline pthread_mutex_t *wake_espeak_lock(void) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    return &lock;
}

#define WAKE_ESPEAK_LOAD(n) t->n = (__typeof__(n) *)wake_lazy_symbol(h, #n); if (!t->n) { dlclose(h); memset(t, 0, sizeof *t); return 0; }

/// Loads the library and every function wake uses, with the lock held; 1 when they are there.
/// A library that cannot be loaded is tried again at the next call (it may be installed since).
static inline int wake_espeak_load_locked(void) {
    wake_espeak_functions *t = wake_espeak_storage();
    if (t->handle) return 1;
    void *h = dlopen("libespeak-ng.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) return 0;
    WAKE_ESPEAK_FUNCS(WAKE_ESPEAK_LOAD)
    t->handle = h;
    return 1;
}

/// The samples of one synthesis (mono, signed 16-bit, at `rate`), or why there are none.
typedef struct {
    short *samples;
    size_t count;
    size_t capacity;
    int rate;
    /// 0, or espeak-ng's status (or -1: no memory; -2: the library cannot be loaded).
    int status;
    /// 1 when espeak-ng could not start (its data missing or unreadable), not a synthesis.
    int setup_failed;
    char message[160];
} wake_speech;

static inline int wake_espeak_collect(short *wav, int n, espeak_EVENT *events) {
    if (!events) return 1;
    wake_speech *out = (wake_speech *)events->user_data;
    if (!out || !wav || n <= 0) return 0;
    if (out->count + (size_t)n > out->capacity) {
        size_t want = out->capacity ? out->capacity : 32768;
        while (want < out->count + (size_t)n) want *= 2;
        short *grown = (short *)realloc(out->samples, want * sizeof(short));
        if (!grown) { out->status = -1; return 1; }
        out->samples = grown;
        out->capacity = want;
    }
    memcpy(out->samples + out->count, wav, (size_t)n * sizeof(short));
    out->count += (size_t)n;
    return 0;
}

static inline void wake_espeak_set_message(wake_speech *out, espeak_ng_STATUS status) {
    out->status = (int)status;
    wake_espeak.espeak_ng_GetStatusCodeMessage(status, out->message, sizeof out->message);
}

/// espeak-ng set up once a load, with the lock held: its data, synchronous output into the
/// callback (no device opened), the English voice. Its status is kept: a second call says the same.
static inline espeak_ng_STATUS wake_espeak_setup(void) {
    wake_espeak_functions *t = wake_espeak_storage();
    if (t->setup_done) return t->setup_status;
    t->setup_done = 1;
    espeak_ng_ERROR_CONTEXT context = NULL;
    wake_espeak.espeak_ng_InitializePath(NULL);
    espeak_ng_STATUS status = wake_espeak.espeak_ng_Initialize(&context);
    if (context) wake_espeak.espeak_ng_ClearErrorContext(&context);
    t->initialized = status == ENS_OK;
    if (status == ENS_OK) status = wake_espeak.espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, NULL);
    if (status == ENS_OK) {
        wake_espeak.espeak_SetSynthCallback(wake_espeak_collect);
        status = wake_espeak.espeak_ng_SetVoiceByName("en");
    }
    t->setup_status = status;
    return status;
}

/// Whether libespeak-ng.so.1 and every function wake uses can be loaded (loading them).
static inline int wake_espeak_ready(void) {
    pthread_mutex_lock(wake_espeak_lock());
    int loaded = wake_espeak_load_locked();
    pthread_mutex_unlock(wake_espeak_lock());
    return loaded;
}

/// Ends espeak-ng (its voice, dictionary and phoneme data freed) and closes the library; the
/// next wake_espeak_speak loads and sets it up again. Nothing when it is not loaded.
static inline void wake_espeak_release(void) {
    pthread_mutex_lock(wake_espeak_lock());
    wake_espeak_functions *t = wake_espeak_storage();
    if (t->handle) {
        if (t->initialized) wake_espeak.espeak_Terminate();
        dlclose(t->handle);
        memset(t, 0, sizeof *t);
    }
    pthread_mutex_unlock(wake_espeak_lock());
}

/// `text` (UTF-8, NUL-terminated) spoken into `out`, whose samples the caller frees with
/// wake_speech_free. Returns 0, or the status also left in `out` with its message.
static inline int wake_espeak_speak(const char *text, wake_speech *out) {
    memset(out, 0, sizeof *out);
    pthread_mutex_lock(wake_espeak_lock());
    if (!wake_espeak_load_locked()) {
        pthread_mutex_unlock(wake_espeak_lock());
        out->status = -2;
        strncpy(out->message, "libespeak-ng.so.1 cannot be loaded", sizeof out->message - 1);
        return out->status;
    }
    espeak_ng_STATUS status = wake_espeak_setup();
    if (status == ENS_OK) {
        out->rate = wake_espeak.espeak_ng_GetSampleRate();
        status = wake_espeak.espeak_ng_Synthesize(text, strlen(text) + 1, 0, POS_CHARACTER, 0,
                                                  espeakCHARS_UTF8 | espeakENDPAUSE, NULL, out);
    }
    if (status != ENS_OK) {
        wake_espeak_set_message(out, status);
        out->setup_failed = out->rate == 0;
    }
    pthread_mutex_unlock(wake_espeak_lock());
    if (out->status == -1) strncpy(out->message, "out of memory", sizeof out->message - 1);
    return out->status;
}

static inline void wake_speech_free(wake_speech *s) {
    free(s->samples);
    s->samples = NULL;
    s->count = s->capacity = 0;
}
#endif
