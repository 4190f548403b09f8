/*
 * wake-alarm-timer: arms one timerfd on an alarm clock for wake, and does nothing else.
 *
 * It is installed with one file capability, CAP_WAKE_ALARM (setcap cap_wake_alarm+ep), so that
 * wake itself stays unprivileged: a capability on wake would put all of it in secure-execution
 * mode (AT_SECURE), where sd-bus ignores DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR.
 * The kernel checks CAP_WAKE_ALARM at timerfd_create AND at every timerfd_settime of an alarm
 * timer (fs/timerfd.c, do_timerfd_settime), so handing wake a bare timerfd is not enough: the
 * helper arms it (and re-arms or disarms one wake passes back). Reading and polling it need nothing.
 *
 * Protocol (wake's side is Sources/WakeSystem/AlarmTimerHelper.swift):
 *   wake spawns this program with one end of an AF_UNIX SOCK_SEQPACKET socketpair as fd 0,
 *   sends one 24-byte message and shuts down its writing side. The message, native byte order:
 *     byte 0      clock: 'R' CLOCK_REALTIME_ALARM, 'B' CLOCK_BOOTTIME_ALARM
 *     byte 1      flags: 1 TFD_TIMER_ABSTIME, 2 TFD_TIMER_CANCEL_ON_SET (only with 1), nothing else
 *     bytes 2-7   zero
 *     bytes 8-15  it_value.tv_sec  (int64, >= 0)
 *     bytes 16-23 it_value.tv_nsec (int64, 0 ..< 1e9); a zero it_value disarms
 *   Without a descriptor attached, the helper creates a timerfd on that clock, arms it, and
 *   answers one byte 0 with the timerfd attached (SCM_RIGHTS). With one timerfd attached, it
 *   arms (or disarms) that one and answers 0 alone. Any failure is answered with one byte, the
 *   errno (timerfd_create's or timerfd_settime's, or EPROTO for a bad request).
 *
 * It takes no argument but --version, reads no environment variable and no file, closes every
 * descriptor above 2 first, keeps no capability but CAP_WAKE_ALARM before the timer calls and
 * none after them. Exit codes (sysexits.h, as wake's own):
 *   0  done                              65 EX_DATAERR  a bad request: nothing, garbage, extra bytes
 *   64 EX_USAGE   an argument, or fd 0 is not an AF_UNIX seqpacket socket (run by wake, not by hand)
 *   69 EX_UNAVAILABLE  a timer call failed for another reason (an old kernel, not a timerfd)
 *   71 EX_OSERR   a call that should not fail did (capset, sendmsg)
 *   77 EX_NOPERM  the kernel refused the timer: this file lacks the capability (EPERM)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include "../CLinux/descriptor_passing.h"
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define HELPER_VERSION "1"
#define REQUEST_TIMEOUT_SECONDS 5

enum { EXIT_SENT = 0, EXIT_USAGE = 64, EXIT_DATAERR = 65, EXIT_UNAVAILABLE = 69, EXIT_OSERR = 71, EXIT_NOPERM = 77 };

static const char *program = "wake-alarm-timer";

static void say(const char *what) {
    /* One line on stderr; nothing else is ever written. A failed write changes nothing. */
    char line[512];
    int n = snprintf(line, sizeof line, "%s: %s\n", program, what);
    if (n > 0) {
        ssize_t ignored = write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
        (void)ignored;
    }
}

/* Makes sure 1 and 2 are open (on /dev/null if they were closed), so that the timerfd never
 * lands on them and a message never goes into a socket or the timer; then closes everything
 * above 2 that the parent left open. */
static int tidy_descriptors(void) {
    for (int fd = 1; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) == -1 && errno == EBADF) {
            int null = open("/dev/null", O_RDWR | O_CLOEXEC);
            if (null == -1) return -1;
            if (null != fd) {
                if (dup2(null, fd) == -1) return -1;
                close(null);
            }
        }
    }
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return 0;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    for (long fd = 3; fd < (max > 0 ? max : 1024); fd++) close((int)fd);
    return 0;
}

/* Sets every capability set to `keep` (a bit mask over capabilities 32..63; 0 for none). */
static int set_capabilities(__u32 high_bits) {
    struct __user_cap_header_struct header = { .version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    data[1].effective = high_bits;
    data[1].permitted = high_bits;
    return (int)syscall(SYS_capset, &header, data);
}

/* Sends one byte, with `fd` attached when it is not -1. */
static int reply(int code, int fd) {
    unsigned char byte = (unsigned char)code;
    long n;
    do { n = wake_send_descriptor(0, &byte, 1, fd); } while (n == -1 && errno == EINTR);
    return n == 1 ? 0 : -1;
}

static int refuse(const char *why) {
    say(why);
    (void)reply(EPROTO, -1);
    return EXIT_DATAERR;
}

/* Receives the request and at most one descriptor. Returns the byte count, -1 on error (errno
 * set), and sets *fd (-1 when none came, -2 when more than one came: all closed). */
static ssize_t receive(unsigned char *bytes, size_t capacity, int *fd) {
    union { struct cmsghdr align; char buf[CMSG_SPACE(4 * sizeof(int))]; } control;
    struct iovec iov = { .iov_base = bytes, .iov_len = capacity };
    struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf, .msg_controllen = sizeof control.buf };
    memset(&control, 0, sizeof control);
    *fd = -1;
    ssize_t n;
    do { n = recvmsg(0, &msg, MSG_CMSG_CLOEXEC); } while (n == -1 && errno == EINTR);
    if (n == -1) return -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int received;
            memcpy(&received, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
            if (*fd == -1) *fd = received; else { close(received); if (*fd >= 0) close(*fd); *fd = -2; }
        }
    }
    if (msg.msg_flags & MSG_CTRUNC) { if (*fd >= 0) close(*fd); *fd = -2; }
    return n;
}

