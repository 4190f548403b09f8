import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// The daemon's notices before and after a standing alarm (`--notice-before`, issue 26), against
/// python-dbusmock's notification daemon; buttons pressed with its ActionInvoked.
@Suite(.serialized, .enabled(if: NotificationMock.isAvailable, "needs python3-dbusmock, dbus-daemon and busctl"))
struct AdvanceNoticeEndToEndTests {
    @Test("before: 'Alarm at ... (name)' with the message and a Skip button; Skip skips that occurrence, as wake skip does")
    func beforeAndSkip() async throws {
        try await NotificationMock.with { mock in
            let home = try AlarmHome()
            let env = home.environment.merging(mock.environment) { $1 }
            let daemon = try DetachedWake(["daemon", "--inhibit", "off", "--notice-before", "10s"], environment: env, directory: home.dir)
            try await daemon.waitForOutput(containing: "wake daemon running")
            let add = try await WakeProcess.run(["add", AlarmHome.soon(16), "--days", "daily", "--name", "soon", "-D", "null",
                                                 "--message", "Stand-up"], environment: env)
            #expect(add.exitCode == 0, "\(add)")
            let n = try await mock.waitForNotify(timeout: .seconds(20))
            #expect(n.summary.hasPrefix("Alarm at ") && n.summary.hasSuffix(" (soon)"), "\(n) \(daemon.child.currentStdout)")
            #expect(n.body == "Stand-up" && n.actions == ["skip", "Skip"], "\(n)")
            #expect(n.hints["urgency"] == "1", "\(n)")
            #expect(daemon.count("ringing") == 0, "shown before the ring: \(daemon.eventLogText)")
            try await mock.press("skip", on: 1)
            let skipped = try await daemon.waitForEvent("skipped", timeout: .seconds(15))
            #expect(skipped["alarm"] == "soon", "\(skipped)")
            try await mock.waitForCalls("CloseNotification(1)") { calls in calls.contains { if case .close(1) = $0 { true } else { false } } }
            let list = try await WakeProcess.run(["list", "--json"], environment: env)
            #expect(list.stdout.contains("\"state\":\"waiting\"") || list.stdout.contains("skipped"), "\(list)")
            try await Task.sleep(for: .seconds(10))
            #expect(daemon.count("ringing") == 0, "the skipped occurrence did not ring: \(daemon.eventLogText)")
            daemon.send(SIGTERM)
            let r = await daemon.wait(timeout: .seconds(30))
            #expect(r.exitCode == 0, "\(daemon.report(r))")
        }
    }

    // A single missed alarm's notice: its text in WakeCoreTests/AdvanceNoticeTests (missed), sent by
    // the daemon over the bus as missedFolded's is.

    /// Issue 37 (16c): a daemon back after a long downtime finds 40 alarms missed at once; the
    /// desktop gets one notice for them all, while stderr (the journal) and the event log still
    /// have one line and one `missed` event each.
    @Test("after: 40 alarms missed at once are one notice, 'Missed 40 alarms: ... and 38 more'; still a line and an event each")
    func missedFolded() async throws {
        try await NotificationMock.with { mock in
            let home = try AlarmHome()
            let env = home.environment.merging(mock.environment) { $1 }
            // Written as `wake add` writes them, added ten minutes ago, due in the next seconds.
            var created = time(nil) - 600
            var parts = tm()
            gmtime_r(&created, &parts)
            let stamp = String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                               parts.tm_hour, parts.tm_min, parts.tm_sec)
            let names = ["first", "second"] + (0..<38).map { String(format: "m%02d", $0) }
            var text = ""
            for (i, name) in names.enumerated() {
                text += "[alarms.\(name)]\ntime = \"\(AlarmHome.soon(min(i + 1, 3)))\"\n"
                    + "days = [\"mon\", \"tue\", \"wed\", \"thu\", \"fri\", \"sat\", \"sun\"]\n"
                    + "device = \"null\"\nlate-limit = \"1s\"\ncreated = \"\(stamp)\"\n\n"
            }
            try FileManager.default.createDirectory(atPath: home.dir.file("config/wake"), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            _ = try home.dir.write("config/wake/alarms.toml", text.utf8, mode: 0o600)
            try await Task.sleep(for: .seconds(6))

            let daemon = try DetachedWake(["daemon", "--inhibit", "off"], environment: env, directory: home.dir)
            try await daemon.waitForEvent("missed", occurrence: 40, timeout: .seconds(30))
            let n = try await mock.waitForNotify(timeout: .seconds(15))
            #expect(n.summary.hasPrefix("Missed 40 alarms: ") && n.summary.contains(" (first), ") && n.summary.hasSuffix(" (second) and 38 more"), "\(n)")
            #expect(n.body.contains("None of them rang today") && n.body.contains("asleep or off"), "\(n)")
            #expect(n.hints["resident"] == "true" && n.actions.isEmpty, "\(n)")
            // Nothing more comes: one notice, not forty.
            try await Task.sleep(for: .seconds(3))
            let notices = try await mock.notifies
            #expect(notices.count == 1, "\(notices)")
            #expect(daemon.count("missed") == 40 && daemon.count("ringing") == 0, "\(daemon.eventLogText)")
            let lines = daemon.child.currentStderr.split(separator: "\n").filter { $0.contains("missed '") }
            #expect(lines.count == 40 && names.allSatisfy { name in lines.contains { $0.contains("missed '\(name)'") } },
                    "\(daemon.child.currentStderr)")
            daemon.send(SIGTERM)
            _ = await daemon.wait(timeout: .seconds(30))
        }
    }

    // The config file's bad and good values run in process (ConfigFileCommandTests.noticeBefore).
    @Test("wake daemon --notice-before with a bad value: one line, 64, at once")
    func off() async throws {
        let home = try AlarmHome()
        let bad = try await home.run(["daemon", "--notice-before", "soon"])
        #expect(bad.exitCode == 64 && bad.stderrIsOneLine && bad.stderr.contains("--notice-before"), "\(bad)")
    }
}
