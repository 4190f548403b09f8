import Foundation
import Testing
import WakeCore
@testable import WakeRuntime
@testable import WakeTestSupport

/// The daemon and issue 40's skips and holiday calendars, in-process with the fake clock: a
/// holiday is passed over and said once (a `skipped` event with its reason), a calendar it
/// cannot read is said and the alarm rings on its days, and skips are recorded as they pass.
@Suite("Daemon: holidays and skips with an injected clock")
struct DaemonDayOffTests {
    typealias Daemon = ZoneChangeTests.Daemon

    /// Wednesday 2026-11-25 23:00 UTC: Thursday is Thanksgiving in `SkipActionsTests.holidays`.
    static let wednesday = RunnerTests.evening + .seconds(2 * 86_400)
    /// 07:00 UTC `days` after Wednesday 25 November (1: Thursday).
    static func seven(_ days: Int) -> Instant { wednesday + .seconds(Int64(days * 86_400 - 16 * 3600)) }

    static func alarm(_ calendar: String?, options: [String: String] = [:]) -> StandingAlarm {
        var options = options
        if let calendar { options["skip-days"] = calendar }
        return ZoneChangeTests.daily("work", 7, created: wednesday - .seconds(3 * 86_400), options: options)
    }

    /// Wednesday's 07:00 rang.
    static var rangWednesday: AlarmRecord {
        var r = AlarmRecord(name: "work")
        r.lastFired = seven(0)
        return r
    }

    static func events(_ d: Daemon, _ name: String) -> [String] { d.events.filter { $0.contains("\"event\":\"\(name)\"") } }

    static func reload(_ d: Daemon) {
        d.controller.requestReload()
        d.controller.applyPending()
    }

    @Test("a holiday is not armed, the day after it is; a skipped event with reason holiday is logged once, and rings the day after")
    func holidayNotArmed() throws {
        let dir = try TestDirectory()
        let calendar = try dir.write("holidays-us.ics", Array(SkipActionsTests.holidays.utf8))
        let d = try Daemon(at: Self.wednesday, alarms: [Self.alarm(calendar)], history: [Self.rangWednesday])
        #expect(d.controller.occurrence(of: "work") == Self.seven(2), "Friday, not Thanksgiving")
        let skipped = Self.events(d, "skipped")
        #expect(skipped.count == 1, "\(d.events)")
        for field in ["\"alarm\":\"work\"", "\"reason\":\"holiday\"", "\"holiday\":\"Thanksgiving Day (holidays-us.ics)\"",
                      "\"occurrence\":\"2026-11-26T07:00:00+00:00\""] {
            #expect(skipped.first?.contains(field) == true, "\(field): \(skipped)")
        }
        #expect(d.lines.lines.contains("'work' does not ring on Thu 26 Nov: Thanksgiving Day (holidays-us.ics)"), "\(d.lines.lines)")
        Self.reload(d)
        #expect(Self.events(d, "skipped").count == 1, "said once, not at every reload")

        d.advance(by: .seconds(8 * 3600 + 60))  // Thursday 07:01
        #expect(!d.runner.isRinging)
        Self.reload(d)
        #expect(try d.store.loadHistory()["work"]?.lastSkipped == Self.seven(1), "recorded as skipped once it passed")
        #expect(Self.events(d, "missed").isEmpty && Self.events(d, "ringing").isEmpty, "\(d.events)")
        d.advance(by: .seconds(86_400))  // Friday 07:01
        #expect(d.runner.isRinging)
    }

