import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// A user's private world for standing alarms: their own config and state directories, UTC.
struct AlarmHome {
    let dir: TestDirectory
    var environment: [String: String] {
        // A control directory of its own: `wake list` must not see other tests' alarms.
        ["XDG_CONFIG_HOME": dir.file("config"), "XDG_STATE_HOME": dir.file("state"), "XDG_RUNTIME_DIR": dir.file("run"), "TZ": "UTC"]
    }
    var alarmsFile: String { dir.file("config") + "/wake/alarms.toml" }

    init() throws {
        dir = try TestDirectory("wake-home")
        mkdir(dir.file("run"), 0o700)
    }

    func run(_ args: [String]) async throws -> ProcessResult {
        try await WakeProcess.run(args, environment: environment)
    }

    /// `HH:MM:SS` in UTC `seconds` from now.
    static func soon(_ seconds: Int) -> String {
        var t = time(nil) + seconds
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }

    func daemon(_ extra: [String] = []) throws -> DetachedWake {
        try DetachedWake(["daemon", "--inhibit", "off"] + extra, environment: environment, directory: dir)
    }

    /// Writes `name` into the config directory (made 0700 first), as a hand edit or a sync would.
    func writeConfigFile(_ text: String, name: String = "alarms.toml") throws {
        let dir = self.dir.file("config") + "/wake"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
        chmod(dir + "/" + name, 0o600)
    }

    func listJSON() async throws -> [[String: Any]] {
        let r = try await run(["list", "--json"])
        guard r.exitCode == 0, let data = r.stdout.data(using: .utf8),
              let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw WakeTestError("wake list --json: \(r)")
        }
        return array
    }
}

@Suite("Standing alarms: the commands")
struct StandingAlarmCommandTests {
    @Test("add, list (table and JSON), skip and undo, remove")
    func lifecycle() async throws {
        let home = try AlarmHome()
        var r = try await home.run(["add", "06:30", "--days", "weekdays", "--name", "work", "-D", "null", "--volume", "80"])
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stdout.contains("added 'work': 06:30 on weekdays; next 06:30:00"), "\(r)")
        #expect(r.stdout.contains("no daemon is running"), "it says how to start one: \(r)")
        r = try await home.run(["add", "7:15", "pm", "--days", "Sat,sun", "-D", "null"])
        #expect(r.exitCode == 0 && r.stdout.contains("added '1915-weekends'"), "a generated name: \(r)")

        var list = try await home.listJSON()
        #expect(list.map { $0["name"] as? String } == ["1915-weekends", "work"])
        let work = try #require(list.last)
        #expect(work["time"] as? String == "06:30:00")
        #expect(work["days"] as? [String] == ["mon", "tue", "wed", "thu", "fri"])
        #expect(work["skip_next"] as? Bool == false && work["state"] as? String == "waiting")
        #expect((work["next"] as? String)?.hasSuffix("T06:30:00+00:00") == true, "\(work)")
        #expect((work["options"] as? [String: String]) == ["device": "null", "volume": "80"])
        let firstNext = work["next"] as? String

        r = try await home.run(["list"])
        #expect(r.exitCode == 0 && r.stdout.contains("ID  ") && r.stdout.contains("work") && r.stdout.contains("weekdays"), "\(r)")

        r = try await home.run(["skip", "work"])
        #expect(r.exitCode == 0 && r.stdout.contains("skipping 'work'"), "\(r)")
        list = try await home.listJSON()
        // The state says which day is skipped (issue 40), as "Tue 24 Nov skipped".
        #expect(list.last?["skip_next"] as? Bool == true && (list.last?["state"] as? String)?.hasSuffix(" skipped") == true, "\(list)")
        #expect(list.last?["next"] as? String != firstNext, "the next occurrence is the one after the skipped one")
        r = try await home.run(["skip", "work", "--undo"])
        #expect(r.exitCode == 0, "\(r)")
        list = try await home.listJSON()
        #expect(list.last?["skip_next"] as? Bool == false && list.last?["next"] as? String == firstNext)

