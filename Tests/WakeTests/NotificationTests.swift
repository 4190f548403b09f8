import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// End-to-end tests of the desktop notification (`--notify`), against python-dbusmock's
/// notification_daemon template on a private session bus (WakeTestSupport/NotificationMock.swift): what
/// Notify carries, the buttons as commands, the notification replaced and withdrawn, the bell
/// said loudly, a hung server that delays nothing, and the daemon's notifications.
///
/// Bounds are wide (a starved machine runs them): the defects they catch are waits of 3 to 25
/// seconds (a blocking D-Bus call) or a notification never shown or never withdrawn.
@Suite(.serialized, .enabled(if: NotificationMock.isAvailable, "needs python3-dbusmock, dbus-daemon and busctl"))
struct NotificationTests {
    static let noBus = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/wake-test-bus"]

    func environment(_ mock: NotificationMock, _ extra: [String: String] = [:]) -> [String: String] {
        mock.environment.merging(["TZ": "UTC"]) { $1 }.merging(extra) { $1 }
    }

    // MARK: what it shows

    @Test("while ringing: summary, two Snooze buttons (the alarm's own snooze and twice it) and Stop, urgency critical, resident, no expiry; withdrawn at the end")
    func ringingNotification() async throws {
        try await NotificationMock.with { mock in
            let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "60s", "--snooze", "7m", "--inhibit", "off"],
                                        environment: environment(mock))
            let ringing = try await wake.waitForEvent("ringing")
            let n = try await mock.waitForNotify()
            #expect(n.appName == "wake", "\(n)")
            #expect(n.replacesID == 0, "\(n)")
            // `now` is the deadline's own time of day: the summary names it as the console does.
            let deadline = try #require(wake.events.first { $0.name == "armed" }?["deadline"])
            let hhmm = String(deadline.dropFirst(11).prefix(5))
            #expect(n.summary.hasPrefix("Alarm \(hhmm)"), "\(n); armed deadline \(deadline)")
            #expect(n.actions == ["snooze", "Snooze 7 min", "snooze-long", "Snooze 14 min", "stop", "Stop"], "\(n)")
            #expect(n.hints["urgency"] == "2", "\(n)")
            #expect(n.hints["resident"] == "true", "\(n)")
            // The desktop's conventions: grouped under wake.desktop, its icon, no chime of the server's over the alarm.
            #expect(n.hints["desktop-entry"] == "wake" && n.hints["suppress-sound"] == "true" && n.hints["category"] == "x-wake.alarm",
                    "\(n)")
            #expect(n.appIcon == "alarm-clock", "\(n)")
            #expect(n.expireTimeout == 0, "\(n)")
            #expect(n.body.contains("Ringing since"), "\(n); ringing \(ringing)")

            wake.send(SIGTERM)
            let r = await wake.wait()
            #expect(r.exitCode == 0, "\(wake.report(r))")
            try await mock.waitForCalls("CloseNotification(1)") { calls in calls.contains { if case .close(1) = $0 { true } else { false } } }
            let calls = try await mock.calls()
            #expect(calls.filter { if case .notify = $0 { true } else { false } }.count == 1, "one notification, never re-sent: \(calls)")
        }
    }

    // --message in the body, markup-safe: WakeCoreTests/AlarmMessageTests and DesktopNoticeTests.

    @Test("a folder as the sound: the ringing notification names the file that plays, and is sent once")
    func folderFileNamed() async throws {
        let dir = try TestDirectory()
        mkdir(dir.file("tones"), 0o755)
        _ = try await makeSound(in: dir, name: "tones/t700.wav", rate: 44100, channels: 1, seconds: "1", synth: ["sine", "700"])
        try await NotificationMock.with { mock in
            let wake = try DetachedWake(["now", "-s", dir.file("tones"), "-D", "null", "--ring-for", "60s", "--inhibit", "off"],
                                        environment: environment(mock))
            let ringing = try await wake.waitForEvent("ringing")
            #expect(ringing["sound"] == dir.file("tones") + "/t700.wav", "\(ringing)")
            let n = try await mock.waitForNotify()
            #expect(n.body.hasSuffix("\nPlaying t700.wav."), "\(n)")
            wake.send(SIGTERM)
            #expect(await wake.wait().exitCode == 0)
            let calls = try await mock.calls()
            #expect(calls.filter { if case .notify = $0 { true } else { false } }.count == 1, "not re-sent for the same file: \(calls)")
        }
    }

    // The long snooze button and the snooze button's replaced notification run in process
    // (WakeRuntimeTests/DesktopNotifierTests: longButton, buttons); the stop button stays here.

    @Test("the stop button while ringing: exit 0, stopped by notification, CloseNotification; another notification's button is ignored")
    func stopButton() async throws {
        try await NotificationMock.with { mock in
            let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "60s", "--inhibit", "off"], environment: environment(mock))
            try await wake.waitForEvent("ringing")
            _ = try await mock.waitForNotify()
            // Some other program's notification: not ours to act on.
            try await mock.press("stop", on: 77)
            try await Task.sleep(for: .seconds(1))
            #expect(!wake.hasExited, "a button on another notification stopped the alarm: \(wake.eventLogText)")
            try await mock.press("stop", on: 1)
            let r = await wake.wait()
            #expect(r.exitCode == 0, "\(wake.report(r))")
            #expect(wake.events.contains { $0.name == "stopped" && $0["by"] == "notification" }, "\(wake.report(r))")
            #expect(r.stdout.contains("stopped by the notification"), "\(wake.report(r))")
            #expect(wake.count("sound_stopped") == 1, "\(wake.report(r))")
            try await mock.waitForCalls("CloseNotification(1)") { calls in calls.contains { if case .close(1) = $0 { true } else { false } } }
        }
    }

    // MARK: --notify require, auto, off

    @Test("--notify require without a session bus: 69 before the wait, one line naming the bus and what to do")
    func requireWithoutBus() async throws {
        let wake = try DetachedWake(["+1h", "-D", "null", "--inhibit", "off", "--notify", "require"], environment: Self.noBus)
        let r = await wake.wait(timeout: .seconds(30))
        #expect(r.exitCode == 69, "\(wake.report(r))")
        #expect(r.stderrIsOneLine, "\(wake.report(r))")
        #expect(r.stderr.contains("--notify require") && r.stderr.contains("/nonexistent/wake-test-bus"), "\(wake.report(r))")
        #expect(r.stderr.contains("--notify auto"), "says what to do: \(wake.report(r))")
        #expect(wake.events.isEmpty, "nothing was armed: \(wake.eventLogText)")
    }

    @Test("--notify require on a bus without a notification server: 69 before the wait, and the dry run says why")
    func requireWithoutServer() async throws {
        try await NotificationMock.with(server: false) { mock in
            let wake = try DetachedWake(["+1h", "-D", "null", "--inhibit", "off", "--notify", "require"], environment: environment(mock))
            let r = await wake.wait(timeout: .seconds(30))
            #expect(r.exitCode == 69, "\(wake.report(r))")
            #expect(r.stderrIsOneLine && r.stderr.contains("no desktop notification server"), "\(wake.report(r))")
            #expect(r.stderr.contains("org.freedesktop.Notifications") || r.stderr.contains("ServiceUnknown"), "\(wake.report(r))")
            #expect(wake.events.isEmpty, "nothing was armed: \(wake.eventLogText)")

            let dry = try await WakeProcess.run(["+1h", "-D", "null", "--inhibit", "off", "--dry-run"], environment: environment(mock))
            #expect(dry.exitCode == 0, "\(dry)")
            #expect(dry.stdoutLines.contains { $0.hasPrefix("notify: auto (no notification: ") }, "\(dry)")
        }
    }

    @Test("--notify require with a server: armed; the dry run names the server and its buttons")
    func requireWithServer() async throws {
        try await NotificationMock.with { mock in
            let dry = try await WakeProcess.run(["+1h", "-D", "null", "--inhibit", "off", "--dry-run", "--notify", "require"],
                                                environment: environment(mock))
            #expect(dry.exitCode == 0, "\(dry)")
            #expect(dry.stdoutLines.last == "notify: require (notification server 'mock-notify' 1.0 by 'test vendor', with Snooze and Stop buttons) (from the command line)",
                    "\(dry)")
            let wake = try DetachedWake(["+1h", "-D", "null", "--inhibit", "off", "--notify", "require"], environment: environment(mock))
            try await wake.waitForEvent("armed")
            wake.send(SIGTERM)
            let r = await wake.wait()
            #expect(r.exitCode == 143, "\(wake.report(r))")
            #expect(!r.stderr.contains("notification"), "no warning about it: \(wake.report(r))")
            #expect(try await mock.notifies.isEmpty, "nothing shown before it rings")
        }
    }

    @Test("--notify auto without a session bus rings as always, with not a word about it")
    func autoWithoutBus() async throws {
        let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "1s", "--inhibit", "off"], environment: Self.noBus)
        let r = await wake.wait(timeout: .seconds(30))
        #expect(r.exitCode == 4, "\(wake.report(r))")
        #expect(r.stderr.isEmpty, "\(wake.report(r))")
        #expect(wake.count("ringing") == 1, "\(wake.report(r))")
        let dry = try await WakeProcess.run(["now", "-D", "null", "--inhibit", "off", "--dry-run"], environment: Self.noBus)
        #expect(dry.stdoutLines.last?.hasPrefix("notify: auto (no notification: ") == true, "\(dry)")
        #expect(dry.stdout.contains("/nonexistent") || dry.stdout.contains("session bus"), "\(dry)")
    }

    @Test("--notify off sends nothing, and the dry run says off")
    func off() async throws {
        try await NotificationMock.with { mock in
            let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "1s", "--inhibit", "off", "--notify", "off"],
                                        environment: environment(mock))
            let r = await wake.wait(timeout: .seconds(30))
            #expect(r.exitCode == 4, "\(wake.report(r))")
            let calls = try await mock.calls()
            #expect(calls.isEmpty, "\(calls)")
            let dry = try await WakeProcess.run(["now", "-D", "null", "--inhibit", "off", "--notify", "off", "--dry-run"],
                                                environment: environment(mock))
            #expect(dry.stdoutLines.last == "notify: off (from the command line)", "\(dry)")
            #expect(try await mock.calls().isEmpty, "the dry run asked nothing either")
        }
    }

    // MARK: a hung server

    @Test("a frozen server: the alarm rings on time, SIGUSR1 snoozes and SIGTERM stops at once; --notify require gives up in 3 s")
    func frozenServerSignals() async throws {
        try await NotificationMock.with { mock in
            mock.freeze()
            // An absolute deadline a few seconds ahead: ringing late is measured from it.
            let wake = try DetachedWake([AlarmHome.soon(4), "-D", "null", "--ring-for", "60s", "--inhibit", "off"],
                                        environment: environment(mock))
            let ringing = try await wake.waitForEvent("ringing", timeout: .seconds(30))
            let lateMs = Double(ringing["late_ms"] ?? "") ?? 1e9
            #expect(lateMs < 2500, "rang \(lateMs) ms late with a hung notification server: \(ringing)")
            let sent = ContinuousClock.now
            wake.send(SIGUSR1)
            try await wake.waitForEvent("snoozed", timeout: .seconds(10))
            #expect(ContinuousClock.now - sent < .seconds(3), "SIGUSR1 took \(ContinuousClock.now - sent) to snooze")
            let stop = ContinuousClock.now
            wake.send(SIGTERM)
            let r = await wake.wait(timeout: .seconds(30))
            let took = ContinuousClock.now - stop
            #expect(r.exitCode == 0, "\(wake.report(r))")
            // The sound stops at once; the exit may wait up to 0.5 s for the unanswered Notify.
            #expect(took < .seconds(4), "SIGTERM took \(took) to end wake: \(wake.report(r))")
            #expect(wake.events.contains { $0.name == "stopped" && $0["signal"] == "SIGTERM" }, "\(wake.report(r))")

            let started = ContinuousClock.now
            let required = try DetachedWake(["+1h", "-D", "null", "--inhibit", "off", "--notify", "require"], environment: environment(mock))
            let rr = await required.wait(timeout: .seconds(30))
            #expect(rr.exitCode == 69, "\(required.report(rr))")
            #expect(ContinuousClock.now - started < .seconds(15), "the check is bounded at 3 s: \(required.report(rr))")
            #expect(rr.stderrIsOneLine && rr.stderr.contains("did not answer in 3s"), "\(required.report(rr))")
            mock.thaw()
        }
    }

    @Test("a frozen server, on a terminal: keys snooze and stop as always")
    func frozenServerKeys() async throws {
        try await NotificationMock.with { mock in
            mock.freeze()
            let (o, events) = try await runOnPty(["now", "-D", "null", "--ring-for", "60s", "--inhibit", "off"],
                                                 steps: ["wait:ringing", "key:s", "wait:snoozed", "key:x"],
                                                 environment: environment(mock), timeout: 60)
            mock.thaw()
            #expect(o.error == nil && o.exit == 0, "\(o)")
            #expect(o.restored, "\(o)")
            #expect(events.contains { $0.name == "snoozed" }, "\(o)")
            #expect(events.contains { $0.name == "stopped" && $0["key"] == "x" }, "\(o)")
        }
    }

    // MARK: no sound

    @Test("every device fails and the terminal bell rings: the notification says so, loudly, and keeps its buttons")
    func bellSaidLoudly() async throws {
        try await NotificationMock.with { mock in
            let (o, events) = try await runOnPty(["now", "-D", "null", "--ring-for", "60s", "--inhibit", "off"],
                                                 steps: ["wait:ringing", "sleep:3", "signal:TERM"],
                                                 environment: environment(mock, faults("pcm.open=EIO@1x0")), timeout: 60)
            #expect(o.error == nil && o.exit == 0, "\(o)")
            #expect(o.bells >= 1, "\(o)")
            #expect(events.filter { $0.name == "fallback" }.last?["to"] == "bell", "\(o)")
            let calls = try await mock.waitForCalls("CloseNotification") { calls in calls.contains { if case .close = $0 { true } else { false } } }
            let notifies = calls.compactMap { if case .notify(let n) = $0 { n } else { nil } }
            let bell = try #require(notifies.first { $0.summary.contains("NO SOUND DEVICE WORKS") }, "\(calls)")
            #expect(bell.replacesID == 1, "the ringing notification replaced: \(bell)")
            #expect(bell.body.contains("terminal bell") && bell.body.contains("Input/output error"), "\(bell)")
            #expect(bell.hints["urgency"] == "2" && bell.actions == ["snooze", "Snooze 9 min", "snooze-long", "Snooze 18 min", "stop", "Stop"], "\(bell)")
        }
    }

    @Test("no device works and there is no terminal for the bell: exit 1, and the notification says it could not ring (left standing)")
    func couldNotRing() async throws {
        try await NotificationMock.with { mock in
            // Silent for the whole window (it keeps trying, issue 22), then exit 1.
            let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "6s", "--inhibit", "off"],
                                        environment: environment(mock, faults("pcm.open=EIO@1x0")))
            let r = await wake.wait(timeout: .seconds(40))
            #expect(r.exitCode == 1, "\(wake.report(r))")
            let calls = try await mock.waitForCalls("the could-not-ring notice") { calls in
                calls.contains { if case .notify(let n) = $0 { n.summary.contains("COULD NOT RING") } else { false } }
            }
            let last = try #require(calls.compactMap { if case .notify(let n) = $0 { n } else { nil } }.last)
            #expect(last.summary.contains("COULD NOT RING") && last.actions.isEmpty && last.hints["urgency"] == "2", "\(calls)")
            #expect(last.body.contains("Input/output error"), "\(last)")
            #expect(!calls.contains { if case .close = $0 { true } else { false } }, "it outlives the alarm: \(calls)")
        }
    }

    // MARK: the daemon

    @Test("wake daemon: a ringing standing alarm shows its notification, named; its stop button stops it and the daemon goes on")
    func daemonStopButton() async throws {
        try await NotificationMock.with { mock in
            let home = try AlarmHome()
            let env = home.environment.merging(mock.environment) { $1 }
            let daemon = try DetachedWake(["daemon", "--inhibit", "off"], environment: env, directory: home.dir)
            try await daemon.waitForOutput(containing: "wake daemon running")
            let add = try await WakeProcess.run(["add", AlarmHome.soon(4), "--name", "soon", "-D", "null", "--ring-for", "60s",
                                                 "--snooze", "5m"], environment: env)
            #expect(add.exitCode == 0, "\(add)")
            let ringing = try await daemon.waitForEvent("ringing", timeout: .seconds(30))
            #expect(ringing["alarm"] == "soon", "\(ringing)")
            let n = try await mock.waitForNotify()
            #expect(n.summary.hasPrefix("Alarm ") && n.summary.contains("(soon)"), "\(n)")
            #expect(n.actions == ["snooze", "Snooze 5 min", "snooze-long", "Snooze 10 min", "stop", "Stop"], "\(n)")
            try await mock.press("stop", on: 1)
            let stopped = try await daemon.waitForEvent("stopped", timeout: .seconds(15))
            #expect(stopped["by"] == "notification" && stopped["alarm"] == "soon", "\(stopped)")
            try await mock.waitForCalls("CloseNotification(1)") { calls in calls.contains { if case .close(1) = $0 { true } else { false } } }
            #expect(!daemon.hasExited, "the daemon goes on")
            daemon.send(SIGTERM)
            let r = await daemon.wait(timeout: .seconds(30))
            #expect(r.exitCode == 0, "\(daemon.report(r))")
        }
    }

    @Test("wake daemon --notify require without a bus: 69 at start, one line")
    func daemonRequireWithoutBus() async throws {
        let home = try AlarmHome()
        let daemon = try DetachedWake(["daemon", "--inhibit", "off", "--notify", "require"],
                                      environment: home.environment.merging(Self.noBus) { $1 }, directory: home.dir)
        let r = await daemon.wait(timeout: .seconds(30))
        #expect(r.exitCode == 69, "\(daemon.report(r))")
        #expect(r.stderrIsOneLine && r.stderr.contains("--notify require"), "\(daemon.report(r))")
    }
}
