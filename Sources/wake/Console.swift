import Glibc
import WakeCore

/// Where wake's words go: information on stdout (silenced by --quiet), problems on stderr
/// (always), and on a terminal a status line redrawn in place.
final class Console {
    let quiet: Bool
    let stdoutIsTerminal: Bool
    private var statusShown = false

    init(quiet: Bool) {
        self.quiet = quiet
        stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    }

    /// Writes ignoring failure: a closed or broken stdout must not stop an alarm (SIGPIPE is ignored).
    private func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            done += n
        }
    }

    func info(_ line: String) {
        guard !quiet else { return }
        clearStatus()
        write(STDOUT_FILENO, line + "\n")
    }

    /// Output that is the point of the command (dry run, device list): printed even with --quiet.
    func result(_ line: String) { write(STDOUT_FILENO, line + "\n") }

    func error(_ line: String) {
        clearStatus()
        write(STDERR_FILENO, "wake: " + line + "\n")
    }

    var showsStatus: Bool { stdoutIsTerminal && !quiet }

    func status(_ line: String) {
        guard showsStatus else { return }
        write(STDOUT_FILENO, "\r\u{1B}[K" + line)
        statusShown = true
    }

    func clearStatus() {
        guard statusShown else { return }
        write(STDOUT_FILENO, "\r\u{1B}[K")
        statusShown = false
    }
}
