#ifndef WAKE_CSNDFILE_SHIM_H
#define WAKE_CSNDFILE_SHIM_H
// libsndfile's headers only: the library (with every codec it links: FLAC, Vorbis, Opus, MPEG)
// is loaded with dlopen the first time a sound is opened, so the commands that play nothing
// (wake list, stop, --version, completions) start without mapping and relocating it.
// Swift calls the wake_sf_* functions below, which have libsndfile's signatures; while the
// library cannot be loaded they fail as libsndfile fails (NULL, an error code) and
// wake_sf_strerror says why.
#include <sndfile.h>
#include "../CLinux/lazy_library.h"

#define WAKE_SF_FUNCS(X) \
    X(sf_open_fd) X(sf_close) X(sf_error) X(sf_strerror) X(sf_seek) X(sf_command) \
    X(sf_readf_short) X(sf_readf_int) X(sf_readf_float) X(sf_readf_double)

WAKE_LAZY_LIBRARY(wake_sf, "libsndfile.so.1", WAKE_SF_FUNCS)
#define wake_sf (*wake_sf_storage())

static inline SNDFILE *wake_sf_open_fd(int fd, int mode, SF_INFO *info, int close_desc) {
    return wake_sf_available() ? wake_sf.sf_open_fd(fd, mode, info, close_desc) : NULL;
}
static inline int wake_sf_close(SNDFILE *h) { return wake_sf_available() ? wake_sf.sf_close(h) : 0; }
static inline int wake_sf_error(SNDFILE *h) { return wake_sf_available() ? wake_sf.sf_error(h) : SF_ERR_SYSTEM; }
static inline const char *wake_sf_strerror(SNDFILE *h) {
    return wake_sf_available() ? wake_sf.sf_strerror(h) : "libsndfile.so.1 cannot be loaded; reinstall it: sudo apt install --reinstall libsndfile1";
}
static inline sf_count_t wake_sf_seek(SNDFILE *h, sf_count_t frames, int whence) {
    return wake_sf_available() ? wake_sf.sf_seek(h, frames, whence) : -1;
}
static inline int wake_sf_command(SNDFILE *h, int command, void *data, int size) {
    return wake_sf_available() ? wake_sf.sf_command(h, command, data, size) : -1;
}
static inline sf_count_t wake_sf_readf_short(SNDFILE *h, short *p, sf_count_t n) { return wake_sf_available() ? wake_sf.sf_readf_short(h, p, n) : 0; }
static inline sf_count_t wake_sf_readf_int(SNDFILE *h, int *p, sf_count_t n) { return wake_sf_available() ? wake_sf.sf_readf_int(h, p, n) : 0; }
static inline sf_count_t wake_sf_readf_float(SNDFILE *h, float *p, sf_count_t n) { return wake_sf_available() ? wake_sf.sf_readf_float(h, p, n) : 0; }
static inline sf_count_t wake_sf_readf_double(SNDFILE *h, double *p, sf_count_t n) { return wake_sf_available() ? wake_sf.sf_readf_double(h, p, n) : 0; }
#endif
