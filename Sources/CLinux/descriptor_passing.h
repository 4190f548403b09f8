#ifndef WAKE_DESCRIPTOR_PASSING_H
#define WAKE_DESCRIPTOR_PASSING_H
// Sending a descriptor over a Unix socket (SCM_RIGHTS), written once for wake (CLinux's shim.h)
// and for wake-alarm-timer (its main.c includes this file by its path: the helper is built from
// its one source file with cc).
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

// Sends `length` bytes as one message, with `fd` attached (SCM_RIGHTS) unless it is -1; never
// raises SIGPIPE. The byte count or -1 with errno.
static inline long wake_send_descriptor(int socket, const void *bytes, unsigned long length, int fd) {
    union { struct cmsghdr align; char buf[CMSG_SPACE(sizeof(int))]; } control;
    struct iovec iov = { .iov_base = (void *)bytes, .iov_len = length };
    struct msghdr msg;
    memset(&msg, 0, sizeof msg);
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    if (fd != -1) {
        memset(&control, 0, sizeof control);
        msg.msg_control = control.buf;
        msg.msg_controllen = sizeof control.buf;
        struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof(int));
    }
    return (long)sendmsg(socket, &msg, MSG_NOSIGNAL);
}
#endif
