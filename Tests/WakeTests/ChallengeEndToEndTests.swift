import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `--challenge math` driven as a sleeper would: on a pseudo-terminal (WakeTestSupport/pty_driver.py's
/// `solve` step reads the last `challenge` event's question and types the sum), and with the
/// desktop notification (python-dbusmock) and `wake stop` from another shell.
@Suite("Challenge: a sum stops the alarm, a key or a swipe does not", .serialized)
struct ChallengeEndToEndTests {
    @Test("on a terminal: a key and a wrong answer keep it ringing (said, challenge_wrong, a fresh sum), z snoozes, the right answer stops: exit 0, by answer")
    func solvedOnATerminal() async throws {
        let (o, events) = try await runOnPty(
            ["now", "-D", "null", "--challenge", "math", "--snooze", "1s", "--ring-for", "5m", "--inhibit", "off", "--notify", "off"],
            steps: ["wait:challenge", "wait:ringing", "key:x", "key:q", "key:1\r", "wait:challenge_wrong", "wait:challenge:2",
                    "key:z", "wait:snoozed", "wait:challenge:3", "solve"],
            timeout: 60)
        #expect(o.error == nil, "\(o)")
        #expect(o.exit == 0, "\(o)")
        #expect(o.restored, "\(o)")
        let stopped = events.filter { $0.name == "stopped" }
        #expect(stopped.count == 1 && stopped.first?["by"] == "answer", "\(o)")
        let wrong = events.first { $0.name == "challenge_wrong" }
        let first = events.first { $0.name == "challenge" }
        #expect(wrong?["answer"] == "1" && wrong?["question"] == first?["question"], "\(o)")
        #expect(events.filter { $0.name == "challenge" }.count == 3, "asked at the ring, after the wrong answer and at the ring after the snooze: \(o)")
        #expect(events.filter { $0.name == "snoozed" }.count == 1, "\(o)")
        // What the sleeper read: the sum and how to answer it, that the keys do not stop it, the wrong answer.
        let question = try #require(first?["question"])
        #expect(o.output.contains("Solve \(question) and press Enter to stop; s, z or space snoozes."), "\(o.output)")
        #expect(o.output.contains("a key does not stop this alarm"), "\(o.output)")
        #expect(o.output.contains("wrong: 1 is not \(question); still ringing"), "\(o.output)")
        #expect(o.output.contains("stopped by the answer"), "\(o.output)")
    }

    @Test("on a terminal: Ctrl-C (SIGINT) still stops a challenged alarm: exit 0, by signal, restored")
    func ctrlCStops() async throws {
        let (o, events) = try await runOnPty(
            ["now", "-D", "null", "--challenge", "math", "--ring-for", "5m", "--inhibit", "off", "--notify", "off"],
            steps: ["wait:challenge", "wait:ringing", "ctrl:C"])
        #expect(o.error == nil && o.exit == 0 && o.restored, "\(o)")
        #expect(events.contains { $0.name == "stopped" && $0["signal"] == "SIGINT" }, "\(o)")
    }

    @Test("--dry-run says the challenge and where it came from; a config key sets it; a wrong word is refused (64)")
    func dryRunAndConfig() async throws {
        let on = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--challenge", "math"])
        #expect(on.exitCode == 0 && on.stdoutLines.contains { $0.hasPrefix("challenge: math (a sum to solve on the terminal stops it") && $0.hasSuffix("(from the command line)") },
                "\(on)")
        let off = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null"])
        #expect(off.stdoutLines.contains("challenge: off (any key stops)"), "\(off)")
        let bad = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--challenge", "chess"])
        #expect(bad.exitCode == 64 && bad.stderrIsOneLine && bad.stderr.contains("--challenge: invalid mode 'chess'; use off or math"), "\(bad)")
        let home = try AlarmHome()
        try FileManager.default.createDirectory(atPath: home.dir.file("config") + "/wake", withIntermediateDirectories: true)
        try "challenge = \"math\"\n".write(toFile: home.dir.file("config") + "/wake/config.toml", atomically: true, encoding: .utf8)
        let config = try await home.run(["07:00", "--dry-run", "-D", "null"])
        #expect(config.exitCode == 0 && config.stdoutLines.contains { $0.hasPrefix("challenge: math") && $0.contains("config.toml line 1") }, "\(config)")
    }

    @Test("the notification: no Stop button, the body says what stops it; its stop key snoozes (a swipe is not an answer); wake stop from a shell stops it: exit 0, by control",
          .enabled(if: NotificationMock.isAvailable, "needs python3-dbusmock, dbus-daemon and busctl"))
    func notificationSnoozesWakeStopStops() async throws {
        try await NotificationMock.with { mock in
            let world = try ControlWorld()
            let environment = world.environment.merging(mock.environment) { $1 }
            let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "5m", "--inhibit", "off", "--challenge", "math"],
                                        environment: environment, directory: world.dir)
            try await wake.waitForEvent("ringing")
            try await world.waitForSocket(wake.pid)
            let n = try await mock.waitForNotify()
            #expect(n.actions == ["snooze", "Snooze 9 min", "snooze-long", "Snooze 18 min"], "\(n)")
            #expect(n.body.contains("solve the sum on the terminal or run 'wake stop'"), "\(n)")

            try await mock.press("stop", on: 1)
            let snoozed = try await wake.waitForEvent("snoozed")
            #expect(!wake.hasExited && !wake.events.contains { $0.name == "stopped" }, "the notification's stop stopped it: \(wake.eventLogText)")
            let again = try await mock.waitForNotify(2)
            #expect(again.summary.contains("snoozed until") && again.actions.isEmpty, "\(again); \(snoozed)")

            let stop = try await WakeProcess.run(["stop"], environment: environment, timeout: .seconds(60))
            #expect(stop.exitCode == 0, "\(stop)")
            let r = await wake.wait()
            #expect(r.exitCode == 0, "\(wake.report(r))")
            #expect(wake.events.filter { $0.name == "stopped" }.map { $0["by"] } == ["control"], "\(wake.report(r))")
        }
    }

    @Test("MPRIS Stop and Next snooze a challenged alarm (the mpris event says what was asked, the engine snoozed); SIGTERM stops it",
          .enabled(if: NotificationMock.isAvailable && Playerctl.isAvailable, "needs dbus-daemon, busctl and playerctl"))
    func mediaKeysSnooze() async throws {
        let media = MediaPlayerTests()
        try await NotificationMock.with(server: false) { mock in
            let wake = try media.ring(mock, ["--challenge", "math", "--snooze", "2s"])
            try await wake.waitForEvent("mpris_player", timeout: .seconds(30))
            #expect(try await media.playerctl(mock, ["-p", "wake", "stop"]).exitCode == 0)
            try await wake.waitForEvent("snoozed", timeout: .seconds(30))
            try await wake.waitForEvent("ringing", occurrence: 2, timeout: .seconds(30))
            try await media.waitForStatus(mock, "wake", "Playing")
            #expect(try await media.playerctl(mock, ["-p", "wake", "next"]).exitCode == 0)
            try await wake.waitForEvent("snoozed", occurrence: 2, timeout: .seconds(30))
            #expect(!wake.hasExited && wake.count("stopped") == 0, "\(wake.eventLogText)")
            wake.send(SIGTERM)
            let r = await wake.wait(timeout: .seconds(30))
            #expect(r.exitCode == 0, "\(wake.report(r))")
            #expect(wake.events.filter { $0.name == "stopped" }.map { $0["signal"] } == ["SIGTERM"], "\(wake.report(r))")
        }
    }

    @Test("the daemon (no terminal): a challenged standing alarm added through the D-Bus API; its notification's stop snoozes, the API's Stop stops it (by dbus)",
          .enabled(if: NotificationMock.isAvailable, "needs python3-dbusmock, dbus-daemon and busctl"))
    func daemonNotificationSnoozesAPIStops() async throws {
        try await NotificationMock.with { mock in
            let home = try AlarmHome()
            let environment = home.environment.merging(mock.environment) { $1 }
            let daemon = try DetachedWake(["daemon", "--inhibit", "off"], environment: environment, directory: home.dir)
            try await daemon.waitForOutput(containing: "wake daemon running")
            let api = ["io.github.wakeclock.Wake1", "/io/github/wakeclock/Wake1", "io.github.wakeclock.Wake1.Manager"]
            let owned = ContinuousClock.now + .seconds(20)
            while !(try await mock.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s", api[0]])
                        .stdout.contains("b true")) {
                guard ContinuousClock.now < owned else { throw WakeTestError("the daemon never owned \(api[0])") }
                try await Task.sleep(for: .milliseconds(20))
            }
            let add = try await mock.busctl(["call"] + api + ["Add", "sa{sv}", AlarmHome.soon(3), "3", "name", "s", "soon", "device", "s", "null",
                                                              "challenge", "s", "math"])
            #expect(add.exitCode == 0, "\(add)")
            let asked = try await daemon.waitForEvent("challenge", timeout: .seconds(30))
            #expect(asked["alarm"] == "soon" && asked["question"]?.contains(" + ") == true, "\(asked)")
            let n = try await mock.waitForNotify()
            #expect(!n.actions.contains("stop") && n.body.contains("run 'wake stop'"), "\(n)")
            try await mock.press("stop", on: 1)
            try await daemon.waitForEvent("snoozed", timeout: .seconds(30))
            #expect(daemon.count("stopped") == 0, "\(daemon.eventLogText)")
            let stop = try await mock.busctl(["call"] + api + ["Stop", "s", "soon"])
            #expect(stop.exitCode == 0, "\(stop)")
            let stopped = try await daemon.waitForEvent("stopped", timeout: .seconds(30))
            #expect(stopped["by"] == "dbus" && stopped["alarm"] == "soon", "\(stopped)")
            daemon.send(SIGTERM)
            let end = await daemon.wait(timeout: .seconds(30))
            #expect(end.exitCode == 0, "\(daemon.report(end))")
        }
    }
}
