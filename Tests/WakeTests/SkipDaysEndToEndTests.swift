import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeTestSupport

/// Issue 40's holiday calendars through the real binary: a daemon that warns about a calendar it
/// cannot read and still rings. Dates are the machine's today (the homes run in UTC). What `wake
/// add`, `skip`, `pause`, `list` and `next` say and store runs in process
/// (Tests/WakeCommandLineTests/SkipDaysCommandTests.swift).
enum SkipDaysEndToEndTests {
    static func date(in days: Int) -> String { PauseEndToEndTests.date(in: days) }
    /// `YYYYMMDD`, as a calendar file writes it.
    static func icsDate(in days: Int) -> String { date(in: days).filter { $0 != "-" } }

    static func calendar(_ events: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//wake tests//EN\r\n" + events + "END:VCALENDAR\r\n"
    }

    /// Line 4 is a weekly rule, which the reader refuses rather than read wrongly.
    static let malformed = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:\(icsDate(in: 0))\r\nRRULE:FREQ=WEEKLY\r\nSUMMARY:Weekly\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
}

@Suite("Holiday calendars: the daemon end to end", .serialized)
struct SkipDaysDaemonEndToEndTests {
    @Test("a calendar broken after wake add: the daemon names the alarm and the calendar (stderr and a file_problem event) and still rings")
    func malformedCalendarStillRings() async throws {
        let home = try AlarmHome()
        let file = try home.dir.write("cal.ics", Array(SkipDaysEndToEndTests.calendar(
            "BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20201225\r\nRRULE:FREQ=YEARLY\r\nSUMMARY:Christmas Day\r\nEND:VEVENT\r\n").utf8))
        let add = try await home.run(["add", AlarmHome.soon(6), "--days", "daily", "--name", "soon", "--skip-days", file, "-D", "null",
                                      "--ring-for", "1s"])
        #expect(add.exitCode == 0, "\(add)")
        // Broken since, and naming today: were it read, today would be skipped.
        _ = try home.dir.write("cal.ics", Array(SkipDaysEndToEndTests.malformed.utf8))
        let daemon = try home.daemon(["--notify", "off"])
        let problem = try await daemon.waitForEvent("file_problem")
        #expect(problem["problem"]?.contains("alarm 'soon'") == true && problem["problem"]?.contains("'\(file)' line 4") == true, "\(problem)")
        _ = try await daemon.waitForOutput(containing: "'\(file)' line 4", onStderr: true)
        let ringing = try await daemon.waitForEvent("ringing", timeout: .seconds(20))
        #expect(ringing["alarm"] == "soon", "\(ringing)")
        #expect(daemon.count("skipped") == 0, "\(daemon.eventLogText)")
        daemon.send(SIGTERM)
        #expect(await daemon.wait().exitCode == 0)
    }
}
