import CLinux
import Glibc

/// Changes to the files of some directories, as a descriptor to poll (inotify): the daemon
/// learns of `wake add`, `remove` and `skip` at once, with no polling and no restart.
public final class DirectoryWatch {
    public let fd: Int32

    /// Watches each directory for files written, moved in (an atomic rename), created or deleted.
    public init(directories: [String]) throws(SystemCallError) {
        // Watches added before `self.fd` is set: a throw after that would run deinit and close it twice.
        let fd = try syscall("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)
        for dir in directories {
            do {
                try syscall("inotify_add_watch(\(dir))") { inotify_add_watch(fd, dir, mask) }
            } catch {
                close(fd)
                throw error
            }
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Reads every pending notification; true when there was any.
    @discardableResult
    public func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var any = false
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return any }
            any = true
        }
    }
}
