import CLinux
import Glibc

/// Changes to the machine's time zone, as a descriptor to poll (inotify), with no polling of
/// its own. Whoever holds the watch re-reads the zone when `drain()` says so.
///
/// The watch is on `/etc/localtime` itself, not on `/etc`: a watch on the directory woke a
/// waiting daemon for every file written there (resolv.conf at each network change, a package
/// install). As systemd does, the link is watched without following it, for being replaced
/// (timedatectl renames a new link over it: the old one's link count drops), moved, deleted or
/// written in place (a copied zone file); the directory is watched only while the link is
/// missing, for its name coming back. Every event re-arms the watch: after a rename the path
/// leads to another inode, and a watch left on the old one would never report again.
///
/// `/etc/timezone` is not watched: wake takes its zone from `TZ` or `/etc/localtime` alone
/// (`ZoneLoader`), as glibc does, so a change to `/etc/timezone` alone cannot change the time an
/// alarm rings at; tools that change the zone (timedatectl, tzdata's configuration) replace
/// `/etc/localtime`, which is seen.
public final class ZoneWatch {
    public let fd: Int32
    /// The file watched, `/etc/localtime` (another path in debug builds' tests).
    public let path: String
    private let directory: String
    private let name: String
    /// The link's own watch, while the path leads to something.
    private var linkWd: Int32?
    /// The directory's, while the link is missing.
    private var directoryWd: Int32?

    // IN_ATTRIB: a link renamed over this one, or this one unlinked, changes its link count.
    // IN_CLOSE_WRITE and not IN_MODIFY: a zone file copied in place is read once it is whole,
    // not at each block of a half-written file (which would warn of a corrupt zone for nothing).
    private static let linkMask = UInt32(IN_DONT_FOLLOW | IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF | IN_CLOSE_WRITE)
    private static let directoryMask = UInt32(IN_ONLYDIR | IN_CREATE | IN_MOVED_TO)

    /// Watches `localtime` (`ZoneLoader.localtimePath` by default), or its directory while it is
    /// missing. Throws when neither can be watched.
    public init(localtime: String = ZoneLoader.localtimePath) throws(SystemCallError) {
        let slash = localtime.lastIndex(of: "/")
        let directory = slash.map { $0 == localtime.startIndex ? "/" : String(localtime[..<$0]) } ?? "."
        // Checked before `self.fd` is set: a throw after that would run deinit and close it twice.
        let fd = try syscall("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        self.fd = fd
        path = localtime
        self.directory = directory
        name = slash.map { String(localtime[localtime.index(after: $0)...]) } ?? localtime
        try arm()
    }

    deinit { close(fd) }

    /// True while the link itself is watched (false: it is missing, its directory is watched).
    var watchesLink: Bool { linkWd != nil }

    /// Reads every pending notification, re-arming the watch after each; true when the zone may
    /// have changed (the link replaced, written, moved, deleted, or back after going).
    public func drain() -> Bool {
        var changed = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Bounded: a link replaced without pause must not hold the loop.
        for _ in 0..<64 {
            var any = false
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                any = true
                if batch(buffer, count: n) { changed = true }
            }
            guard any else { break }
            // A watch that cannot be had again (the watch limit) reports the change it missed now;
            // the next zone change then goes unseen, as with no watch at all.
            if (try? arm()) ?? true { changed = true }
        }
        return changed
    }

    /// Watches the link if it is there, else its directory; true when the link is watched again
    /// after it was missing (its name came back).
    @discardableResult
    private func arm() throws(SystemCallError) -> Bool {
        let wasMissing = directoryWd != nil
        if try watchLink() {
            dropDirectory()
            return wasMissing
        }
        if directoryWd == nil {
            let directory = directory
            directoryWd = try syscall("inotify_add_watch(\(directory))") { inotify_add_watch(fd, directory, Self.directoryMask) }
        }
        // Looked for again once the directory is watched: a link made between the first look and
        // the directory's watch would be seen by neither.
        guard try watchLink() else { return false }
        dropDirectory()
        return true
    }

    /// Watches what the path leads to now, dropping the watch of the inode it led to before;
    /// false when the path leads nowhere.
    private func watchLink() throws(SystemCallError) -> Bool {
        let path = path
        let wd: Int32
        do {
            wd = try syscall("inotify_add_watch(\(path))") { inotify_add_watch(fd, path, Self.linkMask) }
        } catch {
            guard [.noSuchFileOrDirectory, .notDirectory].contains(error.errno) else { throw error }
            if let old = linkWd { _ = inotify_rm_watch(fd, old) }
            linkWd = nil
            return false
        }
        // inotify gives the same descriptor for an inode watched twice: another one is another
        // inode. The old watch may be gone already (its inode deleted): EINVAL then, and no harm.
        if let old = linkWd, old != wd { _ = inotify_rm_watch(fd, old) }
        linkWd = wd
        return true
    }

    private func dropDirectory() {
        if let wd = directoryWd { _ = inotify_rm_watch(fd, wd) }
        directoryWd = nil
    }

    /// Whether one read's events were about the zone. Events of a watch already dropped (its
    /// IN_IGNORED, after a re-arm found another inode) are not: the re-arm has looked already.
    private func batch(_ buffer: [UInt8], count n: Int) -> Bool {
        var changed = false
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= n {
            let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
            let start = offset + header
            let end = min(n, start + Int(event.len))
            offset = end
            if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { changed = true }
            if let linkWd, event.wd == linkWd { changed = true }
            if let directoryWd, event.wd == directoryWd {
                let named = buffer[start..<end].prefix { $0 != 0 }
                if named.elementsEqual(name.utf8) { changed = true }
            }
        }
        return changed
    }
}