    @Test("a malformed calendar is said once, naming the alarm, the calendar and the line; the alarm is armed for the holiday and rings")
    func malformedCalendarStillRings() throws {
        let dir = try TestDirectory()
        let bad = try dir.write("holidays-bad.ics", Array(
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261126\r\nDURATION:PT0S\r\nSUMMARY:Thanksgiving Day\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8))
        let d = try Daemon(at: Self.wednesday, alarms: [Self.alarm(bad)], history: [Self.rangWednesday])
        #expect(d.controller.occurrence(of: "work") == Self.seven(1), "Thursday: a calendar it cannot read skips nothing")
        let said = d.lines.lines.filter { $0.contains("alarm 'work'") && $0.contains("'\(bad)'") }
        #expect(said.count == 1 && said.first?.contains("line 4") == true && said.first?.contains("meanwhile it rings on that calendar's days") == true,
                "\(d.lines.lines)")
        let problems = Self.events(d, "file_problem")
        #expect(problems.count == 1 && problems.first?.contains("holidays-bad.ics") == true
                && problems.first?.contains("alarm 'work'") == true && problems.first?.contains("line 4") == true, "\(d.events)")
        Self.reload(d)
        #expect(d.lines.lines.filter { $0.contains("'\(bad)'") }.count == 1, "said once, not at every reload")
        #expect(Self.events(d, "skipped").isEmpty)
        d.advance(by: .seconds(8 * 3600 + 1))
        #expect(d.runner.isRinging, "it rings on the holiday: \(d.lines.lines)")
    }

    @Test("skips pass one by one: each said once, recorded as it passes, and a reload after one passed never rings or misses it")
    func skipsRecordedAsTheyPass() throws {
        var record = Self.rangWednesday
        record.skips = [utcDay(Self.seven(1)), utcDay(Self.seven(2))]  // Thursday 26 and Friday 27
        // A late limit of 3 hours: an occurrence an hour past would ring at once if it were not skipped.
        let d = try Daemon(at: Self.wednesday, alarms: [Self.alarm(nil, options: ["late-limit": "3h"])], history: [record])
        #expect(d.controller.occurrence(of: "work") == Self.seven(3))
        let skipped = Self.events(d, "skipped")
        #expect(skipped.count == 2 && skipped.allSatisfy { $0.contains("\"reason\":\"skip\"") }, "\(skipped)")

        d.advance(by: .seconds(9 * 3600))  // Thursday 08:00: Thursday's skip has passed, Friday's is ahead
        Self.reload(d)  // as a change of the files brings (another alarm's record, a wake list that wrote nothing)
        let after = try #require(try d.store.loadHistory()["work"])
        #expect(after.skips == [utcDay(Self.seven(1)), utcDay(Self.seven(2))], "the passed skip kept through its day, the one ahead kept")
        #expect(after.lastSkipped == Self.seven(1), "the passed skip recorded, so no plan looks at it again: \(after)")
        Self.reload(d)  // the reload the daemon's own write brings
        #expect(!d.runner.isRinging, "Thursday's skipped 07:00 rang an hour late: \(d.events)")
        #expect(Self.events(d, "missed").isEmpty, "\(d.events)")
        #expect(d.controller.occurrence(of: "work") == Self.seven(3))
        #expect(Self.events(d, "skipped").count == 2)
    }

    @Test("""
        a calendar covering every day: the recurring alarm stays in alarms.toml, unarmed, said once; \
        it is armed again when the calendar leaves a day
        """)
    func calendarCoveringEveryDayKeepsTheAlarm() throws {
        let dir = try TestDirectory()
        let always = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20260101\r\nDURATION:P366D\r\nRRULE:FREQ=YEARLY\r\n"
            + "SUMMARY:Always\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let calendar = try dir.write("always.ics", Array(always.utf8))
        let d = try Daemon(at: Self.wednesday, alarms: [Self.alarm(calendar)], history: [Self.rangWednesday])
        #expect(d.controller.occurrence(of: "work") == nil, "nothing to arm")
        #expect(try d.store.load().map(\.name) == ["work"], "a recurring alarm is never done: it stays in alarms.toml")
        let said = d.lines.lines.filter { $0.contains("'work' rings on no day") }
        #expect(said.count == 1 && said.first?.contains("every day until") == true
                && said.first?.contains("is a holiday in '\(calendar)'") == true
                && said.first?.contains("stays in alarms.toml") == true, "\(d.lines.lines)")
        #expect(!d.lines.lines.contains { $0.contains("does not ring on") }, "not 64 lines, one a day: \(d.lines.lines)")
        Self.reload(d)
        d.advance(by: .seconds(2 * 86_400))
        Self.reload(d)
        #expect(try d.store.load().map(\.name) == ["work"])
        #expect(d.lines.lines.filter { $0.contains("'work' rings on no day") }.count == 1, "said once, not at every reload")
        #expect(Self.events(d, "file_problem").filter { $0.contains("rings on no day") }.count == 1, "\(d.events)")

        // The calendar corrected: the alarm is armed again, on the next day, without being added again.
        _ = try dir.write("always.ics", Array(SkipActionsTests.holidays.utf8))
        Self.reload(d)
        #expect(d.controller.occurrence(of: "work") == Self.seven(3), "Saturday 28 November 07:00: \(d.lines.lines)")
    }
}
