import Glibc
import SystemPackage
import WakeCore

/// An exclusive `flock` on a lock file, held while this object lives.
///
/// Two `wake add` at once each read the alarms, add one and write them back; without a lock
/// the second write would drop the first's alarm. The lock is on a file of its own, next to
/// the one it guards: the guarded file is replaced by a rename on every write, and a lock on
/// a replaced inode guards nothing.
///
/// `flock` locks belong to an open file description, so two locks in one process (two
/// threads) exclude each other as two processes do, and the kernel drops the lock when its
/// holder dies. The wait is bounded: a lock not granted within `timeout` is an error (a hung
/// holder never hangs wake).
public final class FileLock {
    public let path: String
    private let fd: Int32

    /// Opens (creating it 0600) and locks `path`, polling with `LOCK_NB` for at most `timeout`.
    /// Refused when `path` is not a regular file or not owned by this user.
    public init(path: String, timeout: Duration = .seconds(5)) throws(StoreError) {
        self.path = path
        let file: OpenedFile
        do {
            file = try RegularFile.open(path, flags: O_RDWR | O_CREAT | O_NOFOLLOW, mode: 0o600)
        } catch {
            throw StoreError(path: path, reason: "cannot open the lock file: \(error.reason)")
        }
        let fd = file.fd
        var st = stat()
        if fstat(fd, &st) == 0, st.st_uid != geteuid() {
            close(fd)
            throw StoreError(path: path, reason: "the lock file is owned by uid \(st.st_uid), not by you (uid \(geteuid()))",
                             isUnsafe: true)
        }
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.milliseconds(1)
        while true {
            do {
                try syscall("flock") { flock(fd, LOCK_EX | LOCK_NB) }
                break
            } catch {
                let now = ContinuousClock.now
                guard error.errno == .wouldBlock, now < deadline else {
                    close(fd)
                    if error.errno == .wouldBlock {
                        throw StoreError(path: path, reason: "still locked by another wake after \(Formatting.span(timeout)); try again")
                    }
                    throw StoreError(path: path, reason: error.description)
                }
                SystemClock.sleep(for: min(pause, deadline - now))
                pause = min(pause * 2, .milliseconds(50))
            }
        }
        self.fd = fd
    }

    deinit { close(fd) }
}
