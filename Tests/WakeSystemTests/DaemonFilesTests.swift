import Foundation
import Glibc
import Synchronization
import Testing
import WakeCore
@testable import WakeSystem
@testable import WakeTestSupport

/// What the daemon's start stands on (issue 37): a lock that works read-only and whatever file
/// is left where an earlier version kept its lock, a watch that follows its directory going and
/// coming back, and a read that sets aside the lines that are not text.
@Suite("Daemon files: lock, watch, tolerant read")
struct DaemonFilesTests {
    /// Drains `watch` until `done` holds of what it gathered, for at most two seconds.
    static func drain(_ watch: DirectoryWatch, until done: (DirectoryWatch.Changes) -> Bool) -> DirectoryWatch.Changes {
        var all = DirectoryWatch.Changes()
        for _ in 0..<200 {
            let c = watch.drain()
            all.files = all.files || c.files
            all.removed += c.removed
            all.restored += c.restored
            if done(all) { break }
            usleep(10_000)
        }
        return all
    }

    @Test("the watch follows a directory deleted, made again, moved aside and back, and one missing at the start")
    func watchFollowsItsDirectory() throws {
        let dir = try TestDirectory()
        let wake = dir.file("config/wake")
        let missing = dir.file("state/wake")
        try FileManager.default.createDirectory(atPath: wake, withIntermediateDirectories: true)
        let watch = try DirectoryWatch(directories: [wake, missing, wake])
        #expect(watch.watched == [wake])
        // Held open, as the daemon's lock holds it: the kernel then reports no deletion of its own.
        let held = open(wake, O_RDONLY | O_DIRECTORY)
        defer { close(held) }

        try "x".write(toFile: wake + "/alarms.toml", atomically: true, encoding: .utf8)
        #expect(Self.drain(watch) { $0.files }.files)
        try FileManager.default.removeItem(atPath: wake)
        #expect(Self.drain(watch) { !$0.removed.isEmpty }.removed == [wake])
        #expect(watch.watched.isEmpty)
        try FileManager.default.createDirectory(atPath: wake, withIntermediateDirectories: true)
        #expect(Self.drain(watch) { !$0.restored.isEmpty }.restored == [wake])
        try "y".write(toFile: wake + "/alarms.toml", atomically: true, encoding: .utf8)
        #expect(Self.drain(watch) { $0.files }.files, "the new directory's files are watched")

        #expect(rename(wake, wake + ".old") == 0)
        #expect(Self.drain(watch) { !$0.removed.isEmpty }.removed == [wake])
        #expect(rename(wake + ".old", wake) == 0)
        #expect(Self.drain(watch) { !$0.restored.isEmpty }.restored == [wake])

        // Missing at the start, its parents too: made later, it is watched then.
        try FileManager.default.createDirectory(atPath: missing, withIntermediateDirectories: true)
        #expect(Self.drain(watch) { !$0.restored.isEmpty }.restored == [missing])
        #expect(Set(watch.watched) == [wake, missing])
    }

    @Test("a lock, a temporary file or the last good copy written beside the alarms is no change; alarms.toml still is")
    func watchLeavesOutScratchFiles() throws {
        let dir = try TestDirectory()
        let wake = dir.file("wake")
        try FileManager.default.createDirectory(atPath: wake, withIntermediateDirectories: true)
        let watch = try DirectoryWatch(directories: [wake], ignoring: AlarmStore.isScratch)
        for name in ["alarms.toml.lock", ".alarms.toml.tmp-1-1", ".alarms.toml.swp", "alarms.last-good.toml"] {
            try "x".write(toFile: wake + "/" + name, atomically: false, encoding: .utf8)
        }
        try FileManager.default.removeItem(atPath: wake + "/.alarms.toml.tmp-1-1")
        usleep(50_000)
        #expect(!watch.drain().any, "scratch files reported as a change")
        #expect(rename(wake + "/.alarms.toml.swp", wake + "/alarms.toml") == 0)
        #expect(Self.drain(watch) { $0.files }.files, "alarms.toml renamed into place is a change")
        try "y".write(toFile: wake + "/config.toml", atomically: false, encoding: .utf8)
        #expect(Self.drain(watch) { $0.files }.files, "config.toml written is a change")
    }

