import CLinux
import Glibc

/// Changes to the files of some directories, as a descriptor to poll (inotify): the daemon
/// learns of `wake add`, `remove` and `skip` at once, with no polling and no restart.
///
/// A directory that is missing, or goes away (deleted, or moved aside by a reset or a tool that
/// replaces the folder), is followed: its nearest existing parent is watched too, always, since
/// a directory the daemon holds open (its lock) reports no deletion of its own while it is
/// held; when the path leads to a directory again, that one is watched. A watch that stayed on
/// a deleted directory would never see the alarms written into the new one.
public final class DirectoryWatch {
    public let fd: Int32
    /// The directories asked for, each with the watches that stand for it now.
    private var targets: [Target]

    private struct Target {
        var path: String
        /// The directory's own watch, while the path leads to a directory.
        var wd: Int32?
        /// Its nearest existing parent's, for its name going and coming.
        var parentWd: Int32?
    }

    /// What one `drain()` found.
    public struct Changes: Equatable {
        /// A file in a watched directory changed (or the kernel's queue overflowed).
        public var files = false
        /// Directories that went away since the last drain.
        public var removed: [String] = []
        /// Directories watched again since the last drain (there again after going away).
        public var restored: [String] = []
        public var any: Bool { files || !removed.isEmpty || !restored.isEmpty }
    }

    // Self events as well as the files': a directory deleted or moved is followed, not lost.
    private static let filesMask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM
                                          | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    private let mask: UInt32
    /// Names in a watched directory whose changes are not changes of the files (`AlarmStore.isScratch`).
    private let ignoring: ([UInt8]) -> Bool

    /// Watches each directory for files written, moved in (an atomic rename), created or
    /// deleted; a missing one is waited for. Throws only when inotify itself cannot be had.
    /// `attributes`: a file's times or mode changing counts too (the control directory, whose
    /// sockets are touched when their process's alarms change: `ControlDirectory.announceChange`).
    /// `ignoring`: a file name (its bytes) whose events do not count, as a lock or a temporary
    /// file written beside the alarms: `wake add` made the daemon read 2,000 alarms three times.
    public init(directories: [String], attributes: Bool = false,
                ignoring: @escaping ([UInt8]) -> Bool = { _ in false }) throws(SystemCallError) {
        let mask = Self.filesMask | (attributes ? UInt32(IN_ATTRIB) : 0)
        // Checked before `self.fd` is set: a throw after that would run deinit and close it twice.
        let fd = try syscall("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        var unique: [String] = []
        for d in directories where !unique.contains(d) { unique.append(d) }
        // A directory that is there but cannot be watched (the watch limit,
        // fs.inotify.max_user_watches) is an error: its changes would go unseen. A missing one
        // is waited for.
        for path in unique {
            do {
                try syscall("inotify_add_watch(\(path))") { inotify_add_watch(fd, path, mask) }
            } catch {
                guard [.noSuchFileOrDirectory, .notDirectory].contains(error.errno) else {
                    close(fd)
                    throw error
                }
            }
        }
        self.fd = fd
        self.mask = mask
        self.ignoring = ignoring
        targets = unique.map { Target(path: $0) }
        _ = recheck()
    }

    deinit { close(fd) }

    /// The directories watched directly now (not waited for through a parent).
    public var watched: [String] { targets.filter { $0.wd != nil }.map(\.path) }

    /// Reads every pending notification and follows directories that went or came back.
    public func drain() -> Changes {
        var changes = Changes()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var moved = false
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= n {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                let nameStart = offset + header
                offset = nameStart + Int(event.len)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changes.files = true
                    moved = true
                    continue
                }
                for t in targets {
                    if t.wd == event.wd {
                        if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { moved = true }
                        else if !ignored(buffer, from: nameStart, length: Int(event.len), n: n) { changes.files = true }
                    }
                    // Something came or went beside the directory (or above the missing one).
                    if t.parentWd == event.wd { moved = true }
                }
            }
        }
        if moved {
            let (removed, restored) = recheck()
            changes.removed = removed
            changes.restored = restored
            if !restored.isEmpty { changes.files = true }
        }
        return changes
    }

    /// Whether the event's name (NUL-padded, `length` bytes at `from`) is one `ignoring` leaves out.
    private func ignored(_ buffer: [UInt8], from start: Int, length: Int, n: Int) -> Bool {
        guard length > 0, start + length <= n else { return false }
        var name: [UInt8] = []
        for i in start..<(start + length) {
            if buffer[i] == 0 { break }
            name.append(buffer[i])
        }
        return !name.isEmpty && ignoring(name)
    }

    /// Brings every target's watches in line with what its path leads to now.
    private func recheck() -> (removed: [String], restored: [String]) {
        var removed: [String] = []
        var restored: [String] = []
        for i in targets.indices {
            let path = targets[i].path
            // The parent first, then the directory: one made between a look for the directory
            // and the parent's watch would be seen by neither, nor the files written into it.
            let parent = settledParentWatch(of: path)
            // inotify gives the same descriptor for an inode watched twice: another one means
            // the path leads to another directory now.
            let now = addWatch(path)
            if let wd = targets[i].wd, wd != now {
                targets[i].wd = nil
                release(wd)
                removed.append(path)
            }
            if let now, targets[i].wd == nil {
                targets[i].wd = now
                // At the start the directory is simply there; later, it came back.
                if targets[i].parentWd != nil { restored.append(path) }
            }
            if let old = targets[i].parentWd, old != parent {
                targets[i].parentWd = nil
                release(old)
            }
            targets[i].parentWd = parent
        }
        return (removed, restored)
    }

    /// The nearest existing parent's watch, looked for again until it stays the same: a folder
    /// made below the one just watched, before its watch was in place, is then watched instead.
    private func settledParentWatch(of path: String) -> Int32? {
        var parent = nearestParentWatch(of: path)
        // Bounded: a tree made and unmade without pause must not hold the loop.
        for _ in 0..<64 {
            let again = nearestParentWatch(of: path)
            if again == parent { break }
            if let parent, !targets.contains(where: { $0.wd == parent || $0.parentWd == parent }) { _ = inotify_rm_watch(fd, parent) }
            parent = again
        }
        return parent
    }

    private func nearestParentWatch(of path: String) -> Int32? {
        var parent = path
        while let slash = parent.lastIndex(of: "/"), parent != "/" {
            parent = slash == parent.startIndex ? "/" : String(parent[..<slash])
            // Only names coming and going matter there: a busy runtime directory's touched files would wake the watcher for nothing.
            if let wd = addWatch(parent, mask: Self.filesMask) { return wd }
        }
        return nil
    }

    private func addWatch(_ path: String, mask: UInt32? = nil) -> Int32? {
        let wd = inotify_add_watch(fd, path, mask ?? self.mask)
        return wd >= 0 ? wd : nil
    }

    /// Drops a watch no target uses any more.
    private func release(_ wd: Int32) {
        if !targets.contains(where: { $0.wd == wd || $0.parentWd == wd }) { _ = inotify_rm_watch(fd, wd) }
    }
}