#define REQUEST_SIZE 24

int main(int argc, char **argv) {
    if (tidy_descriptors() == -1) return EXIT_OSERR;
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        static const char v[] = "wake-alarm-timer " HELPER_VERSION "\n";
        return write(1, v, sizeof v - 1) == (ssize_t)(sizeof v - 1) ? EXIT_SENT : EXIT_OSERR;
    }
    if (argc > 1) {
        say("takes no arguments (only --version); wake runs it with a socket on its standard input");
        return EXIT_USAGE;
    }

    /* Keep CAP_WAKE_ALARM alone (run by root, this process has every capability). */
    if (set_capabilities(1U << (CAP_WAKE_ALARM - 32)) == -1) {
        /* Fails only when the capability is not permitted at all: then keep none. */
        if (set_capabilities(0) == -1) { say("capset failed"); return EXIT_OSERR; }
    }

    int domain = 0, type = 0;
    socklen_t len = sizeof domain;
    if (getsockopt(0, SOL_SOCKET, SO_DOMAIN, &domain, &len) == -1 || domain != AF_UNIX) {
        say("standard input is not a unix socket; this helper is run by wake, not by hand");
        return EXIT_USAGE;
    }
    len = sizeof type;
    if (getsockopt(0, SOL_SOCKET, SO_TYPE, &type, &len) == -1 || type != SOCK_SEQPACKET) {
        say("standard input is not a seqpacket unix socket; this helper is run by wake, not by hand");
        return EXIT_USAGE;
    }
    struct timeval timeout = { .tv_sec = REQUEST_TIMEOUT_SECONDS, .tv_usec = 0 };
    if (setsockopt(0, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout) == -1) { say("setsockopt failed"); return EXIT_OSERR; }

    /* The request: one message of REQUEST_SIZE bytes, then end of file. */
    unsigned char request[REQUEST_SIZE + 1];
    int passed = -1;
    ssize_t n = receive(request, sizeof request, &passed);
    if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) return refuse("no request within 5 seconds");
    if (n == -1) return refuse("cannot read the request");
    if (passed == -2) return refuse("more than one descriptor came with the request");
    if (n == 0) return refuse("no request (end of file before it)");
    if (n != REQUEST_SIZE) return refuse(n > REQUEST_SIZE ? "the request is too long" : "the request is too short");
    unsigned char extra;
    int extra_fd = -1;
    n = receive(&extra, 1, &extra_fd);
    if (extra_fd >= 0) close(extra_fd);
    if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) return refuse("no end of file within 5 seconds after the request");
    if (n != 0 || extra_fd != -1) return refuse("more came after the request");

    clockid_t clock;
    switch (request[0]) {
    case 'R': clock = CLOCK_REALTIME_ALARM; break;
    case 'B': clock = CLOCK_BOOTTIME_ALARM; break;
    default: return refuse("unknown clock (not 'R' or 'B')");
    }
    unsigned flags = request[1];
    if (flags & ~3U) return refuse("unknown flags");
    if ((flags & 2U) && !(flags & 1U)) return refuse("cancel-on-set without an absolute time");
    for (int i = 2; i < 8; i++) if (request[i] != 0) return refuse("reserved bytes are not zero");
    int64_t seconds, nanoseconds;
    memcpy(&seconds, request + 8, 8);
    memcpy(&nanoseconds, request + 16, 8);
    if (seconds < 0 || nanoseconds < 0 || nanoseconds >= 1000000000) return refuse("the time is out of range");

    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    spec.it_value.tv_sec = (time_t)seconds;
    spec.it_value.tv_nsec = (long)nanoseconds;
    int tfd_flags = ((flags & 1U) ? TFD_TIMER_ABSTIME : 0) | ((flags & 2U) ? TFD_TIMER_CANCEL_ON_SET : 0);

    int timer = passed >= 0 ? passed : timerfd_create(clock, TFD_NONBLOCK | TFD_CLOEXEC);
    const char *call = "timerfd_create";
    int failed = timer == -1 ? errno : 0;
    if (!failed) {
        call = "timerfd_settime";
        if (timerfd_settime(timer, tfd_flags, &spec, NULL) == -1) failed = errno;
    }
    /* No capability from here on, whatever happened. */
    if (set_capabilities(0) == -1) { say("capset failed"); return EXIT_OSERR; }
    if (failed) {
        if (reply(failed, -1) == -1) return EXIT_OSERR;
        char line[160];
        snprintf(line, sizeof line, "%s: %s%s", call, strerror(failed),
                 failed == EPERM ? " (this file lacks CAP_WAKE_ALARM: setcap cap_wake_alarm+ep)" : "");
        say(line);
        return failed == EPERM ? EXIT_NOPERM : EXIT_UNAVAILABLE;
    }
    if (reply(0, passed >= 0 ? -1 : timer) == -1) { say("cannot send the answer (sendmsg failed)"); return EXIT_OSERR; }
    return EXIT_SENT;
}
