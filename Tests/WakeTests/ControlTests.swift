import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// A user's world with its own control directory, so that a bare `wake stop` in one test never
/// reaches another test's alarm.
struct ControlWorld {
    let dir: TestDirectory
    var runtime: String { dir.file("run") }
    var control: String { runtime + "/wake" }
    var environment: [String: String] {
        ["XDG_RUNTIME_DIR": runtime, "XDG_CONFIG_HOME": dir.file("config"), "XDG_STATE_HOME": dir.file("state"), "TZ": "UTC"]
    }

    init() throws {
        dir = try TestDirectory("wake-ctl")
        guard mkdir(runtime, 0o700) == 0 else { throw WakeTestError("mkdir \(runtime): errno \(errno)") }
    }

    /// A one-off alarm in this world.
    func alarm(_ args: [String]) throws -> DetachedWake {
        try DetachedWake(args + ["--inhibit", "off"], environment: environment, directory: dir)
    }

    func run(_ args: [String]) async throws -> ProcessResult {
        try await WakeProcess.run(args, environment: environment, timeout: .seconds(60))
    }

    func list() async throws -> [[String: Any]] {
        let r = try await run(["list", "--json", "--sort", "name"])
        guard r.exitCode == 0, let array = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] else {
            throw WakeTestError("wake list --json: \(r)")
        }
        return array
    }

    func entry(_ pid: pid_t) async throws -> [String: Any]? {
        try await list().first { ($0["pid"] as? Int) == Int(pid) && ($0["kind"] as? String) == "one-off" }
    }

    /// Waits until the control socket of `pid` is there (it is made just after arming).
    func waitForSocket(_ pid: pid_t) async throws {
        let path = "\(control)/\(pid).sock"
        let deadline = ContinuousClock.now + .seconds(60)
        while access(path, F_OK) != 0 {
            guard ContinuousClock.now < deadline else { throw WakeTestError("no control socket at \(path)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

@Suite("Control from anywhere: wake list, stop, snooze and cancel")
struct ControlTests {
    @Test("a waiting one-off alarm is listed with its PID, and 'wake cancel PID' ends it as q would")
    func listAndCancel() async throws {
        let world = try ControlWorld()
        let wake = try world.alarm(["+1h", "-D", "null"])
        try await wake.waitForEvent("armed")
        try await world.waitForSocket(wake.pid)

        let entry = try #require(try await world.entry(wake.pid), "wake list shows the running alarm")
        #expect(entry["id"] as? String == "\(wake.pid)")
        #expect(entry["state"] as? String == "waiting")
        #expect(entry["device"] as? String == "null" && entry["sound"] is NSNull, "\(entry)")
        #expect((entry["next"] as? String)?.hasSuffix("+00:00") == true, "\(entry)")
        let table = try await world.run(["list"])
        #expect(table.exitCode == 0 && table.stdout.contains("\(wake.pid)") && table.stdout.contains("waiting"), "\(table)")

        // A bare stop leaves a waiting alarm alone, and says why when it is named.
        var r = try await world.run(["stop"])
        #expect(r.exitCode == 1 && r.stderrIsOneLine && r.stderr.contains("nothing is ringing"), "\(r)")
        r = try await world.run(["stop", "\(wake.pid)"])
        #expect(r.exitCode == 1 && r.stderr.contains("is waiting, not ringing") && r.stderr.contains("wake cancel \(wake.pid)"), "\(r)")
        #expect(!wake.hasExited)

        r = try await world.run(["cancel", "\(wake.pid)"])
        #expect(r.exitCode == 0 && r.stdout.contains("cancelled the") && r.stdout.contains("(pid \(wake.pid))"), "\(r)")
        let ended = await wake.wait(timeout: .seconds(60))
        #expect(ended.exitCode == 130, "it exits as q would: \(wake.report(ended))")
        let cancelled = try #require(wake.events.first { $0.name == "cancelled" })
        #expect(cancelled["by"] == "control" && cancelled["client"]?.hasPrefix("wake cancel (pid ") == true, "\(cancelled)")
        #expect(access("\(world.control)/\(wake.pid).sock", F_OK) != 0, "the socket goes with the process")
        #expect(try await world.list().isEmpty)
    }

    @Test("while it rings: 'wake snooze' snoozes it, 'wake stop' stops it, and it exits 0")
    func snoozeAndStop() async throws {
        let world = try ControlWorld()
        let wake = try world.alarm(["now", "-D", "null", "--ring-for", "10m"])
        try await wake.waitForEvent("ringing")
        try await world.waitForSocket(wake.pid)
        #expect(try await world.entry(wake.pid)?["state"] as? String == "ringing")

        var r = try await world.run(["snooze"])
        #expect(r.exitCode == 0 && r.stdout.contains("snoozed the") && r.stdout.contains("until"), "\(r)")
        let snoozed = try await wake.waitForEvent("snoozed")
        #expect(snoozed["until"] != nil)
        #expect((try await world.entry(wake.pid)?["state"] as? String)?.hasPrefix("snoozed until") == true)
        r = try await world.run(["snooze", "\(wake.pid)"])
        #expect(r.exitCode == 1 && r.stderr.contains("snoozed already"), "\(r)")

        r = try await world.run(["stop"])
        #expect(r.exitCode == 0 && r.stdout.contains("stopped the") && r.stdout.contains("(pid \(wake.pid))"), "\(r)")
        let ended = await wake.wait(timeout: .seconds(60))
        #expect(ended.exitCode == 0, "stopped as a key stops it: \(wake.report(ended))")
        let stopped = try #require(wake.events.first { $0.name == "stopped" })
        #expect(stopped["by"] == "control" && stopped["client"]?.contains("wake stop (pid") == true, "\(stopped)")
        r = try await world.run(["stop"])
        #expect(r.exitCode == 1 && r.stderr.contains("nothing is ringing"), "\(r)")
    }

    // An unknown or invalid ID and a world with no wake at all run in process
    // (Tests/WakeCommandLineTests/ControlCommandTests.swift).

    @Test("a process that died without cleaning up leaves an entry that the next command removes, unseen")
    func staleEntry() async throws {
        let world = try ControlWorld()
        let wake = try world.alarm(["+1h", "-D", "null"])
        try await wake.waitForEvent("armed")
        try await world.waitForSocket(wake.pid)
        wake.send(SIGKILL)
        _ = await wake.wait()
        #expect(access("\(world.control)/\(wake.pid).sock", F_OK) == 0, "SIGKILL leaves the socket behind")
        #expect(try await world.list().isEmpty, "a dead process is not listed")
        #expect(access("\(world.control)/\(wake.pid).sock", F_OK) != 0, "and its entry is cleaned")
    }

    @Test("without XDG_RUNTIME_DIR: /run/user/UID when logind made it, else /tmp/wake-UID, made 0700")
    func fallbackDirectory() async throws {
        let uid = geteuid()
        var st = stat()
        let logind = "/run/user/\(uid)"
        let expected = lstat(logind, &st) == 0 && st.st_uid == uid ? logind + "/wake" : "/tmp/wake-\(uid)"
        let dir = try TestDirectory("wake-ctl-fallback")
        let env = ["XDG_CONFIG_HOME": dir.file("config"), "XDG_STATE_HOME": dir.file("state"), "TZ": "UTC"]
        let wake = try DetachedWake(["+1h", "-D", "null", "--inhibit", "off"], environment: env, unset: ["XDG_RUNTIME_DIR"], directory: dir)
        try await wake.waitForEvent("armed")
        let socket = "\(expected)/\(wake.pid).sock"
        let deadline = ContinuousClock.now + .seconds(60)
        while access(socket, F_OK) != 0 {
            guard ContinuousClock.now < deadline else { throw WakeTestError("no socket at \(socket)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(lstat(expected, &st) == 0 && st.st_mode & 0o777 == 0o700 && st.st_uid == uid)
        let r = try await WakeProcess.run(["cancel", "\(wake.pid)"], environment: env, unset: ["XDG_RUNTIME_DIR"])
        #expect(r.exitCode == 0, "\(r)")
        #expect(await wake.wait(timeout: .seconds(60)).exitCode == 130)
    }

    @Test("a wake that cannot answer (stopped) costs the others a short wait and a warning, nothing more")
    func stoppedProcess() async throws {
        let world = try ControlWorld()
        let frozen = try world.alarm(["+1h", "-D", "null"])
        let live = try world.alarm(["+2h", "-D", "null"])
        for w in [frozen, live] {
            try await w.waitForEvent("armed")
            try await world.waitForSocket(w.pid)
        }
        kill(frozen.pid, SIGSTOP)
        defer { kill(frozen.pid, SIGKILL); kill(frozen.pid, SIGCONT); live.send(SIGKILL) }
        let r = try await world.run(["list"])
        #expect(r.exitCode == 0 && r.stdout.contains("\(live.pid)"), "\(r)")
        #expect(r.stderr.contains("wake (pid \(frozen.pid)) did not answer"), "\(r)")
    }

    @Test("the daemon's standing alarms: listed with the daemon's PID, stopped by name; the daemon goes on")
    func daemon() async throws {
        let world = try ControlWorld()
        var r = try await world.run(["add", AlarmHome.soon(15), "--name", "soon", "-D", "null", "--ring-for", "10m"])
        #expect(r.exitCode == 0, "\(r)")
        r = try await world.run(["add", "06:30", "--days", "daily", "--name", "later", "-D", "null"])
        #expect(r.exitCode == 0, "\(r)")
        let daemon = try DetachedWake(["daemon", "--inhibit", "off"], environment: world.environment, directory: world.dir)
        defer { daemon.send(SIGKILL) }
        try await daemon.waitForEvent("ringing", timeout: .seconds(90))
        try await world.waitForSocket(daemon.pid)

        let list = try await world.list()
        let soon = try #require(list.first { $0["id"] as? String == "soon" }, "\(list)")
        #expect(soon["pid"] as? Int == Int(daemon.pid) && soon["state"] as? String == "ringing" && soon["kind"] as? String == "standing", "\(soon)")
        let later = try #require(list.first { $0["id"] as? String == "later" })
        #expect(later["pid"] as? Int == Int(daemon.pid) && later["state"] as? String == "waiting", "\(later)")

        r = try await world.run(["cancel", "later"])
        #expect(r.exitCode == 1 && r.stderr.contains("standing alarm") && r.stderr.contains("wake skip later"), "\(r)")
        r = try await world.run(["stop", "later"])
        #expect(r.exitCode == 1 && r.stderr.contains("wake skip later"), "\(r)")
        r = try await world.run(["stop", "soon"])
        #expect(r.exitCode == 0 && r.stdout.contains("stopped 'soon'"), "\(r)")
        let stopped = try await daemon.waitForEvent("stopped")
        #expect(stopped["by"] == "control" && stopped["alarm"] == "soon", "\(stopped)")
        try await Task.sleep(for: .milliseconds(500))
        #expect(!daemon.hasExited, "the daemon records it and goes on")
        #expect(try await world.list().contains { $0["id"] as? String == "later" && $0["pid"] as? Int == Int(daemon.pid) })
    }
}
