import Glibc
import Testing
@testable import WakeTestSupport

@Suite("Missed alarms")
struct MissedAlarmTests {
    /// Stopped (SIGSTOP) across its deadline, wake gets to run 3 s late, past a 1 s late limit:
    /// the missed path end to end without a suspend.
    @Test("past the late limit: no ring, one stderr line, a missed event, exit 3")
    func missed() async throws {
        let wake = try await lateWake(["-D", "null", "--late-limit", "1s", "--inhibit", "off"])
        let r = await wake.wait(timeout: .seconds(20))
        #expect(r.exitCode == 3, "\(wake.report(r))")
        #expect(r.stderrIsOneLine && r.stderr.contains("missed alarm for") && r.stderr.contains("late by"), "\(r)")
        #expect(wake.count("missed") == 1 && wake.count("ringing") == 0, "\(wake.report(r))")
    }

    @Test("within the late limit it rings")
    func withinLimit() async throws {
        let wake = try WakeProcess(["+1s", "-D", "null", "--late-limit", "1m", "--ring-for", "1s", "--inhibit", "off"])
        let r = await wake.wait(timeout: .seconds(20))
        #expect(r.exitCode == 4, "\(wake.report(r))")
        #expect(wake.count("ringing") == 1 && wake.count("missed") == 0, "\(wake.report(r))")
    }
}
