import Foundation
import Glibc
import Synchronization
import Testing
import WakeCore
@testable import WakeSystem
@testable import WakeTestSupport

/// The alarm store on a real file system: XDG paths, permissions, atomic writes, the lock
/// under concurrent updaters (threads and processes), corrupt and hostile files.

func standing(_ name: String, options: [String: String] = [:]) -> StandingAlarm {
    StandingAlarm(name: name, hour: 6, minute: 30, second: 0, days: StandingAlarm.weekdays, date: nil,
                  options: options, created: Instant(seconds: 1_795_000_000, nanoseconds: 123))
}

/// A store under `dir`, as XDG would place it with HOME=dir. Its lock waits long: these tests
/// check that nothing is lost, and on a loaded machine (the suite under ASan) 50 fsynced
/// updates from the other writer can take longer than a person's `wake add` would wait.
func store(in dir: TestDirectory) -> AlarmStore {
    var s = AlarmStore(alarmsFile: dir.path + "/.config/wake/alarms.toml", historyFile: dir.path + "/.local/state/wake/history.toml")
    s.lockTimeout = .seconds(120)
    return s
}

func fileStat(_ path: String) -> stat? {
    var st = stat()
    return lstat(path, &st) == 0 ? st : nil
}

func bytes(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map(Array.init) }

/// The error `body` throws (nil when it throws none).
func storeError<T>(_ body: () throws(StoreError) -> T) -> StoreError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error
    }
}

/// Adds `count` alarms named `prefix-0`... one update each.
func addAlarms(_ store: AlarmStore, prefix: String, count: Int) throws(StoreError) {
    for i in 0..<count {
        try store.update { (alarms: inout [StandingAlarm]) throws(StoreError) in alarms.append(standing("\(prefix)-\(i)")) }
    }
}

