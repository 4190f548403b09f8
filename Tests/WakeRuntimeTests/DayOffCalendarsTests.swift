import Testing
import WakeCore
@testable import WakeRuntime
import WakeSystem
@testable import WakeTestSupport

/// An alarm's holiday calendars as files (issue 40): config.toml's relative names, the warning
/// for a calendar that runs out, and `wake doctor`'s files.calendars.
@Suite("Holiday calendars: the files")
struct DayOffCalendarsTests {
    static func calendar(_ dates: [String]) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
            + dates.map { "BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:\($0)\r\nSUMMARY:Day \($0)\r\nEND:VEVENT\r\n" }.joined()
            + "END:VCALENDAR\r\n"
    }

    static let weekday = StandingAlarm(name: "work", hour: 6, minute: 30, second: 0, days: StandingAlarm.weekdays, date: nil,
                                       options: [:], created: Instant(nanoseconds: 0))

    @Test("config.toml's skip-days: a relative name is read from the config file's directory; a one-off has none")
    func configRelative() {
        let config = ConfigDefaults(path: "/home/ann/.config/wake/config.toml",
                                    entries: [ConfigFile.Entry(key: "skip-days", value: "holidays-de-by.ics\n/abs/school.ics", line: 1)])
        #expect(DayOffCalendars.paths(for: Self.weekday, config: config)
                == "/home/ann/.config/wake/holidays-de-by.ics\n/abs/school.ics")
        var own = Self.weekday
        own.options["skip-days"] = "/mine.ics"
        #expect(DayOffCalendars.paths(for: own, config: config) == "/mine.ics", "the alarm's own wins")
        var once = Self.weekday
        once.days = 0
        #expect(DayOffCalendars.paths(for: once, config: config) == nil)
    }

    @Test("a calendar with no day beyond the next 60 is said to run out; one that reaches further is not")
    func runningOut() throws {
        let dir = try TestDirectory()
        let short = try dir.write("short.ics", Array(Self.calendar(["20261225"]).utf8))
        let long = try dir.write("long.ics", Array(Self.calendar(["20261225", "20270401"]).utf8))
        let today = CivilDate(year: 2026, month: 11, day: 28)
        let read = DayOffCalendars.read(short + "\n" + long, zone: .utc)
        #expect(read.problems.isEmpty && read.calendars.count == 2)
        let lines = read.runningOut(today: today)
        #expect(lines.count == 1 && lines[0].contains("short.ics") && lines[0].contains("no days after the next 60"), "\(lines)")
        #expect(read.dayOff(CivilDate(year: 2026, month: 12, day: 25)) == "Day 20261225 (short.ics)", "the first calendar names the day")
        // Four months on, the long one has run out too.
        #expect(read.runningOut(today: CivilDate(year: 2027, month: 3, day: 1)).count == 2)
    }

    /// 2026-11-28 00:00 UTC: when the doctor's calendar checks run.
    static let doctorNow = Instant(nanoseconds: 1_795_824_000 * 1_000_000_000)

    /// A store in `dir` holding the weekday alarm with `skipDays` as its calendar.
    static func store(in dir: TestDirectory, skipDays: String) throws -> AlarmStore {
        let store = AlarmStore(alarmsFile: dir.path + "/wake/alarms.toml", historyFile: dir.path + "/wake/history.toml")
        var alarm = weekday
        alarm.options["skip-days"] = skipDays
        try store.update { $0 = [alarm] }
        return store
    }

    /// `wake doctor`'s files.calendars for what `store` holds, read as `Doctor.findings` reads it (no config.toml, UTC).
    static func calendarFindings(_ store: AlarmStore, now: Instant) -> [DoctorFinding] {
        let alarms = store.loadTolerant(keepLastGood: false).alarms ?? []
        let config = ConfigDefaults()
        return Doctor.calendarFindings(alarms: alarms, daysOff: AlarmDaysOff(alarms, config: config, now: now, zone: .utc),
                                       history: store.loadHistoryTolerant().records, config: config)
    }

    @Test("wake doctor: files.calendars PASS when each calendar reads and reaches on, WARN naming the alarm and the line otherwise")
    func doctorFinding() throws {
        let dir = try TestDirectory()
        let good = try dir.write("good.ics", Array(Self.calendar(["20261225", "20270401", "20271225"]).utf8))
        let store = try Self.store(in: dir, skipDays: good)
        let now = Self.doctorNow
        let pass = Self.calendarFindings(store, now: now)
        #expect(pass.count == 1 && pass[0].status == .pass && pass[0].alarms == ["work"], "\(pass)")
        _ = try dir.write("good.ics", Array(Self.malformed.utf8))
        let warn = Self.calendarFindings(store, now: now)
        #expect(warn.count == 1 && warn[0].status == .warn && warn[0].found.contains("alarm 'work'") && warn[0].found.contains("line 3"),
                "\(warn)")
        try store.update { $0 = [Self.weekday] }
        #expect(Self.calendarFindings(store, now: now).isEmpty, "no calendar, no finding")
    }

    /// A date one digit short: line 3 is at fault.
    static let malformed = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:2026122\r\nEND:VEVENT\r\n"

    /// One all-day event of 366 days, every year: every day is a holiday (issue 49).
    static let always = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20260101\r\nDURATION:P366D\r\nRRULE:FREQ=YEARLY\r\n"
        + "SUMMARY:Always\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

    @Test("wake doctor: files.calendars FAIL naming the alarm and the file when its calendar leaves it no day to ring")
    func doctorFailsOnNoDay() throws {
        let dir = try TestDirectory()
        let always = try dir.write("always.ics", Array(Self.always.utf8))
        let store = try Self.store(in: dir, skipDays: always)
        let now = Self.doctorNow
        let found = Self.calendarFindings(store, now: now)
        #expect(found.count == 1 && found[0].status == .fail && found[0].alarms == ["work"], "\(found)")
        #expect(found.first?.found.hasPrefix("alarm 'work' rings on no day: every day until ") == true
                && found.first?.found.hasSuffix(" is a holiday in '\(always)'") == true, "\(found)")
        #expect(found.first?.fix?.contains("DTEND or RRULE") == true, "\(found)")
    }

    @Test("wake doctor: an alarm that rings on no day is FAIL, and another's broken calendar is still said, as WARN, beside it")
    func doctorFailDoesNotHideWarn() throws {
        let dir = try TestDirectory()
        let always = try dir.write("always.ics", Array(Self.always.utf8))
        let broken = try dir.write("broken.ics", Array(Self.malformed.utf8))
        let store = try Self.store(in: dir, skipDays: always)
        var school = Self.weekday
        school.name = "school"
        school.options["skip-days"] = broken
        try store.update { $0.append(school) }
        let found = Self.calendarFindings(store, now: Self.doctorNow)
        #expect(found.map(\.status) == [.fail, .warn], "\(found)")
        #expect(found.first?.alarms == ["work"] && found.last?.alarms == ["school", "work"], "\(found)")
        let warn = found.last?.found ?? ""
        #expect(warn.hasPrefix("alarm 'school' --skip-days: calendar '") && warn.contains("line 3"), "\(found)")
    }

    @Test("one reading of every alarm's calendars: each alarm's problem said once, in order; a one-off has none")
    func oneReading() throws {
        let dir = try TestDirectory()
        let broken = try dir.write("broken.ics", Array(Self.malformed.utf8))
        var a = Self.weekday, b = Self.weekday, once = Self.weekday
        a.options["skip-days"] = broken
        b.name = "b"
        b.options["skip-days"] = broken
        once.name = "once"
        once.days = 0
        once.options["skip-days"] = broken
        let read = AlarmDaysOff([a, b, once], config: ConfigDefaults(), now: Self.doctorNow, zone: .utc)
        #expect(read.names == ["work", "b"])
        #expect(read.problems.map(\.alarm) == ["work", "b"] && read.problems.allSatisfy { $0.kind == .unreadable }, "\(read.problems)")
        #expect(read.problems[0].line.hasPrefix("alarm 'work' --skip-days: calendar '"), "\(read.problems)")
        #expect(read["once"].calendars.isEmpty && read["once"].problems.isEmpty)
    }
}