        r = try await home.run(["remove", "work"])
        #expect(r.exitCode == 0 && r.stdout.contains("removed 'work'"), "\(r)")
        list = try await home.listJSON()
        #expect(list.map { $0["name"] as? String } == ["1915-weekends"])
    }

    @Test("every mistake is refused with one line and its code, and nothing is stored", arguments: [
        (["add", "06:30", "--days", "mon-xyz"], Int32(64), "unknown day"),
        (["add", "06:30", "--days", ""], 64, "days"),
        (["add", "06:30", "--name", "Bad Name"], 64, "--name"),
        (["add", "+5m"], 64, "standing alarm needs a time of day"),
        (["add", "now"], 64, "standing alarm needs a time of day"),
        (["add", "2020-01-01T07:00"], 64, "past"),
        (["add", "06:30", "--volume", "0"], 64, "silent"),
        (["add", "06:30", "--snooze", "0"], 64, "snooze"),
        (["add", "06:30", "-s", "/nonexistent/alarm.wav"], 66, "nonexistent"),
        (["add", "06:30", "-D", "nosuchdevice"], 69, "nosuchdevice"),
        (["add", "2026-12-24T07:00", "--days", "daily"], 64, "--days"),
        (["remove", "nobody"], 64, "no standing alarm named 'nobody'"),
        (["skip", "nobody"], 64, "no standing alarm named 'nobody'"),
    ])
    func refusals(args: [String], code: Int32, says: String) async throws {
        let home = try AlarmHome()
        let r = try await home.run(args)
        #expect(r.exitCode == code, "\(r)")
        #expect(r.stderrIsOneLine && r.stderr.contains(says), "\(r)")
        #expect(!FileManager.default.fileExists(atPath: home.alarmsFile), "a refused command stores nothing")
    }

    @Test("a name that is taken is refused, and the first alarm is kept as it was")
    func duplicateName() async throws {
        let home = try AlarmHome()
        _ = try await home.run(["add", "06:30", "--name", "work", "-D", "null"])
        let before = try String(contentsOfFile: home.alarmsFile, encoding: .utf8)
        let r = try await home.run(["add", "07:30", "--name", "work", "-D", "null"])
        #expect(r.exitCode == 64 && r.stderr.contains("exists already"), "\(r)")
        #expect(try String(contentsOfFile: home.alarmsFile, encoding: .utf8) == before)
    }

    @Test("a sound named relative to the shell's folder is stored with its absolute name, for the daemon reads it from its own")
    func relativeSoundStoredAbsolute() async throws {
        let home = try AlarmHome()
        _ = try await makeSound(in: home.dir, name: "tone.wav", rate: 22050, channels: 1, seconds: "1", synth: ["sine", "440"])
        // Run from the sound's folder, as a user in ~/Music would.
        let add = try ChildProcess("/bin/sh", ["-c", "cd \"$0\" && exec \"$@\"", home.dir.path, WakeBinary.path,
                                               "add", "07:00", "--days", "daily", "--name", "work", "-D", "null", "-s", "tone.wav",
                                               "--pre-alarm", "5m", "--pre-alarm-sound", "./tone.wav"],
                                   environment: home.environment, directory: home.dir)
        let r = await add.wait(timeout: .seconds(20))
        #expect(r.exitCode == 0, "\(r)")
        // The folder as getcwd says it (the temporary directory's name may hold '//' or a link).
        let real = try #require(realpath(home.dir.path, nil))
        defer { free(real) }
        let tone = String(cString: real) + "/tone.wav"
        let text = try String(contentsOfFile: home.alarmsFile, encoding: .utf8)
        #expect(text.contains("sound = \"\(tone)\"") && text.contains("pre-alarm-sound = \"\(tone)\""), "\(text)")
        let list = try await home.listJSON()
        #expect(list.first?["sound"] as? String == tone, "\(list)")
    }

    @Test("a corrupt alarms file: 78 naming the line, and the file is left exactly as it was")
    func corruptFile() async throws {
        let home = try AlarmHome()
        _ = try await home.run(["add", "06:30", "--name", "work", "-D", "null"])
        let broken = try String(contentsOfFile: home.alarmsFile, encoding: .utf8) + "\ntyme = \"07:00\"\n"
        try broken.write(toFile: home.alarmsFile, atomically: false, encoding: .utf8)
        for args in [["list"], ["add", "07:00", "-D", "null"], ["remove", "work"]] {
            let r = try await home.run(args)
            #expect(r.exitCode == 78, "\(args): \(r)")
            #expect(r.stderr.contains("line"), "the line is named: \(r)")
            #expect(try String(contentsOfFile: home.alarmsFile, encoding: .utf8) == broken, "never emptied or rewritten")
        }
    }
}

