import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeTestSupport

/// The calendar fixtures of issue 40's holiday tests. What `wake add`, `skip`, `pause`, `list` and
/// `next` say and store runs in process (Tests/WakeCommandLineTests/SkipDaysCommandTests.swift);
/// the daemon that warns about a calendar it cannot read and still rings, in
/// Tests/WakeRuntimeTests/DaemonDayOffTests.swift (malformedCalendarStillRings). Dates are the
/// machine's today (the homes run in UTC).
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