@Suite("Store")
struct StoreTests {
    @Test func xdgPathsFollowTheSpec() {
        #expect(XDGPaths.configHome(environment: ["XDG_CONFIG_HOME": "/cfg/", "HOME": "/home/me"]) == "/cfg")
        #expect(XDGPaths.configHome(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/me"]) == "/home/me/.config")
        #expect(XDGPaths.configHome(environment: ["XDG_CONFIG_HOME": "", "HOME": "/home/me/"]) == "/home/me/.config")
        #expect(XDGPaths.configHome(environment: ["HOME": "/"]) == "/.config")
        #expect(XDGPaths.configHome(environment: [:]) == nil)
        #expect(XDGPaths.configHome(environment: ["HOME": "home"]) == nil)
        #expect(XDGPaths.stateHome(environment: ["XDG_STATE_HOME": "/st", "HOME": "/home/me"]) == "/st")
        #expect(XDGPaths.stateHome(environment: ["HOME": "/home/me"]) == "/home/me/.local/state")
        #expect(XDGPaths.stateHome(environment: ["XDG_CONFIG_HOME": "/cfg"]) == nil)
        if let home = XDGPaths.configHome() { #expect(XDGPaths.alarmsFile == home + "/wake/alarms.toml") }
        if let home = XDGPaths.configHome() { #expect(XDGPaths.historyFile == home + "/wake/history.toml") }
        if let home = XDGPaths.stateHome() { #expect(XDGPaths.legacyHistoryFile == home + "/wake/history.toml") }
    }

    @Test func createsPrivateDirectoriesAndFiles() throws {
        let dir = try TestDirectory("wake-store")
        let s = store(in: dir)
        #expect(try s.load() == [])
        #expect(try s.loadHistory() == [:])
        #expect(fileStat(s.alarmsDirectory) == nil, "reading creates nothing")

        try s.update { (alarms: inout [StandingAlarm]) throws(StoreError) in alarms.append(standing("work", options: ["sound": "/a \"b\".flac"])) }
        try s.updateHistory { (records: inout [String: AlarmRecord]) throws(StoreError) in
            var r = AlarmRecord(name: "work")
            r.lastFired = Instant(nanoseconds: 1_795_000_000_000_000_001)
            records["work"] = r
        }
        for d in [dir.path + "/.config", s.alarmsDirectory, dir.path + "/.local", dir.path + "/.local/state", s.historyDirectory] {
            #expect(fileStat(d).map { $0.st_mode & 0o7777 } == 0o700, "\(d)")
        }
        for f in [s.alarmsFile, s.historyFile, s.alarmsFile + ".lock", s.historyFile + ".lock"] {
            #expect(fileStat(f).map { $0.st_mode & 0o7777 } == 0o600, "\(f)")
        }
        #expect(try s.load() == [standing("work", options: ["sound": "/a \"b\".flac"])])
        #expect(try s.loadHistory()["work"]?.lastFired == Instant(nanoseconds: 1_795_000_000_000_000_001))
        let entries = try FileManager.default.contentsOfDirectory(atPath: s.alarmsDirectory).sorted()
        #expect(entries == ["alarms.toml", "alarms.toml.lock"], "no temporary file left")
        #expect(try AtomicFile.read(s.alarmsFile)?.hasPrefix(AlarmBook.header) == true)
        #expect(try AtomicFile.read(dir.file("absent")) == nil)
    }

    @Test func anUnchangedUpdateWritesNothing() throws {
        let dir = try TestDirectory("wake-store")
        let s = store(in: dir)
        try addAlarms(s, prefix: "a", count: 1)
        let before = try #require(fileStat(s.alarmsFile))
        let n = try s.update { (alarms: inout [StandingAlarm]) throws(StoreError) in alarms.count }
        #expect(n == 1)
        #expect(fileStat(s.alarmsFile)?.st_ino == before.st_ino)
    }

    @Test func anErrorInTheChangeWritesNothing() throws {
        let dir = try TestDirectory("wake-store")
        let s = store(in: dir)
        try addAlarms(s, prefix: "a", count: 2)
        let before = bytes(s.alarmsFile)
        let e = storeError { () throws(StoreError) in
            try s.update { (alarms: inout [StandingAlarm]) throws(StoreError) in
                alarms.removeAll()
                throw StoreError(path: "", reason: "no such alarm 'x'")
            }
        }
        #expect(e?.reason == "no such alarm 'x'")
        #expect(bytes(s.alarmsFile) == before)
    }

    @Test func alarmsThatWouldNotReadBackAreNotWritten() throws {
        let dir = try TestDirectory("wake-store")
        let s = store(in: dir)
        try addAlarms(s, prefix: "a", count: 1)
        let before = bytes(s.alarmsFile)
        for bad in [standing("Bad Name"), standing("a-0"), standing("x", options: ["colour": "red"]),
                    StandingAlarm(name: "y", hour: 25, minute: 0, second: 0, days: 0, date: nil, options: [:], created: Instant(nanoseconds: 0))] {
            let e = storeError { () throws(StoreError) in
                try s.update { (alarms: inout [StandingAlarm]) throws(StoreError) in alarms.append(bad) }
            }
            #expect(e?.reason.contains("nothing written") == true, "\(bad)")
            #expect(bytes(s.alarmsFile) == before)
        }
    }

    @Test func aCorruptFileIsReportedWithItsLineAndLeftAsItWas() throws {
        let dir = try TestDirectory("wake-store")
        let s = store(in: dir)
        try addAlarms(s, prefix: "a", count: 1)
        let text = Array("[alarms.work]\ntime = \"06:30\"\ntyme = \"x\"\n".utf8)
        #expect(FileManager.default.createFile(atPath: s.alarmsFile, contents: Data(text)))
        chmod(s.alarmsFile, 0o600)
        for e in [storeError { () throws(StoreError) in try s.load() },
                  storeError { () throws(StoreError) in
                      try s.update { (alarms: inout [StandingAlarm]) throws(StoreError) in
                          Issue.record("the change must not run on a corrupt file")
                          alarms = []
                      }
                  }] {
            #expect(e?.isCorrupt == true)
            #expect(e?.line == 3)
            #expect(e?.description == "'\(s.alarmsFile)': line 3: unknown key 'tyme' in alarm 'work'")
        }
        #expect(bytes(s.alarmsFile) == text)

        // (A comment that is not UTF-8 is skipped, DaemonFilesTests.invalidComment; a value is not.)
        let latin1: [UInt8] = Array("# ok\nmessage = \"caf".utf8) + [0xE9] + Array("\"\n".utf8)
        #expect(FileManager.default.createFile(atPath: s.alarmsFile, contents: Data(latin1)))
        let e = storeError { () throws(StoreError) in try s.load() }
        #expect(e?.isCorrupt == true && e?.line == 2 && e?.reason == "line 2: not valid UTF-8 text")

        let history = Array("[work]\nfired = \"yesterday\"\n".utf8)
        try FileManager.default.createDirectory(atPath: s.historyDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        #expect(FileManager.default.createFile(atPath: s.historyFile, contents: Data(history), attributes: [.posixPermissions: 0o600]))
        let h = storeError { () throws(StoreError) in
            try s.updateHistory { (records: inout [String: AlarmRecord]) throws(StoreError) in records = [:] }
        }
        #expect(h?.isCorrupt == true && h?.line == 2)
        #expect(bytes(s.historyFile) == history)
    }

    @Test func aFifoIsRefusedAtOnce() throws {
        let dir = try TestDirectory("wake-store")
        let s = store(in: dir)
        try FileManager.default.createDirectory(atPath: s.alarmsDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        #expect(mkfifo(s.alarmsFile, 0o600) == 0)
        let start = ContinuousClock.now
        let e1 = storeError { () throws(StoreError) in try s.load() }
        let e2 = storeError { () throws(StoreError) in
            try s.update { (alarms: inout [StandingAlarm]) throws(StoreError) in alarms.append(standing("x")) }
        }
        #expect(ContinuousClock.now - start < .seconds(10), "a FIFO as alarms.toml was opened and waited on")
        for e in [e1, e2] {
            #expect(e?.reason == "is a FIFO, not a regular file")
            #expect(e?.isCorrupt == false)
        }
        #expect(RegularFile.kind(of: s.alarmsFile) == .fifo)
    }

    @Test func aDirectoryOthersCanWriteIsRefused() throws {
        let dir = try TestDirectory("wake-store")
        let s = store(in: dir)
        try addAlarms(s, prefix: "a", count: 1)
        let before = bytes(s.alarmsFile)
        for mode: mode_t in [0o777, 0o770, 0o1777] {
            chmod(s.alarmsDirectory, mode)
            for e in [storeError { () throws(StoreError) in try s.load() },
                      storeError { () throws(StoreError) in try addAlarms(s, prefix: "b", count: 1) }] {
                #expect(e?.isUnsafe == true)
                #expect(e?.path == s.alarmsDirectory)
                #expect(e?.reason.contains("refusing to use it until you run chmod 700 on it") == true, "\(String(describing: e))")
            }
        }
        chmod(s.alarmsDirectory, 0o700)
        #expect(bytes(s.alarmsFile) == before)
        #expect(try s.load().count == 1)
    }

    @Test func aFileOthersCanWriteIsRefused() throws {
        let dir = try TestDirectory("wake-store")
        let s = store(in: dir)
        try addAlarms(s, prefix: "a", count: 1)
        chmod(s.alarmsFile, 0o622)
        let e = storeError { () throws(StoreError) in try s.load() }
        #expect(e?.isUnsafe == true && e?.path == s.alarmsFile)
        #expect(e?.reason == "the file is writable by its group and others (mode 622): another user could change your alarms; refusing to use it until you run chmod 600 on it")
        chmod(s.alarmsFile, 0o644)  // readable by others is the user's choice
        #expect(try s.load().count == 1)
    }

    @Test(.enabled(if: geteuid() == 0, "chown needs root"))
    func filesAndDirectoriesOfAnotherUserAreRefused() throws {
        let dir = try TestDirectory("wake-store")
        let s = store(in: dir)
        try addAlarms(s, prefix: "a", count: 1)
        let before = bytes(s.alarmsFile)

        #expect(chown(s.alarmsFile, 65534, 65534) == 0)
        for e in [storeError { () throws(StoreError) in try s.load() },
                  storeError { () throws(StoreError) in try addAlarms(s, prefix: "b", count: 1) }] {
            #expect(e?.isUnsafe == true && e?.path == s.alarmsFile)
            #expect(e?.reason == "the file is owned by uid 65534, not by you (uid 0): another user could change your alarms; refusing to use it")
        }
        #expect(bytes(s.alarmsFile) == before)
        #expect(fileStat(s.alarmsFile)?.st_uid == 65534, "left as it was")
        #expect(chown(s.alarmsFile, 0, 0) == 0)

        #expect(chown(s.alarmsDirectory, 65534, 65534) == 0)
        let e = storeError { () throws(StoreError) in try s.load() }
        #expect(e?.isUnsafe == true && e?.path == s.alarmsDirectory)
        #expect(e?.description.contains("the directory is owned by uid 65534") == true)
        #expect(chown(s.alarmsDirectory, 0, 0) == 0)

        #expect(chown(s.alarmsFile + ".lock", 65534, 65534) == 0)
        let l = storeError { () throws(StoreError) in try addAlarms(s, prefix: "b", count: 1) }
        #expect(l?.isUnsafe == true && l?.path == s.alarmsFile + ".lock")
        #expect(bytes(s.alarmsFile) == before)
    }

    @Test func twoThreadsAddingAtOnceLoseNothing() throws {
        let dir = try TestDirectory("wake-store")
        let s = store(in: dir)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            do throws(StoreError) {
                try addAlarms(s, prefix: "t\(worker)", count: 50)
            } catch {
                failures.withLock { $0.append(error.description) }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let names = Set(try s.load().map(\.name))
        #expect(names.count == 100)
        #expect(names == Set((0..<2).flatMap { w in (0..<50).map { "t\(w)-\($0)" } }))
    }

    @Test func twoProcessesAddingAtOnceLoseNothing() async throws {
        let dir = try TestDirectory("wake-store")
        let s = store(in: dir)
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let children = try (0..<2).map { worker in
            try ChildProcess(bundle, ["--testing-library", "swift-testing", "--filter", "StoreChildren"],
                             environment: ["WAKE_STORE_CHILD": "add", "WAKE_STORE_FILE": s.alarmsFile,
                                           "WAKE_STORE_PREFIX": "p\(worker)"],
                             directory: dir)
        }
        for child in children {
            let r = await child.wait(timeout: .seconds(120))
            #expect(r.exitCode == 0, "\(r)")
        }
        let names = Set(try s.load().map(\.name))
        #expect(names == Set((0..<2).flatMap { w in (0..<50).map { "p\(w)-\($0)" } }))
    }

    @Test func aLockHeldTooLongIsAnError() throws {
        let dir = try TestDirectory("wake-store")
        let path = dir.file("x.lock")
        let held = try FileLock(path: path)
        let start = ContinuousClock.now
        let e = storeError { () throws(StoreError) in try FileLock(path: path, timeout: .milliseconds(200)) }
        let waited = ContinuousClock.now - start
        #expect(e?.reason == "still locked by another wake after 1s; try again")
        #expect(waited >= .milliseconds(200) && waited < .seconds(2))
        withExtendedLifetime(held) {}
        #expect(storeError { () throws(StoreError) in try FileLock(path: path, timeout: .zero) } != nil)
        _ = consume held
        // Released by deinit. A child another test forks at that moment holds a copy of the
        // descriptor until its exec closes it (O_CLOEXEC), so the lock may stay taken for that
        // long: seen once under ASan, where an exec is slow.
        var free = false
        for _ in 0..<200 where !free {
            free = storeError { () throws(StoreError) in try FileLock(path: path, timeout: .zero) } == nil
            if !free { usleep(10_000) }
        }
        #expect(free, "released by deinit")
    }

    /// A write that runs out of space half-way (a 4 KiB tmpfs) leaves the old file as it was
    /// and no temporary file behind.
    @Test(.enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
    func aWriteThatFailsMidwayLeavesTheOldFile() async throws {
        let dir = try TestDirectory("wake-store")
        let mountPoint = dir.file("small")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
        _ = try await runTool("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=4k,mode=0700", "tmpfs", mountPoint])
        defer { _ = umount2(mountPoint, Int32(MNT_DETACH)) }
        let s = AlarmStore(alarmsFile: mountPoint + "/wake/alarms.toml", historyFile: mountPoint + "/wake/history.toml")
        try addAlarms(s, prefix: "a", count: 1)
        let before = try #require(bytes(s.alarmsFile))
        let e = storeError { () throws(StoreError) in
            try s.update { (alarms: inout [StandingAlarm]) throws(StoreError) in
                alarms.append(standing("big", options: ["sound": String(repeating: "x", count: 20_000)]))
            }
        }
        #expect(e?.path == s.alarmsFile)
        #expect(e?.reason.hasPrefix("cannot write it (write: ") == true, "\(String(describing: e))")
        #expect(e?.reason.hasSuffix("; the file is as it was") == true)
        #expect(bytes(s.alarmsFile) == before)
        let entries = try FileManager.default.contentsOfDirectory(atPath: s.alarmsDirectory).sorted()
        #expect(entries == ["alarms.toml", "alarms.toml.lock"])
        #expect(try s.load().map(\.name) == ["a-0"])
    }

    /// A writer killed between its temporary file and the rename (`wake add` killed at the
    /// wrong moment) leaves `.f.tmp-PID-N`; the next write removes it, and nothing else.
    @Test func theNextWriteSweepsTheTemporaryFilesOfKilledWriters() async throws {
        let dir = try TestDirectory("wake-store")
        let path = dir.file("alarms.toml")
        let gone = try Process.run(URL(fileURLWithPath: "/bin/true"), arguments: [])
        gone.waitUntilExit()
        let litter = [".alarms.toml.tmp-\(gone.processIdentifier)-42", ".alarms.toml.tmp-\(gone.processIdentifier)-7"]
        let kept = [".alarms.toml.tmp-1-9",  // its writer runs (init): not ours to remove
                    ".alarms.toml.tmp-\(getpid())-3",  // this process's own
                    ".alarms.toml.tmp-notapid", ".history.toml.tmp-\(gone.processIdentifier)-1", "notes"]
        for name in litter + kept { _ = try dir.write(name, "x".utf8) }
        try AtomicFile.write("[alarm]", to: path)
        let entries = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        #expect(entries == (kept + ["alarms.toml"]).sorted())
    }

    @Test func atomicWriteReplacesAndKeepsTheMode() throws {
        let dir = try TestDirectory("wake-store")
        let path = dir.file("f")
        try AtomicFile.write("one", to: path)
        try AtomicFile.write("two", to: path, mode: 0o640)
        #expect(try AtomicFile.read(path) == "two")
        #expect(fileStat(path).map { $0.st_mode & 0o7777 } == 0o640)
        let e = storeError { () throws(StoreError) in try AtomicFile.read(dir.path) }
        #expect(e?.reason == "is a directory, not a regular file")
        do {
            try AtomicFile.write("x", to: dir.file("missing/f"))
            Issue.record("wrote into a missing directory")
        } catch {
            #expect(error == SystemCallError("open", .noSuchFileOrDirectory))
        }
    }
}

/// The bodies `twoProcessesAddingAtOnceLoseNothing` runs in its children (with
/// `WAKE_STORE_CHILD` set); nothing at all in a normal run.
@Suite("StoreChildren")
struct StoreChildren {
    @Test func child() throws {
        let env = ProcessInfo.processInfo.environment
        guard env["WAKE_STORE_CHILD"] == "add", let file = env["WAKE_STORE_FILE"], let prefix = env["WAKE_STORE_PREFIX"] else { return }
        var s = AlarmStore(alarmsFile: file, historyFile: file + ".history")
        s.lockTimeout = .seconds(120)
        try addAlarms(s, prefix: prefix, count: 50)
    }
}

extension StoreTests {
    /// How callers write changes: no annotation, except `throws(StoreError)` on a closure that
    /// throws (Swift 6 infers `any Error` for it otherwise).
    @Test func plainClosuresAreChanges() throws {
        let dir = try TestDirectory("wake-store")
        let s = store(in: dir)
        let count = try s.update { alarms in
            alarms.append(standing("x"))
            return alarms.count
        }
        #expect(count == 1)
        try s.update { $0.append(standing("y")) }
        let e = storeError { () throws(StoreError) in
            try s.update { alarms throws(StoreError) in
                guard let i = alarms.firstIndex(where: { $0.name == "z" }) else {
                    throw StoreError(path: "", reason: "no alarm named 'z'")
                }
                alarms.remove(at: i)
            }
        }
        #expect(e?.reason == "no alarm named 'z'")
        try s.updateHistory { $0["x", default: AlarmRecord(name: "x")].skips = [CivilDate(year: 2026, month: 12, day: 24)] }
        #expect(try s.loadHistory()["x"]?.skips == [CivilDate(year: 2026, month: 12, day: 24)])
    }
}
