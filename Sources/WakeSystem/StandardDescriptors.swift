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

    public static let output: Int32 = STDOUT_FILENO
    public static let error: Int32 = STDERR_FILENO

    /// Writes all of `text` to `fd` (EINTR retried); false once it takes nothing more: a pipe
    /// whose reader has gone (EPIPE: SIGPIPE is ignored), a full disk. A feed whose reader is
    /// gone ends quietly on that.
    public static func write(_ text: String, to fd: Int32) -> Bool {
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            done += n
        }
        return true
    }

    /// Standard input to its end, at most `limit` bytes (EINTR retried; an error ends it).
    public static func readInput(limit: Int) -> [UInt8] {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while out.count < limit {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            out += buffer.prefix(n)
        }
        return Array(out.prefix(limit))
    }
}
