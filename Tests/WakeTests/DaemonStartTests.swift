import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 37, the daemon's start: whatever its files, disk, lock or desktop say, a daemon that
/// starts rings the alarms it can read. Each case is a standing alarm due seconds later that
/// must ring (a start that exited before arming anything was the bug).
@Suite("Daemon start: it always starts and rings", .serialized)
struct DaemonStartTests {
    /// A daily alarm due `seconds` from now, on `null`, ringing 2 s.
    static func dueAlarm(_ name: String = "soon", in seconds: Int) -> String {
        """
        [alarms.\(name)]
        time = "\(AlarmHome.soon(seconds))"
        days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        device = "null"
        ring-for = "2s"
        created = "2026-01-01T00:00:00Z"

        """
    }

    /// Starts the daemon and waits for `alarm` to ring; returns the daemon, still running.
    static func ringsAtStart(_ home: AlarmHome, alarm: String = "soon", environment extra: [String: String] = [:],
                             arguments: [String] = ["--notify", "off"]) async throws -> DetachedWake {
        let daemon = try DetachedWake(["daemon", "--inhibit", "off"] + arguments, environment: home.environment.merging(extra) { $1 },
                                      directory: home.dir)
        let ringing = try await daemon.waitForEvent("ringing", timeout: .seconds(30))
        #expect(ringing["alarm"] == alarm, "\(ringing)")
        return daemon
    }

    static func end(_ daemon: DetachedWake) async -> ProcessResult {
        daemon.send(SIGTERM)
        let end = await daemon.wait()
        #expect(end.exitCode == 0, "\(daemon.report(end))")
        return end
    }

    @Test("one broken alarm (time = \"25:99\") and a byte that is not UTF-8 in another: set aside, the good one rings")
    func brokenAlarmsAtStart() async throws {
        let home = try AlarmHome()
        var bytes = Array("""
        [alarms.broken]
        time = "25:99"
        created = "2026-01-01T00:00:00Z"

        [alarms.latin1]
        time = "06:00"
        message = "caf
        """.utf8)
        bytes += [0xE9] + Array("\"\ncreated = \"2026-01-01T00:00:00Z\"\n\n".utf8) + Array(Self.dueAlarm(in: 4).utf8)
        try home.writeConfigFile("")
        try Data(bytes).write(to: URL(fileURLWithPath: home.alarmsFile))
        let daemon = try await Self.ringsAtStart(home)
        let end = await Self.end(daemon)
        #expect(end.stderr.contains("line 2: ") && end.stderr.contains("that alarm is set aside"), "\(end.stderr)")
        #expect(end.stderr.contains("not valid UTF-8 text"), "\(end.stderr)")
        #expect(end.stdout.contains("alarm 'soon' set for"), "\(end.stdout)")
        #expect(!end.stdout.contains("'latin1' set for") && !end.stdout.contains("'broken' set for"), "\(end.stdout)")
    }

    /// Reads a good alarms file with one daemon (which keeps it as the last good copy), breaks
    /// the file with `breakFile`, and checks a second daemon rings from the copy.
    static func ringsFromLastGood(_ breakFile: (AlarmHome) throws -> Void) async throws -> ProcessResult {
        let home = try AlarmHome()
        try home.writeConfigFile(Self.dueAlarm(in: 9))
        let first = try home.daemon(["--notify", "off"])
        try await first.waitForOutput(containing: "alarm 'soon' set for")
        let lastGood = home.dir.file("state") + "/wake/alarms.last-good.toml"
        #expect(FileManager.default.fileExists(atPath: lastGood))
        _ = await Self.end(first)
        try breakFile(home)
        let second = try await Self.ringsAtStart(home)
        let end = await Self.end(second)
        #expect(end.stderr.contains("ringing them as last read whole"), "\(end.stderr)")
        return end
    }

