/* alsa_probe: an LD_PRELOAD shim that watches a program's ALSA playback from the outside.
 *
 * It wraps snd_pcm_open and the snd_pcm_write* calls, and appends to the file named by
 * $ALSA_PROBE_LOG one line per event, each stamped with CLOCK_REALTIME in nanoseconds:
 *   <pid> open <ns> <device>          when snd_pcm_open is called
 *   <pid> first <ns> <rate>           when the first write call after an snd_pcm_open returns
 *                                     frames (rate in Hz)
 *   <pid> frames <ns> <frames> <rate> at exit: frames accepted by every write call
 * The same shim runs under wake, aplay, sox and mpv, so all are measured the same way. A
 * program that plays to a sound server through libpulse itself (wake's own named stream, where
 * ALSA's PCM would be its pulse plugin) is measured the same way: pa_stream_connect_playback is
 * its open and pa_stream_write its write, unless ALSA's pulse plugin made the call (then the
 * snd_pcm_* call around it has already counted).
 * Two more lines explain where time goes (the benchmark's findings):
 *   <pid> woke <ns>                   when a poll() that blocked for over 0.2 s returns
 *                                     (for wake: its deadline timer fired)
 *   <pid> sf_command <ns> <cmd> <dur_ns>  a libsndfile sf_command call that took over 0.1 ms
 * It links nothing: the real functions are looked up at run time (real_fn), and the ALSA
 * types are opaque pointers. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef long sframes;
typedef unsigned long uframes;

static long long total_frames;
static int saw_first, ever_wrote;
static unsigned rate_hz;

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Lines are kept in memory and written at exit, so that logging costs the measured program
 * nothing on its way to the first frame (an snprintf, no system call). */
static char pending[8192];
static size_t pending_len;
static pid_t owner;  /* a forked child must not write its parent's lines again */

static void flush_log(void) {
    const char *path = getenv("ALSA_PROBE_LOG");
    if (!path || pending_len == 0 || getpid() != owner) return;
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ssize_t w = write(fd, pending, pending_len);  /* one write: lines of many processes never mix */
        (void)w;
        close(fd);
    }
    pending_len = 0;
}

static void log_line(const char *fmt, ...) {
    char buf[512];
    int n = snprintf(buf, sizeof buf, "%d ", (int)getpid());
    va_list ap;
    va_start(ap, fmt);
    n += vsnprintf(buf + n, sizeof buf - n, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof buf) n = sizeof buf - 1;
    if (owner != getpid()) { owner = getpid(); pending_len = 0; }
    if (pending_len + n > sizeof pending) flush_log();
    memcpy(pending + pending_len, buf, n);
    pending_len += n;
}

/* The real function: the next definition after this shim, or, for programs that load the
 * library privately with dlopen (sox's ALSA format module), the one in that library. */
static void *real_in(const char *library, const char *name) {
    void *f = dlsym(RTLD_NEXT, name);
    if (f) return f;
    void *lib = dlopen(library, RTLD_LAZY | RTLD_NOLOAD);
    return lib ? dlsym(lib, name) : NULL;
}
#define real_fn(name) real_in("libasound.so.2", name)

static unsigned current_rate(void *pcm) {
    int (*malloc_p)(void **) = real_fn("snd_pcm_hw_params_malloc");
    void (*free_p)(void *) = real_fn("snd_pcm_hw_params_free");
    int (*current)(void *, void *) = real_fn("snd_pcm_hw_params_current");
    int (*get_rate)(void *, unsigned *, int *) = real_fn("snd_pcm_hw_params_get_rate");
    if (!malloc_p || !free_p || !current || !get_rate) return 0;
    void *p = NULL;
    unsigned r = 0;
    int dir = 0;
    if (malloc_p(&p) == 0) {
        if (current(pcm, p) == 0) get_rate(p, &r, &dir);
        free_p(p);
    }
    return r;
}

static void wrote(void *pcm, sframes r) {
    if (r <= 0) return;
    if (!saw_first) {
        long long t = now_ns();
        saw_first = ever_wrote = 1;
        rate_hz = current_rate(pcm);
        log_line("first %lld %u\n", t, rate_hz);
    }
    total_frames += r;
}

__attribute__((destructor)) static void at_exit(void) {
    if (ever_wrote) log_line("frames %lld %lld %u\n", now_ns(), total_frames, rate_hz);
    flush_log();
}

