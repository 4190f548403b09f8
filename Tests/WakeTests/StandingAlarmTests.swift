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

    /// By name, the order these tests were written for: by the next ring it would hang on the hour they run.
    func listJSON() async throws -> [[String: Any]] {
        let r = try await run(["list", "--json", "--sort", "name"])
        guard r.exitCode == 0, let data = r.stdout.data(using: .utf8),
              let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw WakeTestError("wake list --json: \(r)")
        }
        return array
    }
}

@Suite("Standing alarms: the commands")
struct StandingAlarmCommandTests {
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


}

@Suite("Standing alarms: the daemon", .serialized)
struct StandingAlarmDaemonTests {
    @Test("an alarm added while the daemon runs rings on time on a file PCM, and a rung one-off is removed")
    func ringsAddedAlarm() async throws {
        let home = try AlarmHome()
        let capture = home.dir.file("capture.raw")
        let daemon = try home.daemon()
        try await daemon.waitForOutput(containing: "wake daemon running")
        let r = try await home.run(["add", AlarmHome.soon(4), "--name", "soon", "-D", "file:'\(capture)',raw", "--ring-for", "1s",
                                    "--unattended", "stop"])
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

    // Passed while no daemon ran: in process (DaemonControllerTests.missedWhileDown says and records it,
    // StandingCommandTests.listsMissed shows it in wake list).

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
