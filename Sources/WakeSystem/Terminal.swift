import CLinux
import Glibc

/// The controlling terminal in cbreak mode: keys arrive one at a time without Enter or echo,
/// while Ctrl-C and Ctrl-Z still raise signals. Every way out restores the saved settings.
public final class Terminal {
    public let fd: Int32
    private let saved: termios
    public private(set) var isRaw = false

    /// nil when the descriptor is not a terminal: then signals alone control the alarm.
    public init?(fd: Int32 = STDIN_FILENO) {
        guard isatty(fd) == 1 else { return nil }
        var t = termios()
        guard tcgetattr(fd, &t) == 0 else { return nil }
        self.fd = fd
        self.saved = t
    }

    /// A background job (`wake 07:00 &`) must not touch the terminal: tcsetattr would stop it
    /// with SIGTTOU and a read with SIGTTIN, and a stopped alarm never rings.
    public var isForeground: Bool { tcgetpgrp(fd) == getpgrp() }

    /// Enters cbreak when in the foreground and not already in it; true when it did.
    @discardableResult
    public func enterCbreak() -> Bool {
        guard isForeground, !isRaw else { return false }
        var t = saved
        t.c_lflag &= ~tcflag_t(ICANON | ECHO)
        t.c_lflag |= tcflag_t(ISIG)
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        var tt = t
        if tcsetattr(fd, TCSANOW, &tt) == 0 { isRaw = true }
        return isRaw
    }

    public func restore() {
        guard isRaw else { return }
        var t = saved
        tcsetattr(fd, TCSANOW, &t)
        isRaw = false
    }

    /// The keys waiting on the terminal (empty at end of file).
    public func readKeys() -> [UInt8] {
        guard isForeground else { return [] }
        var buf = [UInt8](repeating: 0, count: 64)
        let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, 64) }
        return n > 0 ? Array(buf[0..<n]) : []
    }

    deinit { restore() }

    /// The width of the terminal on `fd` in columns, nil when unknown.
    public static func columns(of fd: Int32) -> Int? {
        let c = wake_terminal_columns(fd)
        return c > 0 ? Int(c) : nil
    }
}
