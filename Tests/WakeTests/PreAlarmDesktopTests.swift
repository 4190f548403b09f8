import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// The pre-alarm's notification (Stop keeps the alarm, Up already skips it) against
/// python-dbusmock's notification server, and its media player through playerctl.
@Suite("The pre-alarm on the desktop", .serialized,
       .enabled(if: NotificationMock.isAvailable && Playerctl.isAvailable, "needs python3-dbusmock, dbus-daemon, busctl and playerctl"))
struct PreAlarmDesktopTests {
    func environment(_ mock: NotificationMock) -> [String: String] { mock.environment.merging(["TZ": "UTC"]) { $1 } }

    @Test("the pre-alarm's notification: Up already and Stop (alarm stays set); Stop keeps the alarm and leaves Up already, which skips it")
    func notificationStopThenUp() async throws {
        try await NotificationMock.with { mock in
            let wake = try DetachedWake(["+30s", "-D", "null", "--pre-alarm", "29s", "--inhibit", "off", "--mpris", "off"],
                                        environment: environment(mock))
            try await wake.waitForEvent("pre_ringing", timeout: .seconds(20))
            let n = try await mock.waitForNotify()
            #expect(n.summary.hasSuffix(": pre-alarm"), "\(n)")
            #expect(n.actions == ["up", "Up already", "stop", "Stop (alarm stays set)"], "\(n)")
            try await mock.press("stop", on: 1)
            let stopped = try await wake.waitForEvent("pre_stopped", timeout: .seconds(10))
            #expect(stopped["by"] == "notification", "\(stopped)")
            let after = try await mock.waitForNotify(2)
            #expect(after.replacesID == 1 && after.actions == ["up", "Up already"] && after.body.contains("stays set"), "\(after)")
            try await mock.press("up", on: 1)
            let r = await wake.wait(timeout: .seconds(20))
            #expect(r.exitCode == 0, "\(wake.report(r))")
            #expect(wake.events.contains { $0.name == "up_already" && $0["by"] == "notification" }, "\(wake.report(r))")
            #expect(!wake.events.contains { $0.name == "ringing" }, "\(wake.report(r))")
            #expect(r.stdout.contains("up already (the notification)"), "\(wake.report(r))")
        }
    }

    @Test("Up already on the pre-alarm's notification while it rings quietly: the alarm never rings")
    func notificationUp() async throws {
        try await NotificationMock.with { mock in
            let wake = try DetachedWake(["+30s", "-D", "null", "--pre-alarm", "29s", "--inhibit", "off", "--mpris", "off"],
                                        environment: environment(mock))
            try await wake.waitForEvent("pre_ringing", timeout: .seconds(20))
            _ = try await mock.waitForNotify()
            try await mock.press("up", on: 1)
            let r = await wake.wait(timeout: .seconds(20))
            #expect(r.exitCode == 0 && wake.count("up_already") == 1 && wake.count("ringing") == 0, "\(wake.report(r))")
        }
    }

    @Test("the media player while it pre-rings: stop stops the pre-ring; the alarm stays set and rings (a new player)")
    func mprisStopKeepsMain() async throws {
        try await NotificationMock.with(server: false) { mock in
            let wake = try DetachedWake(["+8s", "-D", "null", "--pre-alarm", "7s", "--ring-for", "1s", "--inhibit", "off", "--notify", "off"],
                                        environment: environment(mock))
            try await wake.waitForEvent("mpris_player", timeout: .seconds(20))
            let p = try ChildProcess(Playerctl.path, ["-p", "wake", "stop"], environment: environment(mock), directory: mock.directory)
            let pr = await p.wait(timeout: .seconds(60))
            #expect(pr.exitCode == 0, "\(pr)")
            let stopped = try await wake.waitForEvent("pre_stopped", timeout: .seconds(20))
            #expect(stopped["by"] == "mpris", "\(stopped)")
            try await wake.waitForEvent("ringing", timeout: .seconds(20))
            let r = await wake.wait(timeout: .seconds(20))
            #expect(r.exitCode == 4, "\(wake.report(r))")
            #expect(wake.count("mpris_player") == 2, "\(wake.report(r))")
        }
    }
}
