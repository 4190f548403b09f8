// Linux interfaces that Swift's Glibc module does not export.
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/eventfd.h>

// glibc declares memfd_create only under _GNU_SOURCE, which the Glibc module is built without.
int memfd_create(const char *name, unsigned int flags);
static const unsigned int WAKE_MFD_CLOEXEC = 1U;

#include <sys/ioctl.h>
// ioctl is variadic, which Swift cannot call: the terminal's width in columns, or -1.
static inline int wake_terminal_columns(int fd) {
    struct winsize w;
    if (ioctl(fd, TIOCGWINSZ, &w) != 0) return -1;
    return w.ws_col;
}

#include <signal.h>
// SIGRTMIN and SIGRTMAX are function-like macros in glibc.
static inline int wake_sigrtmin(void) { return SIGRTMIN; }
static inline int wake_sigrtmax(void) { return SIGRTMAX; }

#include <sys/inotify.h>

#include <sys/socket.h>
#include <sys/types.h>
// struct ucred is declared only under _GNU_SOURCE; this one has its layout (pid, uid, gid).
// The peer's credentials of a Unix socket as the kernel recorded them at connect(); -1 and
// errno on failure.
// accept4 too (a non-blocking, close-on-exec client in one call).
int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
struct wake_peer { int pid; unsigned int uid; unsigned int gid; };
static inline int wake_peer_credentials(int fd, struct wake_peer *out) {
    socklen_t len = sizeof *out;
    return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, out, &len);
}
