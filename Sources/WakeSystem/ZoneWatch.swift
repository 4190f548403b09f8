import CLinux
import Glibc

/// Changes to the machine's time zone, as a descriptor to poll (inotify), with no polling of
/// its own. `/etc/localtime` is replaced as a symlink (timedatectl, GNOME's automatic zone), so
/// the watch is on its directory, for the names `localtime` and `timezone` created, moved in,
/// written or deleted. Whoever holds the watch re-reads the zone when `drain()` says so.
public final class ZoneWatch {
    public let fd: Int32
    /// The file watched for, `/etc/localtime` (another path in debug builds' tests).
    public let path: String
    private let names: Set<String>

    /// Watches the directory of `localtime` (`ZoneLoader.localtimePath` by default).
    public init(localtime: String = ZoneLoader.localtimePath) throws(SystemCallError) {
        let slash = localtime.lastIndex(of: "/")
        let dir = slash.map { $0 == localtime.startIndex ? "/" : String(localtime[..<$0]) } ?? "."
        let base = slash.map { String(localtime[localtime.index(after: $0)...]) } ?? localtime
        let fd = try syscall("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE)
        do {
            try syscall("inotify_add_watch(\(dir))") { inotify_add_watch(fd, dir, mask) }
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
        path = localtime
        names = [base, "timezone"]
    }

    deinit { close(fd) }

    /// Reads every pending notification; true when one was about the zone's files.
    public func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var changed = false
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return changed }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= n {
                let length = buffer.withUnsafeBytes { raw -> Int in
                    Int(raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self).len)
                }
                let start = offset + header
                let end = min(n, start + length)
                let name = String(decoding: buffer[start..<end].prefix { $0 != 0 }, as: UTF8.self)
                if names.contains(name) { changed = true }
                offset = end
            }
        }
    }
}
