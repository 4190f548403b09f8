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

// malloc_trim: the heap's free pages given back (FreedMemory).
#include <malloc.h>
// GNU gettext, glibc's: wake's translations (GettextCatalogue).
#include <libintl.h>

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

// CMSG_* are macros: receives one message of at most `capacity` bytes and the one descriptor
// (SCM_RIGHTS) that came with it, made close-on-exec. Returns the byte count (0 at end of file)
// or -1 with errno; *fd is -1 when none came, and any extra descriptors are closed.
#include <string.h>
#include <unistd.h>
#include <sys/xattr.h>
static inline long wake_receive_descriptor(int socket, unsigned char *bytes, unsigned long capacity, int *fd) {
    union { struct cmsghdr align; char buf[CMSG_SPACE(4 * sizeof(int))]; } control;
    struct iovec iov = { .iov_base = bytes, .iov_len = capacity };
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    memset(&control, 0, sizeof control);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.buf;
    msg.msg_controllen = sizeof control.buf;
    *fd = -1;
    long n = (long)recvmsg(socket, &msg, 0x40000000 /* MSG_CMSG_CLOEXEC */);
    if (n < 0) return -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        unsigned long count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (unsigned long i = 0; i < count; i++) {
            int received;
            memcpy(&received, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
            if (*fd == -1) *fd = received; else close(received);
        }
    }
    return n;
}

#include "descriptor_passing.h"

// glibc declares pipe2 only under _GNU_SOURCE.
int pipe2(int fds[2], int flags);

#include <sys/timex.h>
// Whether a synchronisation daemon keeps the kernel's clock (adjtimex read-only, modes 0): 1
// synchronised, 0 not (TIME_ERROR, or STA_UNSYNC set), -1 with errno when it cannot be asked.
static inline int wake_clock_synchronised(void) {
    struct timex tx = { 0 };
    int state = adjtimex(&tx);
    if (state < 0) return -1;
    return state != TIME_ERROR && !(tx.status & STA_UNSYNC);
}

#include <malloc.h>
// malloc_trim is in <malloc.h>, which the Glibc module does not include.

#include <sys/syscall.h>
// pidfd_open (Linux 5.3; glibc 2.36 declares it only in <sys/pidfd.h>): a descriptor that
// polls readable when the process ends. -1 and errno on failure (an older kernel: ENOSYS).
static inline int wake_pidfd_open(int pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

#include <spawn.h>
// Declared by glibc only under _GNU_SOURCE (2.29 and 2.34): a hook starts in the user's home,
// and with no descriptor of wake's but its three, whatever a library opened without O_CLOEXEC.
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
