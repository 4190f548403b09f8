#ifndef WAKE_CESPEAK_SHIM_H
#define WAKE_CESPEAK_SHIM_H
// espeak-ng's headers only: the library (and the libpcaudio, libpulse and libsonic it links) is
// loaded with dlopen the first time an alarm with --say on is set, so the commands that speak
// nothing never map it. Swift calls wake_espeak_speak below, which synthesises one text into
// memory; every call is serialised, since espeak-ng keeps its state in globals.
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
    X(espeak_SetSynthCallback) X(espeak_ng_GetStatusCodeMessage) X(espeak_ng_ClearErrorContext)

WAKE_LAZY_LIBRARY(wake_espeak, "libespeak-ng.so.1", WAKE_ESPEAK_FUNCS)
#define wake_espeak (*wake_espeak_storage())

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

static inline pthread_mutex_t *wake_espeak_lock(void) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    return &lock;
}

static inline void wake_espeak_set_message(wake_speech *out, espeak_ng_STATUS status) {
    out->status = (int)status;
    wake_espeak.espeak_ng_GetStatusCodeMessage(status, out->message, sizeof out->message);
}

/// espeak-ng set up once: its data, synchronous output into the callback (no device opened),
/// the English voice. Its status is kept: a second call says the same.
static inline espeak_ng_STATUS wake_espeak_setup(void) {
    static int done = 0;
    static espeak_ng_STATUS status = ENS_OK;
    if (done) return status;
    done = 1;
    espeak_ng_ERROR_CONTEXT context = NULL;
    wake_espeak.espeak_ng_InitializePath(NULL);
    status = wake_espeak.espeak_ng_Initialize(&context);
    if (context) wake_espeak.espeak_ng_ClearErrorContext(&context);
    if (status != ENS_OK) return status;
    status = wake_espeak.espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, NULL);
    if (status != ENS_OK) return status;
    wake_espeak.espeak_SetSynthCallback(wake_espeak_collect);
    status = wake_espeak.espeak_ng_SetVoiceByName("en");
    return status;
}

/// Whether libespeak-ng.so.1 and every function wake uses can be loaded.
static inline int wake_espeak_ready(void) { return wake_espeak_available(); }

/// `text` (UTF-8, NUL-terminated) spoken into `out`, whose samples the caller frees with
/// wake_speech_free. Returns 0, or the status also left in `out` with its message.
static inline int wake_espeak_speak(const char *text, wake_speech *out) {
    memset(out, 0, sizeof *out);
    if (!wake_espeak_available()) {
        out->status = -2;
        strncpy(out->message, "libespeak-ng.so.1 cannot be loaded", sizeof out->message - 1);
        return out->status;
    }
    pthread_mutex_lock(wake_espeak_lock());
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
