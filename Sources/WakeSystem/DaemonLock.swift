import Glibc

/// One daemon per user: the daemon holds an exclusive `flock` for as long as it runs. The
/// kernel drops it when the process dies, however it dies, so there is never a stale
/// "running" to clean up; commands test it without waiting.
///
/// What is locked is the alarms' directory itself, opened read-only, not a file in it: a lock
/// file cannot be made on a read-only disk, and one left behind as a directory, a dangling
/// link or another user's file would stop every start. `daemon.lock` (earlier versions' lock)
/// is locked too where it can be opened, so an earlier version still running is seen; and
/// while the alarms' directory cannot be locked (it is missing and cannot be made), the
/// control directory under `XDG_RUNTIME_DIR` stands in. Only `EWOULDBLOCK` on one of them
/// means another daemon; anything else is said, and the others hold.
public final class DaemonLock {
    /// One thing locked: its path and what `fstat` said of it when it was locked.
    private struct Held {
        var path: String
        var fd: Int32
        var device: UInt
        var inode: UInt
    }

    /// Another daemon holds one of the locks.
    public struct HeldByAnother: Error {
        public var path: String
        /// The holder's PID, from `/proc/locks`, when it can be found.
        public var pid: Int32?
    }

    private var held: [Held] = []
    private let directory: String
    private let runtimeDirectory: String?
    /// Why a candidate could not be locked, one line each (the daemon says them once).
    public private(set) var warnings: [String] = []

    /// `<configHome>/wake`: beside the alarms file, so two daemons over one alarms file exclude
    /// each other even when each was given another `XDG_STATE_HOME` (a login shell's and the
    /// systemd user manager's).
    public static var directoryPath: String? { XDGPaths.configHome().map { $0 + "/wake" } }

    /// Takes every lock it can. Throws only when another daemon holds one; waits up to
    /// `patience` for it, since a command's check (`isHeld`) holds a shared lock for an instant.
    public init(directory: String, runtimeDirectory: String?, patience: Duration = .seconds(1)) throws(HeldByAnother) {
        self.directory = directory
        self.runtimeDirectory = runtimeDirectory
        try take(patience: patience)
        if held.isEmpty {
            warnings.append("cannot lock '\(directory.printable)'\(runtimeDirectory.map { " or '\($0.printable)'" } ?? ""); "
                            + "if a second wake daemon starts, an alarm may ring twice")
        }
    }

    deinit { for h in held { close(h.fd) } }

    /// The daemon's directory was replaced (deleted and made again): locks what is there now,
    /// keeping what it holds elsewhere. Throws when another daemon took the new one meanwhile.
    public func renew(patience: Duration = .seconds(1)) throws(HeldByAnother) {
        warnings = []
        var kept: [Held] = []
        for h in held {
            if Self.identity(of: h.path).map({ $0 == (h.device, h.inode) }) ?? false {
                kept.append(h)
            } else {
                close(h.fd)
            }
        }
        held = kept
        try take(patience: patience)
    }

    private func take(patience: Duration) throws(HeldByAnother) {
        try takeOne(directory, isDirectory: true, patience: patience)
        try takeOne(directory + "/daemon.lock", isDirectory: false, patience: patience)
        // Only in place of the directory: two daemons over other alarms files may share it.
        if !held.contains(where: { $0.path == directory }), let runtimeDirectory {
            try takeOne(runtimeDirectory, isDirectory: true, patience: patience)
        } else if let i = held.firstIndex(where: { $0.path == runtimeDirectory }) {
            close(held[i].fd)
            held.remove(at: i)
        }
    }

    private func takeOne(_ path: String, isDirectory: Bool, patience: Duration) throws(HeldByAnother) {
        guard !held.contains(where: { $0.path == path }) else { return }
        let fd: Int32
        do { fd = try Self.open(path, isDirectory: isDirectory) } catch {
            // A missing directory has nothing to guard yet (it is locked when it appears); a
            // missing earlier-version file is the usual case.
            if error.errno == .noSuchFileOrDirectory { return }
            warnings.append("cannot use '\(path.printable)' as a lock (\(error.errno.description)); "
                            + (isDirectory ? "the daemon's other locks hold" : "remove it: the daemon locks its directory instead"))
            return
        }
        do {
            try Self.lock(fd, patience: patience)
        } catch {
            close(fd)
            if error.errno == .wouldBlock {
                for h in held { close(h.fd) }
                held = []
                throw HeldByAnother(path: path, pid: Self.lockHolder(of: path))
            }
            warnings.append("cannot lock '\(path.printable)' (\(error.errno.description)); the daemon's other locks hold")
            return
        }
        var st = stat()
        _ = fstat(fd, &st)
        held.append(Held(path: path, fd: fd, device: UInt(st.st_dev), inode: UInt(st.st_ino)))
        if !isDirectory { Self.writePID(fd) }
    }