    /// `wake next --follow` lost a `wake add` into a fresh home: the watch saw the config folder
    /// made, found the alarms' folder not there yet, and watched the config folder only after
    /// `wake add` had made the alarms' folder in it, so neither was ever seen. A writer on another
    /// thread makes the folders and the file while the watch drains, many times over; each time
    /// the folder must end up watched and a change reported.
    final class Flag: Sendable { let value = Atomic<Bool>(false) }

    @Test("folders made while the watch follows them are never lost between its looks")
    func foldersMadeDuringARecheck() throws {
        let dir = try TestDirectory()
        for round in 0..<300 {
            let root = dir.file("r\(round)")
            mkdir(root, 0o700)
            let target = root + "/config/wake"
            let watch = try DirectoryWatch(directories: [target])
            let done = Flag()
            let writer = Thread {
                mkdir(root + "/config", 0o700)
                mkdir(target, 0o700)
                let fd = open(target + "/alarms.toml", O_WRONLY | O_CREAT, 0o600)
                close(fd)
                done.value.store(true, ordering: .releasing)
            }
            writer.start()
            var seen = false
            while !done.value.load(ordering: .acquiring) { seen = watch.drain().any || seen }
            for _ in 0..<5 {
                seen = watch.drain().any || seen
                usleep(1_000)
            }
            #expect(watch.watched == [target], "round \(round): the folder made meanwhile is not watched")
            #expect(seen, "round \(round): no change reported")
            if watch.watched != [target] { break }
        }
    }

    @Test("the lock: one holder, the holder's PID, renewed on a new directory, and never 'another daemon' for a broken file")
    func lockRules() throws {
        let dir = try TestDirectory()
        let wake = dir.file("wake")
        let runtime = dir.file("run")
        mkdir(wake, 0o700)
        mkdir(runtime, 0o700)
        let lock = try DaemonLock(directory: wake, runtimeDirectory: runtime, patience: .zero)
        #expect(lock.warnings.isEmpty)
        #expect(DaemonLock.isHeld(directory: wake, runtimeDirectory: nil))
        // A second taker (another open file description) is told who holds it. /proc/locks
        // names this process, which is left out as "another": so only the path is checked.
        do {
            _ = try DaemonLock(directory: wake, runtimeDirectory: runtime, patience: .milliseconds(50))
            Issue.record("a second lock was granted")
        } catch {
            #expect(error.path == wake)
        }
        // The directory replaced: the new one is locked, the old released.
        try FileManager.default.removeItem(atPath: wake)
        mkdir(wake, 0o700)
        #expect(!DaemonLock.isHeld(directory: wake, runtimeDirectory: nil))
        try lock.renew(patience: .zero)
        #expect(DaemonLock.isHeld(directory: wake, runtimeDirectory: nil))
        withExtendedLifetime(lock) {}

        // daemon.lock as a directory: a warning, not "another daemon", and the directory locked.
        let other = dir.file("other")
        mkdir(other, 0o700)
        mkdir(other + "/daemon.lock", 0o700)
        let second = try DaemonLock(directory: other, runtimeDirectory: nil, patience: .zero)
        #expect(second.warnings.count == 1 && second.warnings[0].contains("daemon.lock' as a lock"), "\(second.warnings)")
        #expect(DaemonLock.isHeld(directory: other, runtimeDirectory: nil))
        withExtendedLifetime(second) {}

        // No directory at all: the runtime directory stands in.
        let none = try DaemonLock(directory: dir.file("absent"), runtimeDirectory: runtime, patience: .zero)
        #expect(DaemonLock.isHeld(directory: dir.file("absent"), runtimeDirectory: runtime))
        withExtendedLifetime(none) {}
    }

