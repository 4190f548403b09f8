import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 56, the bedtime reminder (`sleep-target` in config.toml) from a real daemon: logind is
/// python-dbusmock's template on a private system bus (a session of this user, locked and then
/// unlocked through its LockedHint), the notification server python-dbusmock's on a private
/// session bus. When it comes, what it carries, and its Skip tomorrow. (Its timing and its
/// decisions on the fake clock: WakeRuntimeTests/BedtimeReminderTests.)
@Suite(.serialized, .enabled(if: NotificationMock.isAvailable && LogindMock.isAvailable, "needs python3-dbusmock, dbus-daemon and busctl"))
struct BedtimeReminderEndToEndTests {
    @Test("held back while locked, shown once unlocked: 'Bed now for ...', the verdict, two buttons, no chime; Skip tomorrow skips")
    func lockedThenShownThenSkip() async throws {
        try await NotificationMock.with { mock in
            try await LogindMock.with { logind in
                try await logind.addSession("c1")
                try await logind.setHint("LockedHint", true, session: "c1")
                let home = try AlarmHome()
                try FileManager.default.createDirectory(atPath: home.dir.file("config") + "/wake", withIntermediateDirectories: true)
                let config = home.dir.file("config") + "/wake/config.toml"
                try "sleep-target = \"150s\"\n".write(toFile: config, atomically: true, encoding: .utf8)
                let env = home.environment.merging(mock.environment) { $1 }.merging(logind.environment) { $1 }
                let daemon = try DetachedWake(["daemon", "--inhibit", "off", "--notice-before", "0"], environment: env, directory: home.dir)
                try await daemon.waitForOutput(containing: "wake daemon running")
                let add = try await WakeProcess.run(["add", AlarmHome.soon(170), "--days", "daily", "--name", "soon", "-D", "null"],
                                                    environment: env)
                #expect(add.exitCode == 0, "\(add)")

                let held = try await daemon.waitForEvent("bedtime", timeout: .seconds(45))
                #expect(held["alarm"] == "soon" && held["held"] == "locked" && held["shown"] == "0", "\(held)")
                #expect(try await mock.calls().allSatisfy { if case .notify = $0 { false } else { true } },
                        "nothing shown on a locked screen")
                try await logind.setHint("LockedHint", false, session: "c1")

                let n = try await mock.waitForNotify(timeout: .seconds(90))
                #expect(n.summary.hasPrefix("Bed now for 2m30s before ") && n.summary.hasSuffix(" (soon)"), "\(n)")
                #expect(!n.body.isEmpty && n.actions == ["skip-tomorrow", "Skip tomorrow", "not-tonight", "Not tonight"], "\(n)")
                #expect(n.hints["urgency"] == "1" && n.hints["suppress-sound"] == "true" && n.hints["desktop-entry"] == "wake", "\(n)")
                let shown = try await daemon.waitForEvent("bedtime", occurrence: 2, timeout: .seconds(15))
                #expect(shown["shown"] == "1" && ["PASS", "WARN", "FAIL"].contains(shown["verdict"] ?? ""), "\(shown)")
                #expect(daemon.child.currentStdout.contains("bedtime: alarm 'soon' at "), "the journal says it")

                try await mock.press("skip-tomorrow", on: 1)
                let skipped = try await daemon.waitForEvent("skipped", timeout: .seconds(15))
                #expect(skipped["alarm"] == "soon", "\(skipped)")
                daemon.send(SIGTERM)
                let r = await daemon.wait(timeout: .seconds(30))
                #expect(r.exitCode == 0, "\(daemon.report(r))")
            }
        }
    }
}
