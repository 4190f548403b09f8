import Foundation
import Testing
import WakeCore
@testable import WakeRuntime
@testable import WakeTestSupport

/// The daemon and issue 54's `--before-first-event`, in process with the fake clock: it arms the
/// lead before the day's first timed event, reads the calendar again at a reload, and an alarm
/// whose calendar breaks is set aside, said, while the others ring.
@Suite("Daemon: before the first event")
struct DaemonFirstEventTests {
    typealias Days = DaemonDayOffTests

    static func calendar(_ start: String) -> String {
        "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:\(start)\r\nSUMMARY:Stand-up\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    }

    @Test("armed 90m before Thursday's 09:00 event; the file changed and reloaded: before the new time; broken: set aside, said")
    func armsAndRereads() throws {
        let dir = try TestDirectory()
        let file = try dir.write("work.ics", Array(Self.calendar("20261126T090000Z").utf8))
        var meet = Days.alarm(nil, options: ["before-first-event": file, "lead": "90m"])
        meet.hour = 0
        meet.name = "meet"
        let d = try ZoneChangeTests.Daemon(at: Days.wednesday, alarms: [meet, Days.alarm(nil)], history: [Days.rangWednesday])
        #expect(d.controller.occurrence(of: "meet") == Days.seven(1) + .seconds(30 * 60), "Thursday 07:30: \(d.lines.lines)")
        try Self.calendar("20261126T080000Z").write(toFile: file, atomically: true, encoding: .utf8)
        Days.reload(d)
        #expect(d.controller.occurrence(of: "meet") == Days.seven(1) - .seconds(30 * 60), "Thursday 06:30, the file read again")
        try "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:2026\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".write(toFile: file, atomically: true,
                                                                                                 encoding: .utf8)
        Days.reload(d)
        #expect(d.controller.occurrence(of: "meet") == nil, "set aside")
        #expect(d.controller.occurrence(of: "work") == Days.seven(1), "the others ring")
        #expect(d.lines.lines.contains { $0.contains("alarm 'meet' --before-first-event: calendar '\(file)' line 3:")
                                         && $0.hasSuffix(DayOffCalendars.eventsMeanwhile) }, "\(d.lines.lines)")
    }
}
