#include <alsa/asoundlib.h>

// alsa-lib prints its own diagnostics to stderr ("ALSA lib pcm.c:...: Unknown PCM foo").
// wake reports every failure itself in one line, so those are silenced. The handler is
// variadic, which Swift cannot define, hence this shim.
static void wake_alsa_quiet_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void wake_alsa_silence_errors(void) {
    snd_lib_error_set_handler(wake_alsa_quiet_handler);
}
