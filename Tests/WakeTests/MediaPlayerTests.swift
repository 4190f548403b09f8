import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// End-to-end tests of `--mpris`: the real binary ringing on ALSA's null PCM, a private session
/// bus (NotificationMock without its server), and the real playerctl as a desktop's media keys
/// and widget would drive it. Each waits for the player's `mpris_player` event rather than a
/// fixed time; bounds are wide, since the machine is shared.
@Suite(.serialized, .enabled(if: NotificationMock.isAvailable && Playerctl.isAvailable, "needs dbus-daemon, busctl and playerctl"))
struct MediaPlayerTests {

    func environment(_ mock: NotificationMock) -> [String: String] {
        mock.environment.merging(["TZ": "UTC"]) { $1 }
    }

    /// A ringing one-off with a long ring, no notification and no inhibitor.
    func ring(_ mock: NotificationMock, _ extra: [String] = [], ringFor: String = "120s") throws -> DetachedWake {
        try DetachedWake(["now", "-D", "null", "--ring-for", ringFor, "--inhibit", "off", "--notify", "off"] + extra,
                         environment: environment(mock))
    }

    func playerctl(_ mock: NotificationMock, _ arguments: [String]) async throws -> ProcessResult {
        let p = try ChildProcess(Playerctl.path, arguments, environment: environment(mock), directory: mock.directory)
        let r = await p.wait(timeout: .seconds(60))
        if r.timedOut { throw WakeTestError("playerctl \(arguments.joined(separator: " ")) hung: \(r)") }
        return r
    }

    /// The players playerctl lists, one a line.
    func players(_ mock: NotificationMock) async throws -> [String] {
        try await playerctl(mock, ["-l"]).stdoutLines.filter { !$0.isEmpty }
    }

