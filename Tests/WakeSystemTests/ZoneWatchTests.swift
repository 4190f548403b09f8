import Foundation
import Glibc
import Testing
@testable import WakeSystem
@testable import WakeTestSupport

/// Issue 51, target 5: the zone watch is on the localtime link itself, so a file written beside
/// it (resolv.conf in /etc at each network change) never wakes a waiting daemon, and the link
/// is still followed through every way it is replaced. Each test has a directory of its own
/// standing for /etc.
@Suite("System: the time zone watch")
struct ZoneWatchTests {
    final class Etc {
        let dir: TestDirectory
        var localtime: String { dir.file("localtime") }

        init(link zone: String? = "UTC") throws {
            dir = try TestDirectory("wake-zonewatch")
            if let zone { try link(zone, at: localtime) }
        }

        func link(_ zone: String, at path: String) throws {
            guard symlink("/usr/share/zoneinfo/" + zone, path) == 0 else { throw WakeTestError("symlink: errno \(errno)") }
        }

        /// As timedatectl does: a new link renamed over the old one.
        func replace(with zone: String) throws {
            let tmp = dir.file(".localtime.new")
            try link(zone, at: tmp)
            guard rename(tmp, localtime) == 0 else { throw WakeTestError("rename: errno \(errno)") }
        }
    }

    /// Whether the watch's descriptor has something to read within `milliseconds` (0: now).
    func readable(_ watch: ZoneWatch, within milliseconds: Int32) -> Bool {
        var p = pollfd(fd: watch.fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, milliseconds) == 1 && p.revents & Int16(POLLIN) != 0
    }

    /// Waits (generously) for the descriptor, then drains it.
    func seen(_ watch: ZoneWatch) -> Bool { readable(watch, within: 5000) && watch.drain() }

    @Test("the link replaced by rename: seen, and seen again at a second replace (the watch follows the new inode)")
    func replacedTwice() throws {
        let etc = try Etc()
        let watch = try ZoneWatch(localtime: etc.localtime)
        #expect(watch.watchesLink)
        try etc.replace(with: "Europe/Berlin")
        #expect(seen(watch))
        try etc.replace(with: "Asia/Kolkata")
        #expect(seen(watch), "a watch left on the first link's inode would see nothing now")
        #expect(!readable(watch, within: 0), "nothing left over once drained")
        #expect(!watch.drain())
    }

    @Test("a zone file written in place (a copy, not a link): seen")
    func writtenInPlace() throws {
        let etc = try Etc(link: nil)
        _ = try etc.dir.write("localtime", try RegularFile.readAll("/usr/share/zoneinfo/UTC"))
        let watch = try ZoneWatch(localtime: etc.localtime)
        _ = try etc.dir.write("localtime", try RegularFile.readAll("/usr/share/zoneinfo/Europe/Berlin"))
        #expect(seen(watch))
        _ = try etc.dir.write("localtime", try RegularFile.readAll("/usr/share/zoneinfo/Asia/Kolkata"))
        #expect(seen(watch))
    }

    @Test("deleted, then made again (ln -sf): both seen, the directory watched only in between")
    func deletedThenRecreated() throws {
        let etc = try Etc()
        let watch = try ZoneWatch(localtime: etc.localtime)
        #expect(unlink(etc.localtime) == 0)
        #expect(seen(watch))
        #expect(!watch.watchesLink)
        try etc.link("Europe/Berlin", at: etc.localtime)
        #expect(seen(watch))
        #expect(watch.watchesLink)
        try etc.replace(with: "Asia/Kolkata")
        #expect(seen(watch), "the link made again is itself watched")
    }

    @Test("missing at the start: its directory is watched, and the link made is seen")
    func missingAtStart() throws {
        let etc = try Etc(link: nil)
        let watch = try ZoneWatch(localtime: etc.localtime)
        #expect(!watch.watchesLink)
        _ = try etc.dir.write("resolv.conf", Array("nameserver 127.0.0.1\n".utf8))
        // The directory's watch wakes for any name while the link is missing, but says no change.
        #expect(!watch.drain())
        try etc.link("UTC", at: etc.localtime)
        #expect(seen(watch))
        #expect(watch.watchesLink)
    }

    @Test("other files written, replaced, made and deleted beside the link: the descriptor stays quiet")
    func neighboursQuiet() throws {
        let etc = try Etc()
        let watch = try ZoneWatch(localtime: etc.localtime)
        _ = try etc.dir.write("resolv.conf", Array("nameserver 127.0.0.1\n".utf8))
        _ = try etc.dir.write(".resolv.conf.new", Array("nameserver 127.0.0.2\n".utf8))
        #expect(rename(etc.dir.file(".resolv.conf.new"), etc.dir.file("resolv.conf")) == 0)
        _ = try etc.dir.write("timezone", Array("Europe/Berlin\n".utf8))
        try etc.link("Europe/Berlin", at: etc.dir.file("localtime.bak"))
        #expect(unlink(etc.dir.file("localtime.bak")) == 0)
        #expect(!readable(watch, within: 0), "a write beside the link must not wake the daemon")
        #expect(!watch.drain())
    }

    @Test("inotify refused: the call's typed error")
    func refused() throws {
        let etc = try Etc()
        #expect(throws: SystemCallError("inotify_add_watch(\(etc.localtime))", .noSpace)) {
            try FaultInjector.inject("syscall:inotify_add_watch=ENOSPC") { _ in _ = try ZoneWatch(localtime: etc.localtime) }
        }
        #expect(throws: SystemCallError("inotify_init1", .tooManyOpenFiles)) {
            try FaultInjector.inject("syscall:inotify_init1=EMFILE") { _ in _ = try ZoneWatch(localtime: etc.localtime) }
        }
    }
}