    @Test("the holder's PID is read from /proc/locks, for a lock another process holds")
    func holderFromProcLocks() async throws {
        let dir = try TestDirectory()
        let wake = dir.file("wake")
        mkdir(wake, 0o700)
        let holder = try ChildProcess("/usr/bin/flock", ["-x", wake, "sleep", "30"])
        defer { holder.send(SIGKILL) }
        let deadline = ContinuousClock.now + .seconds(30)
        while !DaemonLock.isHeld(directory: wake, runtimeDirectory: nil), ContinuousClock.now < deadline { usleep(20_000) }
        try #require(DaemonLock.isHeld(directory: wake, runtimeDirectory: nil), "flock(1) did not take the lock")
        do {
            _ = try DaemonLock(directory: wake, runtimeDirectory: nil, patience: .zero)
            Issue.record("granted while flock(1) holds it")
        } catch {
            // flock(1) forks sleep, which inherits the descriptor: either may be named.
            #expect(error.pid != nil && error.pid != getpid(), "\(error)")
        }
    }

    @Test("bytes that are not UTF-8 empty only their lines (a header keeps its '[')")
    func textByLine() {
        let bytes = Array("a = \"1\"\n".utf8) + [0x62, 0xE9, 0x0A] + Array("  [t".utf8) + [0xFF] + Array("]\nc\n".utf8)
        let read = AtomicFile.textByLine(bytes)
        #expect(read.text == "a = \"1\"\n\n[\nc\n")
        #expect(read.invalidLines == [2, 3] && read.commentLines.isEmpty)
        #expect(AtomicFile.textByLine(Array("plain\n".utf8)) == .init(text: "plain\n"))
    }

    /// Issue 49, item 12: one Latin-1 byte in a comment set aside the alarm above it.
    @Test("a comment that is not UTF-8 is cut off and said; the alarm above it is kept, by both reads")
    func invalidComment() throws {
        // `# café` in Latin-1 on a line of its own, and after a value; a '#' inside a string is not a comment.
        let bytes = Array("[alarms.work]\ntime = \"06:30\"\n# caf".utf8) + [0xE9] + Array("\ndays = [\"mon\"] # caf".utf8) + [0xE9]
            + Array("\nmessage = \"#1 \\\" #\"\ncreated = \"2026-11-23T03:00:00Z\"\n".utf8)
        let read = AtomicFile.textByLine(bytes)
        #expect(read.invalidLines.isEmpty && read.commentLines == [3, 4], "\(read)")
        #expect(read.text.hasPrefix("[alarms.work]\ntime = \"06:30\"\n\ndays = [\"mon\"] \nmessage = \"#1 \\\" #\"\n"), "\(read.text)")
        #expect(AtomicFile.beforeComment(ArraySlice(Array("m = \"a#b\" ".utf8) + [0xE9])) == nil)

        let dir = try TestDirectory()
        let s = store(in: dir)
        _ = s.prepareDirectories()
        try Data(bytes).write(to: URL(fileURLWithPath: s.alarmsFile))
        let tolerant = s.loadTolerant(keepLastGood: false)
        #expect(tolerant.alarms?.map(\.name) == ["work"], "\(tolerant)")
        #expect(tolerant.alarms?.first?.options["message"] == "#1 \" #", "\(tolerant)")
        // A note, not a problem: nothing is set aside, so `wake list` does not fail for it.
        #expect(tolerant.problems.isEmpty, "\(tolerant.problems)")
        #expect(tolerant.notes.count == 2
                && tolerant.notes.allSatisfy {
                    $0.hasSuffix("a comment that is not valid UTF-8 text is skipped; its alarm is kept; save the file as UTF-8")
                },
                "\(tolerant.notes)")
        #expect(try s.load().map(\.name) == ["work"])
    }

    @Test("the history read tolerantly: a bad line costs only itself")
    func tolerantHistory() throws {
        let dir = try TestDirectory()
        let s = store(in: dir)
        _ = s.prepareDirectories()
        try "[a]\nfired = \"not a date\"\npaused_until = \"2030-01-01T00:00:00Z\"\n\n[b]\nfired = \"2026-11-23T03:00:00Z\"\n"
            .write(toFile: s.historyFile, atomically: true, encoding: .utf8)
        let (records, problems) = s.loadHistoryTolerant()
        #expect(records["a"]?.pauses.isEmpty == false && records["a"]?.lastFired == nil)
        #expect(records["b"]?.lastFired != nil)
        #expect(problems.map(\.line) == [2])
    }
}
