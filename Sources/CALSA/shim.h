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