int poll(struct pollfd *fds, nfds_t n, int timeout) {
    static int (*real)(struct pollfd *, nfds_t, int);
    if (!real) real = dlsym(RTLD_NEXT, "poll");
    long long before = now_ns();
    int r = real(fds, n, timeout);
    long long after = now_ns();
    if (after - before > 200000000LL) log_line("woke %lld\n", after);
    return r;
}

int sf_command(void *sndfile, int cmd, void *data, int datasize) {
    static int (*real)(void *, int, void *, int);
    if (!real) real = real_in("libsndfile.so.1", "sf_command");
    long long before = now_ns();
    int r = real(sndfile, cmd, data, datasize);
    long long took = now_ns() - before;
    if (took > 100000) log_line("sf_command %lld 0x%x %lld\n", before, cmd, took);
    return r;
}

int snd_pcm_open(void **pcm, const char *name, int stream, int mode) {
    log_line("open %lld %s\n", now_ns(), name ? name : "?");
    saw_first = 0;  /* the next write that takes frames is this open's first */
    static int (*real)(void **, const char *, int, int);
    if (!real) real = real_fn("snd_pcm_open");
    return real(pcm, name, stream, mode);
}

#define WRAP(fn, buftype)                                               \
    sframes fn(void *pcm, buftype buf, uframes size) {                  \
        static sframes (*real)(void *, buftype, uframes);               \
        if (!real) real = real_fn(#fn);                        \
        sframes r = real(pcm, buf, size);                               \
        wrote(pcm, r);                                                  \
        return r;                                                       \
    }
WRAP(snd_pcm_writei, const void *)
WRAP(snd_pcm_writen, void **)
WRAP(snd_pcm_mmap_writei, const void *)
WRAP(snd_pcm_mmap_writen, void **)

/* mmap access: frames are handed over by snd_pcm_mmap_commit. */
sframes snd_pcm_mmap_commit(void *pcm, uframes offset, uframes frames) {
    static sframes (*real)(void *, uframes, uframes);
    if (!real) real = real_fn("snd_pcm_mmap_commit");
    sframes r = real(pcm, offset, frames);
    wrote(pcm, r);
    return r;
}

/* libpulse, called by the program itself. dladdr of the caller tells the plugin's calls apart. */
static int called_by_alsa_plugin(void *caller) {
    Dl_info info;
    return dladdr(caller, &info) && info.dli_fname && strstr(info.dli_fname, "libasound_module_pcm_pulse");
}
#define pulse_fn(name) real_in("libpulse.so.0", name)
typedef struct { int format; unsigned rate; unsigned char channels; } pulse_spec;

int pa_stream_connect_playback(void *stream, const char *dev, const void *attr, int flags, const void *volume, void *sync) {
    static int (*real)(void *, const char *, const void *, int, const void *, void *);
    if (!real) real = pulse_fn("pa_stream_connect_playback");
    if (!called_by_alsa_plugin(__builtin_return_address(0))) {
        log_line("open %lld pulse:%s\n", now_ns(), dev ? dev : "");
        saw_first = 0;
    }
    return real(stream, dev, attr, flags, volume, sync);
}

int pa_stream_write(void *stream, const void *data, size_t bytes, void (*free_cb)(void *), long long offset, int seek) {
    static int (*real)(void *, const void *, size_t, void (*)(void *), long long, int);
    static const pulse_spec *(*spec_of)(void *);
    static size_t (*frame_size)(const pulse_spec *);
    if (!real) {
        real = pulse_fn("pa_stream_write");
        spec_of = pulse_fn("pa_stream_get_sample_spec");
        frame_size = pulse_fn("pa_frame_size");
    }
    int r = real(stream, data, bytes, free_cb, offset, seek);
    if (r == 0 && spec_of && frame_size && !called_by_alsa_plugin(__builtin_return_address(0))) {
        const pulse_spec *spec = spec_of(stream);
        size_t size = spec ? frame_size(spec) : 0;
        if (size && !saw_first) {
            long long t = now_ns();
            saw_first = ever_wrote = 1;
            rate_hz = spec->rate;
            log_line("first %lld %u\n", t, rate_hz);
        }
        if (size) total_frames += (long long)(bytes / size);
    }
    return r;
}