    /// Read-only for a directory (it can always be locked so) and, for the file, read-write
    /// when it can be made or written, else read-only: a lock needs no write access.
    private static func open(_ path: String, isDirectory: Bool) throws(SystemCallError) -> Int32 {
        if isDirectory {
            return try syscall("open(\(path))") { Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW) }
        }
        do {
            return try syscall("open(\(path))") { Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600) }
        } catch {
            guard [.readOnlyFileSystem, .permissionDenied, .notPermitted].contains(error.errno) else { throw error }
            let fd = try syscall("open(\(path))") { Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
            var st = stat()
            // Another user's file (a root-run daemon's) is not ours to share a lock with.
            if fstat(fd, &st) != 0 || st.st_mode & S_IFMT != S_IFREG || st.st_uid != geteuid() {
                close(fd)
                throw error
            }
            return fd
        }
    }

    /// `LOCK_EX | LOCK_NB`, tried again for up to `patience` while another holds it.
    private static func lock(_ fd: Int32, patience: Duration) throws(SystemCallError) {
        let deadline = ContinuousClock.now + patience
        while true {
            do {
                try syscall("flock") { flock(fd, LOCK_EX | LOCK_NB) }
                return
            } catch {
                guard error.errno == .wouldBlock, ContinuousClock.now < deadline else { throw error }
                SystemClock.sleep(for: .milliseconds(20))
            }
        }
    }

    private static func writePID(_ fd: Int32) {
        let text = Array("\(getpid())\n".utf8)
        guard ftruncate(fd, 0) == 0 else { return }  // opened read-only
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    private static func identity(of path: String) -> (UInt, UInt)? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return (UInt(st.st_dev), UInt(st.st_ino))
    }

    /// Whether a daemon holds the lock now: a shared lock tried without waiting on each
    /// candidate (a daemon's start waits out the instant this holds it).
    public static func isHeld(directory: String? = directoryPath, runtimeDirectory: String? = ControlDirectory.path()) -> Bool {
        let paths = [directory, directory.map { $0 + "/daemon.lock" }, runtimeDirectory].compactMap { $0 }
        return paths.contains { path in
            let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            if flock(fd, LOCK_SH | LOCK_NB) == 0 { flock(fd, LOCK_UN); return false }
            return errno == EWOULDBLOCK
        }
    }

    /// The running daemon's PID, when one holds the lock and `/proc/locks` names it.
    public static func runningPID(directory: String? = directoryPath, runtimeDirectory: String? = ControlDirectory.path()) -> Int32? {
        let paths = [directory, directory.map { $0 + "/daemon.lock" }, runtimeDirectory].compactMap { $0 }
        for path in paths { if let pid = lockHolder(of: path) { return pid } }
        return nil
    }

    /// The PID holding an exclusive `flock` on `path`, from `/proc/locks` (`1: FLOCK ADVISORY
    /// WRITE 4242 08:01:1234 0 EOF`): by device and inode, else by inode alone (a btrfs
    /// subvolume or an overlay reports another device there than `stat` does).
    static func lockHolder(of path: String) -> Int32? {
        guard let (device, inode) = identity(of: path),
              let text = try? AtomicFile.read("/proc/locks") else { return nil }
        let wanted = "\(String(major(device), radix: 16)):\(String(minor(device), radix: 16))"
        var byInode: Int32?
        for line in text.split(separator: "\n") {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count >= 6, f[1] == "FLOCK", f[3] == "WRITE", let pid = Int32(f[4]), pid != getpid() else { continue }
            let id = f[5].split(separator: ":")
            guard id.count == 3, UInt(id[2]) == inode else { continue }
            // The kernel prints the major and minor numbers in hex, two digits at least.
            let dev = "\(UInt(id[0], radix: 16).map { String($0, radix: 16) } ?? ""):\(UInt(id[1], radix: 16).map { String($0, radix: 16) } ?? "")"
            if dev == wanted { return pid }
            byInode = byInode ?? pid
        }
        return byInode
    }

    private static func major(_ dev: UInt) -> UInt { ((dev >> 8) & 0xfff) | ((dev >> 32) & ~UInt(0xfff)) }
    private static func minor(_ dev: UInt) -> UInt { (dev & 0xff) | ((dev >> 12) & ~UInt(0xff)) }
}