    /// Waits until playerctl says `status` for `player`: the status comes with PropertiesChanged,
    /// a moment after the event.
    func waitForStatus(_ mock: NotificationMock, _ player: String, _ status: String) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        var last = ""
        while ContinuousClock.now < deadline {
            last = try await playerctl(mock, ["-p", player, "status"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            if last == status { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw WakeTestError("playerctl -p \(player) status: '\(last)', not '\(status)'")
    }

    func waitFor(_ what: String, _ done: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !done() {
            if ContinuousClock.now >= deadline { throw WakeTestError("not within 30 s: \(what)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    @Test("while ringing: 'wake' listed, Playing, the message and time in its metadata, the MPRIS properties GNOME needs; pause snoozes (Paused), play does nothing, stop stops (0, by mpris with the caller); gone at the end")
    func pausePlayStop() async throws {
        try await NotificationMock.with(server: false) { mock in
            let wake = try ring(mock, ["--message", "Dentist at 9"])
            let player = try await wake.waitForEvent("mpris_player", timeout: .seconds(30))
            #expect(player["name"] == "org.mpris.MediaPlayer2.wake", "\(player)")
            // Nothing between the deadline and the first frame: the player comes after the ring is heard.
            let heard = try #require(wake.events.first { $0.name == "ringing" })
            #expect((heard["time"] ?? "") <= (player["time"] ?? ""), "the player before the first frame: \(wake.eventLogText)")
            #expect(try await players(mock).contains("wake"))
            try await waitForStatus(mock, "wake", "Playing")
            let metadata = try await playerctl(mock, ["-p", "wake", "metadata"])
            #expect(metadata.stdout.contains("xesam:artist") && metadata.stdout.contains("Dentist at 9"), "\(metadata)")
            #expect(metadata.stdout.contains("xesam:title") && metadata.stdout.contains("Alarm "), "\(metadata)")
            #expect(metadata.stdout.contains("mpris:trackid") && metadata.stdout.contains("/wake/alarm/"), "\(metadata)")
            for (property, value) in [("CanPlay", "b true"), ("CanPause", "b true"), ("CanGoNext", "b true"), ("CanControl", "b true"),
                                      ("CanGoPrevious", "b false"), ("CanSeek", "b false")] {
                let r = try await mock.busctl(["get-property", "org.mpris.MediaPlayer2.wake", "/org/mpris/MediaPlayer2",
                                               "org.mpris.MediaPlayer2.Player", property])
                #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == value, "\(property): \(r)")
            }
            for (property, value) in [("Identity", "s \"wake\""), ("DesktopEntry", "s \"wake\"")] {
                let r = try await mock.busctl(["get-property", "org.mpris.MediaPlayer2.wake", "/org/mpris/MediaPlayer2",
                                               "org.mpris.MediaPlayer2", property])
                #expect(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == value, "\(property): \(r)")
            }

            // playerctl --follow hears PropertiesChanged: the status it prints changes without a Get.
            let follow = try ChildProcess(Playerctl.path, ["-p", "wake", "--follow", "status"], environment: environment(mock),
                                          directory: mock.directory)
            try await waitFor("playerctl --follow prints Playing") { follow.currentStdout.contains("Playing") }

            let pause = try await playerctl(mock, ["-p", "wake", "pause"])
            #expect(pause.exitCode == 0, "\(pause)")
            let snoozed = try await wake.waitForEvent("snoozed", timeout: .seconds(30))
            let asked = try #require(wake.events.first { $0.name == "mpris" })
            #expect(asked["method"] == "Pause" && asked["command"] == "snooze" && asked["by"] == "mpris", "\(asked)")
            #expect(asked["caller"]?.hasPrefix(":") == true, "the caller's unique bus name: \(asked)")
            // Issue 49, item 8: the snooze itself names its caller, resolved to the program and PID when it called.
            #expect(snoozed["by"] == "mpris" && snoozed["caller_program"] == "playerctl" && snoozed["caller_pid"] != nil, "\(snoozed)")
            try await waitFor("the snooze line names playerctl") {
                wake.child.currentStdout.contains("by the media controls (playerctl, pid ")
            }
            try await waitFor("playerctl --follow prints Paused (PropertiesChanged)") { follow.currentStdout.contains("Paused") }
            follow.send(SIGTERM)  // (a failure above leaves it to end with the bus)
            _ = await follow.wait(timeout: .seconds(10))
            try await waitForStatus(mock, "wake", "Paused")
            let title = try await playerctl(mock, ["-p", "wake", "metadata", "xesam:title"])
            #expect(title.stdout.contains("snoozed until"), "\(title); \(snoozed)")

            // Play on a snoozed alarm: recorded, nothing else (it rings again when the snooze ends).
            _ = try await playerctl(mock, ["-p", "wake", "play"])
            let play = try await wake.waitForEvent("mpris", occurrence: 2, timeout: .seconds(30))
            #expect(play["method"] == "Play" && play["command"] == "none", "\(play)")
            try await waitForStatus(mock, "wake", "Paused")
            #expect(!wake.hasExited)

            let stop = try await playerctl(mock, ["-p", "wake", "stop"])
            #expect(stop.exitCode == 0, "the Stop is answered before the player goes: \(stop)")
            let r = await wake.wait(timeout: .seconds(30))
            #expect(r.exitCode == 0, "\(wake.report(r))")
            let stopped = try #require(wake.events.first { $0.name == "stopped" }, "\(wake.report(r))")
            #expect(stopped["by"] == "mpris" && stopped["caller"]?.hasPrefix(":") == true, "\(stopped)")
            #expect(r.stdout.contains("stopped by the media controls (playerctl, pid "), "\(wake.report(r))")
            #expect(try await !players(mock).contains("wake"), "the name is released at the end")
        }
    }

    @Test("play-pause snoozes a ringing alarm; next stops it")
    func playPauseThenNext() async throws {
        try await NotificationMock.with(server: false) { mock in
            let wake = try ring(mock)
            try await wake.waitForEvent("mpris_player", timeout: .seconds(30))
            #expect(try await playerctl(mock, ["-p", "wake", "play-pause"]).exitCode == 0)
            try await wake.waitForEvent("snoozed", timeout: .seconds(30))
            try await waitForStatus(mock, "wake", "Paused")
            #expect(try await playerctl(mock, ["-p", "wake", "next"]).exitCode == 0)
            let r = await wake.wait(timeout: .seconds(30))
            #expect(r.exitCode == 0, "\(wake.report(r))")
            #expect(wake.events.contains { $0.name == "stopped" && $0["by"] == "mpris" }, "\(wake.report(r))")
            #expect(wake.events.contains { $0.name == "mpris" && $0["method"] == "Next" && $0["command"] == "stop" }, "\(wake.report(r))")
        }
    }

    @Test("--mpris snooze-only: stop and next snooze, never stop")
    func snoozeOnly() async throws {
        try await NotificationMock.with(server: false) { mock in
            let wake = try ring(mock, ["--mpris", "snooze-only", "--snooze", "2s"])
            try await wake.waitForEvent("mpris_player", timeout: .seconds(30))
            #expect(try await playerctl(mock, ["-p", "wake", "stop"]).exitCode == 0)
            try await wake.waitForEvent("snoozed", timeout: .seconds(30))
            // It rings again when the snooze ends; then next snoozes it again.
            try await wake.waitForEvent("ringing", occurrence: 2, timeout: .seconds(30))
            try await waitForStatus(mock, "wake", "Playing")
            #expect(try await playerctl(mock, ["-p", "wake", "next"]).exitCode == 0)
            try await wake.waitForEvent("snoozed", occurrence: 2, timeout: .seconds(30))
            #expect(!wake.hasExited && wake.count("stopped") == 0, "\(wake.eventLogText)")
            let asked = wake.events.filter { $0.name == "mpris" }
            #expect(asked.map { $0["method"] ?? "" } == ["Stop", "Next"] && asked.allSatisfy { $0["command"] == "snooze" }, "\(asked)")
            wake.send(SIGTERM)
            _ = await wake.wait(timeout: .seconds(30))
        }
    }

    @Test("--mpris off: no player while it rings")
    func off() async throws {
        try await NotificationMock.with(server: false) { mock in
            let wake = try ring(mock, ["--mpris", "off"], ringFor: "3s")
            try await wake.waitForEvent("ringing", timeout: .seconds(30))
            try await Task.sleep(for: .seconds(1))
            #expect(try await players(mock).isEmpty)
            let r = await wake.wait(timeout: .seconds(30))
            #expect(r.exitCode == 4 && wake.count("mpris_player") == 0, "\(wake.report(r))")
        }
    }

    @Test("a second wake ringing at once takes wake.instance<PID>; playerctl lists both and reaches each")
    func twoProcesses() async throws {
        try await NotificationMock.with(server: false) { mock in
            let first = try ring(mock)
            let a = try await first.waitForEvent("mpris_player", timeout: .seconds(30))
            #expect(a["name"] == "org.mpris.MediaPlayer2.wake", "\(a)")
            let second = try ring(mock)
            let b = try await second.waitForEvent("mpris_player", timeout: .seconds(30))
            #expect(b["name"] == "org.mpris.MediaPlayer2.wake.instance\(second.pid)", "\(b)")
            let listed = try await players(mock)
            #expect(listed.contains("wake") && listed.contains("wake.instance\(second.pid)"), "\(listed)")
            #expect(try await playerctl(mock, ["-p", "wake.instance\(second.pid)", "stop"]).exitCode == 0)
            let r = await second.wait(timeout: .seconds(30))
            #expect(r.exitCode == 0 && second.events.contains { $0.name == "stopped" && $0["by"] == "mpris" }, "\(second.report(r))")
            #expect(!first.hasExited, "the other alarm rings on")
            try await waitForStatus(mock, "wake", "Playing")
            #expect(try await playerctl(mock, ["-p", "wake", "stop"]).exitCode == 0)
            let r1 = await first.wait(timeout: .seconds(30))
            #expect(r1.exitCode == 0, "\(first.report(r1))")
        }
    }

    @Test("wake daemon: two standing alarms ringing at once are two players (wake and wake.instance<PID>), each with its own --mpris (config.toml's snooze-only, or the alarm's on); the daemon goes on")
    func daemonTwoAlarms() async throws {
        try await NotificationMock.with(server: false) { mock in
            let home = try AlarmHome()
            let env = home.environment.merging(mock.environment) { $1 }
            try home.writeConfigFile("mpris = \"snooze-only\"\nnotify = \"off\"\n", name: "config.toml")
            let daemon = try DetachedWake(["daemon", "--inhibit", "off"], environment: env, directory: home.dir)
            try await daemon.waitForOutput(containing: "wake daemon running", timeout: .seconds(30))
            let at = AlarmHome.soon(5)
            for (name, extra) in [("gentle", [String]()), ("firm", ["--mpris", "on"])] {
                // Two alarms at one time on purpose: the second is a copy without --force.
                let add = try await WakeProcess.run(["add", at, "--name", name, "-D", "null", "--ring-for", "120s", "--snooze", "5m",
                                                     "--force"] + extra, environment: env)
                #expect(add.exitCode == 0, "\(add)")
            }
            try await daemon.waitForEvent("mpris_player", occurrence: 2, timeout: .seconds(60))
            let owned = Dictionary(uniqueKeysWithValues: daemon.events.filter { $0.name == "mpris_player" }.map { ($0["alarm"] ?? "", $0["name"] ?? "") })
            let wake = "org.mpris.MediaPlayer2.wake", instance = "org.mpris.MediaPlayer2.wake.instance\(daemon.pid)"
            #expect(Set(owned.values) == [wake, instance], "\(owned)")
            let listed = try await players(mock)
            #expect(listed.contains("wake") && listed.contains("wake.instance\(daemon.pid)"), "\(listed)")
            func player(_ alarm: String) -> String { String((owned[alarm] ?? "").dropFirst("org.mpris.MediaPlayer2.".count)) }
            let firmTitle = try await playerctl(mock, ["-p", player("firm"), "metadata", "xesam:title"])
            #expect(firmTitle.stdout.contains("(firm)"), "the daemon names the alarm: \(firmTitle)")

            // gentle took config.toml's snooze-only: Stop snoozes it.
            #expect(try await playerctl(mock, ["-p", player("gentle"), "stop"]).exitCode == 0)
            let snoozed = try await daemon.waitForEvent("snoozed", timeout: .seconds(30))
            #expect(snoozed["alarm"] == "gentle", "\(snoozed)")
            // firm's own --mpris on: Stop stops it.
            #expect(try await playerctl(mock, ["-p", player("firm"), "stop"]).exitCode == 0)
            let stopped = try await daemon.waitForEvent("stopped", timeout: .seconds(30))
            #expect(stopped["alarm"] == "firm" && stopped["by"] == "mpris" && stopped["caller"]?.hasPrefix(":") == true, "\(stopped)")
            let asked = daemon.events.filter { $0.name == "mpris" }
            #expect(asked.map { "\($0["alarm"] ?? "") \($0["method"] ?? "") \($0["command"] ?? "")" } == ["gentle Stop snooze", "firm Stop stop"],
                    "\(asked)")
            let deadline = ContinuousClock.now + .seconds(30)
            while try await players(mock).contains(player("firm")), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
            let left = try await players(mock)
            #expect(!left.contains(player("firm")) && left.contains(player("gentle")), "the stopped alarm's player goes, the snoozed one's stays: \(left)")
            #expect(!daemon.hasExited, "the daemon goes on")
            daemon.send(SIGTERM)
            let r = await daemon.wait(timeout: .seconds(30))
            #expect(r.exitCode == 0, "\(daemon.report(r))")
        }
    }

    @Test("without a session bus the alarm rings with not a word about the player")
    func withoutBus() async throws {
        let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "1s", "--inhibit", "off"],
                                    environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/wake-test-bus"])
        let r = await wake.wait(timeout: .seconds(30))
        #expect(r.exitCode == 4 && r.stderr.isEmpty && wake.count("ringing") == 1, "\(wake.report(r))")
    }

    @Test("the dry run says what the buttons will do, and where the mode came from")
    func dryRun() async throws {
        let env = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/wake-test-bus"]
        let on = try await WakeProcess.run(["+1h", "-D", "null", "--inhibit", "off", "--dry-run"], environment: env)
        #expect(on.exitCode == 0 && on.stdoutLines.contains("mpris: on (a media player while it rings: pause snoozes, stop and next stop)"), "\(on)")
        let only = try await WakeProcess.run(["+1h", "-D", "null", "--inhibit", "off", "--dry-run", "--mpris", "snooze-only"], environment: env)
        #expect(only.stdoutLines.contains("mpris: snooze-only (a media player while it rings: every button snoozes) (from the command line)"), "\(only)")
    }

    @Test("--mpris: a bad mode is a usage error naming the option and the modes")
    func badMode() async throws {
        let r = try await WakeProcess.run(["+1h", "-D", "null", "--mpris", "maybe"],
                                          environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/wake-test-bus"])
        #expect(r.exitCode == 64 && r.stderrIsOneLine && r.stderr.contains("--mpris") && r.stderr.contains("snooze-only"), "\(r)")
    }
}

/// Debian's playerctl, a desktop's media keys and widget in one command.
enum Playerctl {
    static let path = "/usr/bin/playerctl"
    /// Always under CI: `make test` installs it, so a missing one must fail loudly.
    static var isAvailable: Bool { ProcessInfo.processInfo.environment["CI"] != nil || access(path, X_OK) == 0 }
}
