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
 *   answers one byte 0 with the timerfd attached (SCM_RIGHTS). With one timerfd attached (it
 *   must be on the clock the request names), it arms (or disarms) that one and answers 0 alone.
 *   Any failure is answered with one byte, the errno (timerfd_create's or timerfd_settime's,
 *   EPROTO for a bad request, ERANGE for a time beyond the bound below), except the policy's
 *   refusal: two bytes, EACCES and why (1 a system account, 2 no session on a seat, 3 no
 *   login manager's records to tell by).
 *
 * The policy: the capability lets any caller wake the machine, so the helper makes a timer
 * only for a person at the machine: root (who holds the capability anyway), or an account that
 * is not a system account (uid 1000 and up, not systemd's dynamic service users, not nobody)
 * with an online session on a seat, as systemd-logind (or elogind) records it in
 * /run/systemd/users/UID (ONLINE_SEATS=). That is whom systemd 254 and later give
 * CAP_WAKE_ALARM at login (pam_systemd: regular users on a seat), without linking libsystemd
 * or asking a bus. A system account, a cron job, an ssh login or another user's lingering
 * service gets no timer: none of them should wake a laptop in a bag. A timer once made may be
 * re-armed by whoever holds it (only a permitted caller could have got one): wake's daemon,
 * started from a seat login, keeps its alarms after the screen locks or the user logs out, as
 * a process granted the capability by systemd keeps it.
 * The bound: no timer is armed more than 365 days ahead. wake's alarms never need more (a
 * standing alarm's next occurrence is at most a year away; wake arms a later one-off in steps),
 * and a timer further out than the real-time clock can hold made every suspend fail before
 * Linux 6.7 ("alarmtimer ... failed to suspend: error -22"): a PC's CMOS clock holds an alarm
 * at most a year ahead (a month or a day on many). No floor on how soon or how often: wake's
 * own snoozes and pre-rolls are seconds ahead, and a one-shot helper keeps no state to count
 * with; the person at the seat can keep the machine awake by other means anyway.
 *
 * It takes no argument but --version, reads no environment variable, reads only its own
 * /proc/self/fdinfo entry and the caller's logind record, closes every descriptor above 2
 * first, keeps no capability but CAP_WAKE_ALARM before the timer calls and none after them.
 * Exit codes (sysexits.h, as wake's own):
 *   0  done                              65 EX_DATAERR  a bad request: nothing, garbage, extra
 *                                                       bytes, a time beyond the bound
 *   64 EX_USAGE   an argument, or fd 0 is not an AF_UNIX seqpacket socket (run by wake, not by hand)
 *   69 EX_UNAVAILABLE  a timer call failed for another reason (an old kernel, not a timerfd)
 *   71 EX_OSERR   a call that should not fail did (capset, sendmsg)
 *   77 EX_NOPERM  the kernel refused the timer: this file lacks the capability (EPERM); or the
 *                 policy refused the caller
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include "../CLinux/descriptor_passing.h"
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define HELPER_VERSION "2"
#define REQUEST_TIMEOUT_SECONDS 5

/* The policy and the bound (see the top). The records' directory is a build setting only so
 * that the tests can build a helper that reads records of their own; the Makefile never sets it. */
#ifndef WAKE_LOGIND_USERS_DIR
#define WAKE_LOGIND_USERS_DIR "/run/systemd/users"
#endif
#define FIRST_REGULAR_UID 1000u
#define DYNAMIC_UID_FIRST 61184u
#define DYNAMIC_UID_LAST 65519u
#define NOBODY_UID 65534u
#define OVERFLOW_UID 65535u
#define FARTHEST_AHEAD_SECONDS ((int64_t)365 * 24 * 60 * 60)

enum { REFUSED_SYSTEM_ACCOUNT = 1, REFUSED_NO_SEAT = 2, REFUSED_NO_RECORDS = 3 };

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

static int refuse_with(int code, const char *why) {
    say(why);
    (void)reply(code, -1);
    return EXIT_DATAERR;
}

static int refuse(const char *why) { return refuse_with(EPROTO, why); }

/* The policy's refusal: EACCES and the reason, one message. */
static int refuse_caller(int why, uid_t uid) {
    unsigned char answer[2] = { (unsigned char)EACCES, (unsigned char)why };
    long n;
    do { n = wake_send_descriptor(0, answer, sizeof answer, -1); } while (n == -1 && errno == EINTR);
    char line[200];
    snprintf(line, sizeof line, "uid %u may not wake this machine: %s", (unsigned)uid,
             why == REFUSED_SYSTEM_ACCOUNT ? "a system account"
             : why == REFUSED_NO_SEAT ? "it has no session on a seat (a login at this machine's screen and keyboard)"
             : "no login manager records sessions here (" WAKE_LOGIND_USERS_DIR " is missing)");
    say(line);
    return EXIT_NOPERM;
}

/* Reads at most `capacity - 1` bytes of the file at `path` into `text`, NUL-terminated, and
 * returns 0; -1 with errno set when it cannot be opened or read, EFBIG when it holds more.
 * With `owned_by_root`, a file that root does not own, or that others may write, is refused
 * (EPERM): the caller cannot have written what it says. */
static int read_small_file(const char *path, char *text, size_t capacity, int owned_by_root) {
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (fd == -1) return -1;
    struct stat st;
    if (fstat(fd, &st) == -1) { int e = errno; close(fd); errno = e; return -1; }
    if (!S_ISREG(st.st_mode) || (owned_by_root && (st.st_uid != 0 || (st.st_mode & 022) != 0))) {
        close(fd);
        errno = EPERM;
        return -1;
    }
    size_t used = 0;
    while (used < capacity - 1) {
        ssize_t n = read(fd, text + used, capacity - 1 - used);
        if (n == -1 && errno == EINTR) continue;
        if (n == -1) { int e = errno; close(fd); errno = e; return -1; }
        if (n == 0) break;
        used += (size_t)n;
    }
    char more;
    ssize_t extra = used == capacity - 1 ? read(fd, &more, 1) : 0;
    close(fd);
    text[used] = '\0';
    if (extra > 0) { errno = EFBIG; return -1; }
    return 0;
}

/* The value of the `KEY=` line (`key` with its '='), or NULL; it ends at the newline or the NUL. */
static const char *field(const char *text, const char *key) {
    size_t length = strlen(key);
    for (const char *line = text; *line != '\0';) {
        if (strncmp(line, key, length) == 0) return line + length;
        const char *newline = strchr(line, '\n');
        if (newline == NULL) break;
        line = newline + 1;
    }
    return NULL;
}

/* Whether `uid` may have a timer made: 0 when it may, else a REFUSED_* reason. */
static int policy(uid_t uid) {
    if (uid == 0) return 0;
    if (uid < FIRST_REGULAR_UID || (uid >= DYNAMIC_UID_FIRST && uid <= DYNAMIC_UID_LAST) || uid == NOBODY_UID || uid == OVERFLOW_UID)
        return REFUSED_SYSTEM_ACCOUNT;
    char path[sizeof WAKE_LOGIND_USERS_DIR + 24];
    snprintf(path, sizeof path, "%s/%u", WAKE_LOGIND_USERS_DIR, (unsigned)uid);
    /* logind's record of a user: a few hundred bytes, a line of session ids per state. */
    static char record[65536];
    if (read_small_file(path, record, sizeof record, 1) == -1) {
        /* No record: no session at all; no directory: no login manager to ask. */
        struct stat st;
        return errno == ENOENT && stat(WAKE_LOGIND_USERS_DIR, &st) == -1 ? REFUSED_NO_RECORDS : REFUSED_NO_SEAT;
    }
    /* The seats of the user's sessions that are not closing: a seat session is a person at the
     * machine's own screen and keyboard, where an ssh login or a service has none. */
    const char *seats = field(record, "ONLINE_SEATS=");
    if (seats == NULL) return REFUSED_NO_SEAT;
    for (; *seats != '\0' && *seats != '\n'; seats++) {
        if (*seats != ' ') return 0;
    }
    return REFUSED_NO_SEAT;
}

/* The clock of timerfd `fd`, from this process's /proc/self/fdinfo; -1 when it is no timerfd. */
static long timer_clock(int fd) {
    char path[64], info[4096];
    snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
    if (read_small_file(path, info, sizeof info, 0) == -1 && errno != EFBIG) return -1;
    const char *value = field(info, "clockid:");
    if (value == NULL) return -1;
    while (*value == ' ' || *value == '\t') value++;
    long clock = 0;
    int digits = 0;
    for (; *value >= '0' && *value <= '9' && digits < 6; value++, digits++) clock = clock * 10 + (*value - '0');
    return digits > 0 ? clock : -1;
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

    if (passed < 0) {
        uid_t uid = getuid();
        int why = policy(uid);
        if (why != 0) return refuse_caller(why, uid);
    } else if (timer_clock(passed) != (long)clock) {
        /* Else a boot-clock timer named as the wall clock would be armed decades past the bound. */
        return refuse("the descriptor passed is not a timer on the clock the request names");
    }
    if (seconds != 0 || nanoseconds != 0) {
        int64_t ahead = seconds;
        if (flags & 1U) {
            struct timespec now = { 0, 0 };
            clock_gettime(clock == CLOCK_REALTIME_ALARM ? CLOCK_REALTIME : CLOCK_BOOTTIME, &now);
            ahead = seconds - (int64_t)now.tv_sec;  /* both >= 0: no overflow */
        }
        if (ahead > FARTHEST_AHEAD_SECONDS)
            return refuse_with(ERANGE, "the time is more than 365 days ahead; wake arms a later alarm in steps");
    }

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