@Suite("Standing alarms: the daemon", .serialized)
struct StandingAlarmDaemonTests {
    @Test("an alarm added while the daemon runs rings on time on a file PCM, and a rung one-off is removed")
    func ringsAddedAlarm() async throws {
        let home = try AlarmHome()
        let capture = home.dir.file("capture.raw")
        let daemon = try home.daemon()
        try await daemon.waitForOutput(containing: "wake daemon running")
        let r = try await home.run(["add", AlarmHome.soon(4), "--name", "soon", "-D", "file:'\(capture)',raw", "--ring-for", "1s"])
        #expect(r.exitCode == 0 && !r.stdout.contains("no daemon is running"), "the running daemon is seen: \(r)")
        let ringing = try await daemon.waitForEvent("ringing", timeout: .seconds(20))
        #expect(ringing["alarm"] == "soon", "\(ringing)")
        let lateMs = Double(ringing["late_ms"] ?? "") ?? 1e9
        #expect(lateMs < 2000, "rang on time: \(ringing)")
        try await daemon.waitForEvent("timed_out", timeout: .seconds(10))
        let size = (try? FileManager.default.attributesOfItem(atPath: capture)[.size] as? Int) ?? 0
        #expect(size > 44_100, "a second of audio reached the device: \(size) bytes")
        // A one-off that has rung is gone.
        var gone = false
        for _ in 0..<30 where !gone {
            gone = (try await home.listJSON()).isEmpty
            if !gone { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(gone, "the one-off was removed after ringing")
        daemon.send(SIGTERM)
        let end = await daemon.wait()
        #expect(end.exitCode == 0, "SIGTERM ends the daemon with 0: \(daemon.report(end))")
    }

    @Test("killed while ringing and restarted: rung again once; stopped, a restart never rings it again")
    func crashedRingRungAgainOnce() async throws {
        let home = try AlarmHome()
        let events = home.dir.file("events.jsonl")
        _ = try await home.run(["add", AlarmHome.soon(4), "--name", "daily", "--days", "daily", "-D", "null", "--ring-for", "30s"])
        func ringCount() -> Int { ChildProcess.read(events).components(separatedBy: "\"event\":\"ringing\"").count - 1 }
        func daemon() throws -> DetachedWake {
            try DetachedWake(["daemon", "--inhibit", "off", "--events", events], environment: home.environment,
                             events: false, directory: home.dir)
        }
        let first = try daemon()
        for _ in 0..<100 where ringCount() < 1 { try await Task.sleep(for: .milliseconds(200)) }
        #expect(ringCount() == 1, "it rang: \(ChildProcess.read(events))")
        try await Task.sleep(for: .milliseconds(50))
        kill(first.pid, SIGKILL)
        _ = await first.wait()

        // The ring a crash ended is rung again at once.
        let second = try daemon()
        for _ in 0..<50 where ringCount() < 2 { try await Task.sleep(for: .milliseconds(200)) }
        #expect(ringCount() == 2, "not rung again after the crash: \(ChildProcess.read(events))")
        #expect(ChildProcess.read(events).contains("\"ring_resumed\""))
        let stop = try await home.run(["stop"])
        #expect(stop.exitCode == 0, "\(stop)")
        for _ in 0..<30 where !ChildProcess.read(events).contains("\"stopped\"") { try await Task.sleep(for: .milliseconds(200)) }
        second.send(SIGTERM)
        #expect(await second.wait().exitCode == 0)

        // Stopped: a restart does not ring it again.
        let third = try daemon()
        try await third.waitForOutput(containing: "set for")
        try await Task.sleep(for: .seconds(2))
        #expect(ringCount() == 2, "rang again after a normal stop: \(ChildProcess.read(events))")
        let list = try await home.listJSON()
        #expect(list.first?["state"] as? String == "waiting", "not shown as waiting after the restart: \(list)")
        third.send(SIGTERM)
        #expect(await third.wait().exitCode == 0)
    }

    @Test("a typo in config.toml: the daemon starts, names the file and the line, and rings with the built-in value")
    func brokenConfigStillRings() async throws {
        let home = try AlarmHome()
        let events = home.dir.file("events.jsonl")
        let add = try await home.run(["add", AlarmHome.soon(4), "--name", "soon", "-D", "null", "--ring-for", "2s"])
        #expect(add.exitCode == 0, "\(add)")
        try "volume = 6O\n".write(toFile: home.dir.file("config") + "/wake/config.toml", atomically: false, encoding: .utf8)
        // A person is there for `wake add`: it still refuses at once.
        let refused = try await home.run(["add", "07:00", "--name", "later", "-D", "null"])
        #expect(refused.exitCode == 78, "\(refused)")
        let daemon = try DetachedWake(["daemon", "--inhibit", "off", "--events", events], environment: home.environment,
                                      events: false, directory: home.dir)
        _ = try await daemon.waitForOutput(containing: "config.toml' line 1", onStderr: true)
        for _ in 0..<60 where !ChildProcess.read(events).contains("\"ringing\"") { try await Task.sleep(for: .milliseconds(200)) }
        #expect(ChildProcess.read(events).contains("\"ringing\""), "it did not ring: \(ChildProcess.read(events))")
        #expect(ChildProcess.read(events).contains("\"file_problem\""))
        let list = try await home.run(["list"])
        #expect(list.exitCode == 78 && list.stderr.contains("config.toml' line 1"), "\(list)")
        daemon.send(SIGTERM)
        #expect(await daemon.wait().exitCode == 0)
    }

    @Test("a second daemon says which one rings the alarms and exits 0, so systemd does not restart it")
    func oneDaemon() async throws {
        let home = try AlarmHome()
        let daemon = try home.daemon()
        try await daemon.waitForOutput(containing: "wake daemon running")
        let r = try await home.run(["daemon", "--inhibit", "off"])
        #expect(r.exitCode == 0 && r.stdout.contains("a wake daemon already rings the alarms in") && r.stdout.contains("(pid \(daemon.pid)); this one exits"), "\(r)")
        daemon.send(SIGTERM)
        #expect(await daemon.wait().exitCode == 0)
    }

    @Test("passed while no daemon ran: beyond the late limit it is recorded and shown as missed")
    func missedWhileDown() async throws {
        let home = try AlarmHome()
        _ = try await home.run(["add", AlarmHome.soon(2), "--name", "early", "--days", "daily", "-D", "null", "--late-limit", "1s"])
        try await Task.sleep(for: .seconds(5))
        let daemon = try home.daemon()
        let line = try await daemon.waitForOutput(containing: "missed 'early'", onStderr: true)
        #expect(line.contains("no daemon was running"), "\(line)")
        try await daemon.waitForEvent("missed")
        let list = try await home.listJSON()
        #expect((list.first?["state"] as? String)?.hasPrefix("missed at") == true, "\(list)")
        #expect(list.first?["missed"] as? String != nil)
        daemon.send(SIGTERM)
        #expect(await daemon.wait().exitCode == 0)
    }

    @Test("remove and skip reach a running daemon at once: nothing rings")
    func removeAndSkipAreSeen() async throws {
        let home = try AlarmHome()
        let daemon = try home.daemon()
        try await daemon.waitForOutput(containing: "wake daemon running")
        _ = try await home.run(["add", AlarmHome.soon(5), "--name", "gone", "-D", "null", "--ring-for", "1s"])
        _ = try await home.run(["add", AlarmHome.soon(5), "--name", "skipped", "--days", "daily", "-D", "null", "--ring-for", "1s"])
        try await Task.sleep(for: .seconds(1))
        #expect(try await home.run(["remove", "gone"]).exitCode == 0)
        #expect(try await home.run(["skip", "skipped"]).exitCode == 0)
        try await Task.sleep(for: .seconds(7))
        #expect(daemon.count("ringing") == 0, "\(daemon.eventLogText)")
        daemon.send(SIGTERM)
        #expect(await daemon.wait().exitCode == 0)
    }
}

@Suite("Standing alarms: sleep", .serialized)
struct StandingAlarmSleepTests {
    @Test("the daemon holds the never-sleep lock only within 10 hours of an alarm",
          .enabled(if: LogindMock.isAvailable, "needs python3-dbusmock, dbus-daemon and busctl"))
    func inhibitorWindow() async throws {
        try await LogindMock.with { mock in
            let home = try AlarmHome()
            let env = home.environment.merging(mock.environment) { $1 }
            var r = try await WakeProcess.run(["add", AlarmHome.soon(12 * 3600), "--name", "far", "--days", "daily", "-D", "null"],
                                              environment: env)
            #expect(r.exitCode == 0, "\(r)")
            let daemon = try DetachedWake(["daemon"], environment: env, directory: home.dir)
            try await daemon.waitForEvent("armed")
            try await Task.sleep(for: .seconds(1))
            #expect(try await mock.inhibitors().isEmpty, "12 hours ahead: the laptop may sleep")
            r = try await WakeProcess.run(["add", AlarmHome.soon(3600), "--name", "near", "-D", "null"], environment: env)
            #expect(r.exitCode == 0, "\(r)")
            let held = try await mock.waitForInhibitors(count: 1)
            #expect(held.first?.what == "sleep:idle" && held.first?.why.contains("alarm at") == true, "\(held)")
            r = try await WakeProcess.run(["remove", "near"], environment: env)
            #expect(r.exitCode == 0, "\(r)")
            _ = try await mock.waitForInhibitors(count: 0)
            daemon.send(SIGTERM)
            #expect(await daemon.wait().exitCode == 0)
        }
    }
}
