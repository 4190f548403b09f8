import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 39: the daemon's bedtime check, end to end. A private PulseAudio whose default sink
/// `speaker` is muted, python-dbusmock's notification server (with buttons), `wake daemon` and a
/// standing alarm added some seconds ahead: the check runs when the alarm is added (a change of
/// alarms.toml), again after another change, on SIGHUP and at its advance-notice moment; one
/// "may be silent" notification comes before the ring, never a second. (A WARN, as the mixer
/// guard makes of a muted sink, is said and not notified: BedtimeCheckTests in process, and the
/// sink's WARN on a real server is DoctorEndToEndTests's.)
@Suite("The daemon's bedtime check: a muted output said before the alarm",
       .enabled(if: PulseAudioServer.isAvailable && NotificationMock.isAvailable,
                "needs pulseaudio, pulseaudio-utils, libasound2-plugins, python3-dbusmock and dbus-daemon (make deps-test)"))
struct BedtimeCheckEndToEndTests {
    /// The server's, the home's and the bus's environment together: the home's config and
    /// state directories, the server's runtime directory (its socket) and state home.
    static func environment(_ pa: PulseAudioServer, _ home: AlarmHome, _ mock: NotificationMock) -> [String: String] {
        var env = pa.environment
        for (k, v) in home.environment where k != "XDG_RUNTIME_DIR" && k != "XDG_STATE_HOME" { env[k] = v }
        return env.merging(mock.environment) { $1 }
    }

    static func maySilent(_ calls: [NotificationMock.Call]) -> [NotificationMock.Notify] {
        calls.compactMap { if case .notify(let n) = $0, n.summary.hasSuffix(" may be silent") { n } else { nil } }
    }

    static func sinkChecks(_ daemon: DetachedWake) -> [WakeEvent] {
        daemon.events.filter { $0.name == "bedtime_check" && $0["check"] == "sound.sink" }
    }

    static func isTrue(_ s: String?) -> Bool { s == "1" || s == "true" }

    @Test("--mixer off with the sink muted: one notification before the ring, an event and a journal line; checks after changes and at its moment do not notify again")
    func mutedSinkNotifiedOnce() async throws {
        try await PulseAudioServer.with { pa in
            try await NotificationMock.with { mock in
                let home = try AlarmHome()
                let env = Self.environment(pa, home, mock)
                try await pa.turnDown("speaker", percent: 100, mute: true)
                let daemon = try DetachedWake(["daemon", "--inhibit", "off", "--notice-before", "12s"], environment: env, directory: home.dir)
                try await daemon.waitForOutput(containing: "wake daemon running", timeout: .seconds(30))
                let add = try await WakeProcess.run(["add", AlarmHome.soon(45), "--name", "soon", "-D", "default", "--mixer", "off",
                                                     "--ring-for", "3s"], environment: env)
                #expect(add.exitCode == 0, "\(add)")

                // The change of alarms.toml: the next alarm is checked at once.
                let calls = try await mock.waitForCalls(timeout: .seconds(30), "a 'may be silent' notification") { !Self.maySilent($0).isEmpty }
                let n = try #require(Self.maySilent(calls).first)
                #expect(n.summary.hasPrefix("Alarm at ") && n.summary.hasSuffix(" (soon) may be silent"), "\(n)")
                #expect(n.body.contains("the default sink") && n.body.contains("is muted") && n.body.contains("--mixer off leaves it so"), "\(n)")
                #expect(n.body.contains("Fix: unmute it ('pactl set-sink-mute @DEFAULT_SINK@ 0')"), "\(n)")
                #expect(n.hints["urgency"] == "1" && n.actions.isEmpty, "normal urgency, no buttons: \(n)")
                #expect(daemon.count("ringing") == 0, "before the ring: \(daemon.eventLogText)")
                let first = try await daemon.waitForEvent("bedtime_check", timeout: .seconds(10))
                #expect(first["alarm"] == "soon" && first["check"] == "sound.sink" && first["status"] == "FAIL", "\(first)")
                #expect(Self.isTrue(first["notified"]) && first["found"]?.contains("is muted") == true
                        && first["fix"]?.hasPrefix("unmute it") == true && first["occurrence"] != nil, "\(first)")
                try await daemon.waitForOutput(containing: "bedtime check: alarm 'soon' at ", onStderr: true)
                #expect(daemon.child.currentStderr.contains("FAIL sound.sink: the default sink"), "\(daemon.child.currentStderr)")

                // Another change of alarms.toml, then SIGHUP: checked again each time, not notified again.
                let other = try await WakeProcess.run(["add", AlarmHome.soon(3 * 3600), "--name", "later", "-D", "null"], environment: env)
                #expect(other.exitCode == 0, "\(other)")
                for _ in 0..<150 where Self.sinkChecks(daemon).count < 2 { try await Task.sleep(for: .milliseconds(100)) }
                #expect(Self.sinkChecks(daemon).count >= 2, "checked again after the change: \(daemon.eventLogText)")
                daemon.send(SIGHUP)
                for _ in 0..<150 where Self.sinkChecks(daemon).count < 3 { try await Task.sleep(for: .milliseconds(100)) }
                #expect(Self.sinkChecks(daemon).count >= 3, "checked again on SIGHUP: \(daemon.eventLogText)")

                // Its moment (12 s before), then the ring.
                try await daemon.waitForEvent("ringing", timeout: .seconds(90))
                let checks = Self.sinkChecks(daemon)
                #expect(checks.count >= 4, "checked at its moment too: \(daemon.eventLogText)")
                #expect(checks.dropFirst().allSatisfy { $0["status"] == "FAIL" && !Self.isTrue($0["notified"]) }, "\(checks)")
                let notices = Self.maySilent(try await mock.calls())
                #expect(notices.count == 1, "one notification, not one per check: \(notices)")
                let lines = daemon.child.currentStderr.split(separator: "\n").filter { $0.contains("bedtime check: alarm 'soon'") && $0.contains("FAIL sound.sink") }
                #expect(lines.count == checks.count, "a journal line per check: \(daemon.child.currentStderr)")
                daemon.send(SIGTERM)
                let r = await daemon.wait(timeout: .seconds(30))
                #expect(r.exitCode == 0, "\(daemon.report(r))")
            }
        }
    }
}
