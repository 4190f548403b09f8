import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// The pre-alarm of a standing alarm, with a real daemon: `wake list` shows it pre-ringing,
/// `wake stop` keeps the alarm. (`wake skip` during the pre-ring runs in process:
/// Tests/WakeRuntimeTests/PreAlarmDaemonTests.swift, skipDuringPreRing.)
@Suite("The pre-alarm of a standing alarm", .serialized)
struct PreAlarmDaemonEndToEndTests {
    @Test("wake list says pre-ringing; wake stop keeps the alarm, which rings at its time")
    func stopKeeps() async throws {
        let home = try AlarmHome()
        // Twenty seconds ahead: on a loaded machine wake add and the daemon's start take seconds, and the
        // alarm's own time must not pass before the daemon arms it (a pre-ring starts late, at once).
        let at = AlarmHome.soon(20)
        let add = try await home.run(["add", at, "--days", "daily", "--name", "work", "-D", "null", "--pre-alarm", "18s",
                                       "--ring-for", "1s", "--unattended", "stop"])
        #expect(add.exitCode == 0, "\(add)")
        let daemon = try home.daemon()
        try await daemon.waitForEvent("pre_ringing", timeout: .seconds(20))
        let list = try await home.listJSON()
        #expect(list.first?["state"] as? String == "pre-ringing", "\(list)")
        // wake next: still ahead, at the alarm's own time, and its pre-alarm said.
        let next = try await home.run(["next", "--json"])
        #expect(next.exitCode == 0 && next.stdout.contains("\"state\":\"pre-ringing\"") && next.stdout.contains("pre-alarm ringing")
                && next.stdout.contains("\"time\":\"\(at.prefix(5))"), "\(next)")
        let stop = try await home.run(["stop"])
        #expect(stop.exitCode == 0 && stop.stdout.contains("stopped the pre-alarm of 'work'") && stop.stdout.contains("'wake skip work'"), "\(stop)")
        let stopped = try await daemon.waitForEvent("pre_stopped", timeout: .seconds(10))
        #expect(stopped["alarm"] == "work" && stopped["by"] == "control", "\(stopped)")
        try await daemon.waitForEvent("ringing", timeout: .seconds(40))
        try await daemon.waitForEvent("timed_out", timeout: .seconds(20))
        daemon.send(SIGTERM)
        let r = await daemon.wait(timeout: .seconds(20))
        #expect(r.exitCode == 0, "\(daemon.report(r))")
    }
}