    @Test("an alarms file over 1 MiB: the daemon starts and rings from the last good copy")
    func oversizeFileRingsFromLastGood() async throws {
        let end = try await Self.ringsFromLastGood { home in
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: home.alarmsFile))
            handle.seekToEndOfFile()
            handle.write(Data(("# " + String(repeating: "x", count: 1_100_000) + "\n").utf8))
            try handle.close()
        }
        #expect(end.stderr.contains("is larger than"), "\(end.stderr)")
    }

    @Test("an alarms file another user owns: refused as unsafe, and rung from the last good copy",
          .enabled(if: getuid() == 0, "needs root to give the file away"))
    func foreignFileRingsFromLastGood() async throws {
        let end = try await Self.ringsFromLastGood { home in
            #expect(chown(home.alarmsFile, 65534, 65534) == 0)
        }
        #expect(end.stderr.contains("owned by uid 65534"), "\(end.stderr)")
    }

    @Test("a bad line in history.toml (fired = \"not a date\"): said once as history_failed, and the alarm rings")
    func brokenHistoryAtStart() async throws {
        let home = try AlarmHome()
        try home.writeConfigFile(Self.dueAlarm(in: 4))
        try home.writeConfigFile("[soon]\nfired = \"not a date\"\n", name: "history.toml")
        let daemon = try await Self.ringsAtStart(home)
        #expect(daemon.count("history_failed") == 1, "\(daemon.events)")
        let end = await Self.end(daemon)
        #expect(end.stderr.contains("cannot read the history") && end.stderr.contains("line 2"), "\(end.stderr)")
    }

    @Test("a read-only config directory (a disk remounted read-only): the daemon locks it, rings, and wake list sees it",
          .enabled(if: getuid() == 0, "needs root to mount a tmpfs"))
    func readOnlyConfigDirectory() async throws {
        let home = try AlarmHome()
        let config = home.dir.file("config")
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let mounted = try await ChildProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", config]).wait()
        try #require(mounted.exitCode == 0, "mount: \(mounted)")
        defer { _ = umount2(config, Int32(MNT_DETACH)) }
        try home.writeConfigFile(Self.dueAlarm(in: 5))
        let remount = try await ChildProcess("/bin/mount", ["-o", "remount,ro", config]).wait()
        try #require(remount.exitCode == 0, "remount: \(remount)")
        let daemon = try await Self.ringsAtStart(home)
        let list = try await home.run(["list"])
        #expect(list.exitCode == 0 && !list.stdout.contains("no daemon is running") && !list.stderr.contains("no daemon is running"),
                "\(list)")
        let second = try await home.run(["daemon", "--inhibit", "off", "--notify", "off"])
        #expect(second.exitCode == 0 && second.stdout.contains("already rings the alarms") && second.stdout.contains("(pid \(daemon.pid))"),
                "\(second)")
        _ = await Self.end(daemon)
    }

    @Test("daemon.lock left as a directory or a dangling link: not taken for another daemon; it rings, and still excludes a second")
    func brokenLockFile() async throws {
        for breakLock in ["directory", "link"] {
            let home = try AlarmHome()
            try home.writeConfigFile(Self.dueAlarm(in: 4))
            let lockPath = home.dir.file("config") + "/wake/daemon.lock"
            if breakLock == "directory" {
                mkdir(lockPath, 0o700)
            } else {
                symlink(home.dir.file("nowhere"), lockPath)
            }
            let daemon = try await Self.ringsAtStart(home)
            let second = try await home.run(["daemon", "--inhibit", "off", "--notify", "off"])
            #expect(second.exitCode == 0 && second.stdout.contains("already rings the alarms"), "\(breakLock): \(second)")
            let end = await Self.end(daemon)
            #expect(end.stderr.contains("cannot use '\(lockPath)' as a lock"), "\(breakLock): \(end.stderr)")
        }
    }

    @Test("notify = \"require\" in config.toml with no notification server: the daemon says it acts as auto, and rings")
    func notifyRequireInConfig() async throws {
        let home = try AlarmHome()
        try home.writeConfigFile(Self.dueAlarm(in: 5))
        try home.writeConfigFile("notify = \"require\"\n", name: "config.toml")
        let noBus = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=" + home.dir.file("no-bus")]
        let daemon = try await Self.ringsAtStart(home, environment: noBus, arguments: [])
        let end = await Self.end(daemon)
        #expect(end.stderr.contains("notify = \"require\" in the config file acts as \"auto\""), "\(end.stderr)")
        // The command line's own --notify require still refuses, at once.
        let strict = try await WakeProcess.run(["daemon", "--inhibit", "off", "--notify", "require"],
                                               environment: home.environment.merging(noBus) { $1 })
        #expect(strict.exitCode == 69, "\(strict)")
    }

    @Test("~/.config/wake deleted and made again while the daemon runs: it watches the new one, rings its alarm, and commands see it")
    func configDirectoryReplaced() async throws {
        let home = try AlarmHome()
        let add = try await home.run(["add", "03:00", "--name", "night", "-D", "null"])
        #expect(add.exitCode == 0, "\(add)")
        let daemon = try home.daemon(["--notify", "off"])
        try await daemon.waitForOutput(containing: "alarm 'night' set for")
        let directory = home.dir.file("config") + "/wake"
        try FileManager.default.removeItem(atPath: directory)
        _ = try await daemon.waitForOutput(containing: "was removed", onStderr: true)
        let again = try await home.run(["add", AlarmHome.soon(5), "--name", "back", "--days", "daily", "-D", "null", "--ring-for", "2s"])
        #expect(again.exitCode == 0, "\(again)")
        // `wake add` makes the directory again, and may look for the daemon before the daemon has
        // seen the directory come back and taken its lock there: commands see it within moments.
        var seen = !again.stdout.contains("no daemon is running")
        for _ in 0..<40 where !seen {
            try await Task.sleep(for: .milliseconds(100))
            seen = !(try await home.run(["list"])).stderr.contains("no daemon is running")
        }
        #expect(seen, "commands did not see the daemon after the directory came back: \(again)")
        let ringing = try await daemon.waitForEvent("ringing", timeout: .seconds(30))
        #expect(ringing["alarm"] == "back", "\(ringing)")
        // A second daemon finds the lock on the new directory.
        let second = try await home.run(["daemon", "--inhibit", "off", "--notify", "off"])
        #expect(second.exitCode == 0 && second.stdout.contains("(pid \(daemon.pid))"), "\(second)")
        let end = await Self.end(daemon)
        #expect(end.stdout.contains("is there again"), "\(end.stdout)")
    }
}
