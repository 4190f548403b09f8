import Glibc

public enum StandardDescriptors {
    /// Points any closed descriptor among 0, 1 and 2 at /dev/null, as daemons and careful
    /// tools do before opening anything else.
    public static func reopenClosed() {
        for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if null >= 0 && null != fd {
                dup2(null, fd)
                close(null)
            }
        }
    }
}
