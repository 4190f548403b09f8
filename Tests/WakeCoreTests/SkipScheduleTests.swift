import Testing
import WakeCore

/// Issue 40's skips, pauses planned ahead and holiday calendars in the pure schedule: what
/// `StandingSchedule.plan` passes over, and why, for a weekday alarm walked day by day as the
/// daemon walks it; the phrases `wake list` and `wake next` say; and the files that keep it all.
@Suite("Skips, pauses and holidays in the schedule")
struct SkipScheduleTests {
    static let zone = TimeZoneRules.utc
    /// Monday 2026-11-23 00:00 UTC.
    static let monday = utc(2026, 11, 23)
    static func at(_ day: Int, _ h: Int = 6, _ m: Int = 30) -> Instant {
        monday + .seconds(Int64(day * 86_400 + h * 3600 + m * 60))
    }

    static func weekdays(created: Instant = monday) -> StandingAlarm {
        StandingAlarm(name: "work", hour: 6, minute: 30, second: 0, days: DaySet.weekdays.bits, date: nil, options: [:], created: created)
    }

    static func calendar(_ events: String) throws -> HolidayCalendar {
        try HolidayCalendar.parse("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + events + "END:VCALENDAR\r\n", zone: zone)
    }

    /// As `DayOffCalendars.dayOff` names a day: the holiday and its calendar's file name.
    static func dayOff(_ c: HolidayCalendar, file: String = "h.ics") -> (CivilDate) -> String? {
        { d in c.event(on: d).map { "\($0.summary) (\(file))" } }
    }

    /// The occurrences that ring, walked as the daemon does: each rung (recorded as fired),
    /// then the next planned from the moment it rang.
    static func rung(_ a: StandingAlarm, record start: AlarmRecord = AlarmRecord(name: "work"), until end: Instant,
                     dayOff: @escaping (CivilDate) -> String? = { _ in nil }) -> [Instant] {
        var record = start
        var now = a.created
        var out: [Instant] = []
        while let next = StandingSchedule.plan(a, record: record, lateLimit: .seconds(1800), now: now, zone: zone, dayOff: dayOff).next,
              next.instant < end {
            out.append(next.instant)
            record.lastFired = next.instant
            now = next.instant
        }
        return out
    }

    /// An all-day event with DTEND (Wed 25 and Thu 26), one with DURATION (Mon 30 Nov), a
    /// yearly rule (3 December, a Thursday in 2026), a yearly rule with this year's EXDATE
    /// (4 December: it rings), and a Saturday (the alarm does not ring then anyway).
    static let fourKinds = """
        BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261125\r\nDTEND;VALUE=DATE:20261127\r\nSUMMARY:Two days off\r\nEND:VEVENT\r
        BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261130\r\nDURATION:P1D\r\nSUMMARY:St Andrew's Day\r\nEND:VEVENT\r
        BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20201203\r\nRRULE:FREQ=YEARLY\r\nSUMMARY:Founders' Day\r\nEND:VEVENT\r
        BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20201204\r\nRRULE:FREQ=YEARLY\r\nEXDATE;VALUE=DATE:20261204\r\nSUMMARY:Moved Day\r\nEND:VEVENT\r
        BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261128\r\nSUMMARY:A Saturday\r\nEND:VEVENT\r

        """

    @Test("DTEND, DURATION, a yearly rule and an EXDATE skip exactly their days of a weekday alarm, each with its name")
    func calendarDaysOfAWeekdayAlarm() throws {
        let c = try Self.calendar(Self.fourKinds)
        let rang = Self.rung(Self.weekdays(), until: Self.at(15), dayOff: Self.dayOff(c))
        // Mon 23, Tue 24; Wed 25, Thu 26 off; Fri 27; Mon 30 off; Tue 1, Wed 2; Thu 3 off; Fri 4 (the EXDATE); Mon 7 ...
        #expect(rang == [0, 1, 4, 8, 9, 11, 14].map { Self.at($0) })
        // Without the calendar every weekday rings: the calendar took exactly those four.
        let plain = Self.rung(Self.weekdays(), until: Self.at(15))
        #expect(Set(plain).subtracting(rang) == Set([2, 3, 7, 10].map { Self.at($0) }))
        // The EXDATE is this year's only: next year's 4 December (a Saturday in 2027) is off again.
        #expect(c.event(on: CivilDate(year: 2027, month: 12, day: 4))?.summary == "Moved Day")
        #expect(c.event(on: CivilDate(year: 2026, month: 12, day: 4)) == nil)

        // Each day passed over says which holiday of which calendar.
        var record = AlarmRecord(name: "work")
        record.lastFired = Self.at(1)
        let plan = StandingSchedule.plan(Self.weekdays(), record: record, lateLimit: .zero, now: Self.at(1, 7), zone: Self.zone,
                                         dayOff: Self.dayOff(c))
        #expect(plan.next?.instant == Self.at(4))
        #expect(plan.passedOver == [StandingSchedule.PassedOver(instant: Self.at(2), reason: .dayOff("Two days off (h.ics)")),
                                    StandingSchedule.PassedOver(instant: Self.at(3), reason: .dayOff("Two days off (h.ics)"))])
        #expect(plan.missed.isEmpty && plan.skipped == Self.at(3))
    }

    @Test("a one-off names its own moment: it rings on a holiday")
    func aOneOffRingsOnAHoliday() throws {
        let c = try Self.calendar(Self.fourKinds)
        let once = StandingAlarm(name: "dentist", hour: 6, minute: 30, second: 0, days: 0, date: CivilDate(year: 2026, month: 11, day: 25),
                                 options: [:], created: Self.monday)
        let plan = StandingSchedule.plan(once, record: AlarmRecord(name: "dentist"), lateLimit: .zero, now: Self.at(1, 12), zone: Self.zone,
                                         dayOff: Self.dayOff(c))
        #expect(plan.next?.instant == Self.at(2) && plan.passedOver.isEmpty)
        // An undated one-off (days 0) on a holiday's morning rings too.
        let tomorrow = StandingAlarm(name: "once", hour: 6, minute: 30, second: 0, days: 0, date: nil, options: [:], created: Self.at(1, 12))
        #expect(StandingSchedule.plan(tomorrow, record: AlarmRecord(name: "once"), lateLimit: .zero, now: Self.at(1, 12), zone: Self.zone,
                                      dayOff: Self.dayOff(c)).next?.instant == Self.at(2))
    }

    @Test("several skips pass over exactly those occurrences, each saying it was asked for")
    func severalSkips() throws {
        var record = AlarmRecord(name: "work")
        record.skips = [1, 3, 8].map { utcDay(Self.at($0)) }  // Tue 24, Thu 26, Tue 1 Dec
        let rang = Self.rung(Self.weekdays(), record: record, until: Self.at(11))
        #expect(rang == [0, 2, 4, 7, 9, 10].map { Self.at($0) })

        record.lastFired = Self.at(0)
        let plan = StandingSchedule.plan(Self.weekdays(), record: record, lateLimit: .zero, now: Self.at(0, 12), zone: Self.zone)
        #expect(plan.next?.instant == Self.at(2))
        #expect(plan.passedOver == [StandingSchedule.PassedOver(instant: Self.at(1), reason: .requested)])
        #expect(plan.skipped == Self.at(1))
        // A skip and a holiday in a row: the holiday is passed over as such, the skip as asked.
        let c = try Self.calendar("BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261125\r\nSUMMARY:Holiday\r\nEND:VEVENT\r\n")
        let both = StandingSchedule.plan(Self.weekdays(), record: record, lateLimit: .zero, now: Self.at(0, 12), zone: Self.zone,
                                         dayOff: Self.dayOff(c))
        #expect(both.next?.instant == Self.at(4))
        #expect(both.passedOver.map(\.reason) == [.requested, .dayOff("Holiday (h.ics)"), .requested])
    }

    @Test("what the history records as skipped is the latest passed over by now, while a later skip or holiday lies ahead")
    func skippedPassedWithMoreAhead() throws {
        let c = try Self.calendar("BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261126\r\nSUMMARY:Holiday\r\nEND:VEVENT\r\n")
        var record = AlarmRecord(name: "work")
        record.lastFired = Self.at(0)
        record.skips = [1, 2].map { utcDay(Self.at($0)) }  // Tue 24 (passed at Tue 08:00) and Wed 25; Thu 26 a holiday
        let plan = StandingSchedule.plan(Self.weekdays(), record: record, lateLimit: .seconds(3 * 3600), now: Self.at(1, 8), zone: Self.zone,
                                         dayOff: Self.dayOff(c))
        #expect(plan.next?.instant == Self.at(4))
        #expect(plan.skipped == Self.at(3) && plan.skippedPassed == Self.at(1))
        // Recorded so, and the passed skip pruned, the next plan never looks at Tuesday again.
        record.lastSkipped = plan.skippedPassed
        record.skips = [utcDay(Self.at(2))]
        let again = StandingSchedule.plan(Self.weekdays(), record: record, lateLimit: .seconds(3 * 3600), now: Self.at(1, 8), zone: Self.zone,
                                          dayOff: Self.dayOff(c))
        #expect(again.next?.instant == Self.at(4) && again.missed.isEmpty)
        // Nothing passed yet: nothing to record.
        #expect(StandingSchedule.plan(Self.weekdays(), record: record, lateLimit: .zero, now: Self.at(0, 8), zone: Self.zone,
                                      dayOff: Self.dayOff(c)).skippedPassed == nil)
    }

    @Test("a pause from one date until another is quiet only inside it: before --from rings, from --until on rings")
    func pauseFromUntil() {
        var record = AlarmRecord(name: "work")
        record.pauses = [Pause(from: Self.at(2, 0, 0), until: Self.at(4, 0, 0))]  // Wed 25 00:00 to Fri 27 00:00
        #expect(!record.isPaused(Self.at(2, 0, 0) - .nanoseconds(1)) && record.isPaused(Self.at(2, 0, 0)))
        #expect(record.isPaused(Self.at(4, 0, 0) - .nanoseconds(1)) && !record.isPaused(Self.at(4, 0, 0)))
        #expect(Self.rung(Self.weekdays(), record: record, until: Self.at(8)) == [0, 1, 4, 7].map { Self.at($0) })

        // Planned the evening before it begins: the next is after it, the pause said once with its end.
        record.lastFired = Self.at(1)
        let plan = StandingSchedule.plan(Self.weekdays(), record: record, lateLimit: .seconds(1800), now: Self.at(1, 23), zone: Self.zone)
        #expect(plan.next?.instant == Self.at(4))
        #expect(plan.passedOver == [StandingSchedule.PassedOver(instant: Self.at(2), reason: .paused(until: Self.at(4, 0, 0)))])
        // A daemon down through the pause: what it kept quiet is not missed.
        let back = StandingSchedule.plan(Self.weekdays(), record: record, lateLimit: .seconds(1800), now: Self.at(4, 1), zone: Self.zone)
        #expect(back.next?.instant == Self.at(4) && back.missed.isEmpty)
        // Before it begins, the pause changes nothing: Tue still rings.
        record.lastFired = Self.at(0)
        #expect(StandingSchedule.plan(Self.weekdays(), record: record, lateLimit: .zero, now: Self.at(0, 12), zone: Self.zone).next?.instant
                == Self.at(1))
        // Without --from, the same pause is on from now.
        record.pauses[0].from = nil
        #expect(StandingSchedule.plan(Self.weekdays(), record: record, lateLimit: .zero, now: Self.at(0, 12), zone: Self.zone).next?.instant
                == Self.at(4))
    }

    @Test("a holiday that passed while no daemon ran is passed over, not missed; without the calendar it would be missed")
    func aPastHolidayIsNotMissed() throws {
        let c = try Self.calendar("BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261125\r\nSUMMARY:Holiday\r\nEND:VEVENT\r\n")
        var record = AlarmRecord(name: "work")
        record.lastFired = Self.at(1)
        let now = Self.at(2, 12)  // Wed noon, hours past its 06:30 and its 30-minute late limit
        let plan = StandingSchedule.plan(Self.weekdays(), record: record, lateLimit: .seconds(1800), now: now, zone: Self.zone,
                                         dayOff: Self.dayOff(c))
        #expect(plan.missed.isEmpty && plan.next?.instant == Self.at(3) && plan.skipped == Self.at(2))
        #expect(plan.ahead(of: now).isEmpty, "a day off that has passed is not explained as ahead")
        // Within the late limit too: a holiday passed is never rung late.
        let soon = StandingSchedule.plan(Self.weekdays(), record: record, lateLimit: .seconds(1800), now: Self.at(2, 6, 40), zone: Self.zone,
                                         dayOff: Self.dayOff(c))
        #expect(soon.next?.instant == Self.at(3) && soon.missed.isEmpty)
        let without = StandingSchedule.plan(Self.weekdays(), record: record, lateLimit: .seconds(1800), now: now, zone: Self.zone)
        #expect(without.missed == [Self.at(2)])
    }

    @Test("the phrases: each holiday with its calendar, the first skip with how many more, the pause's end; none for what passed")
    func reasonPhrases() throws {
        let c = try Self.calendar(Self.fourKinds)
        var record = AlarmRecord(name: "work")
        record.lastFired = Self.at(4)                                     // Fri 27 rang
        record.skips = [8, 9, 11, 14].map { utcDay(Self.at($0)) }  // Tue 1, Wed 2, Fri 4, Mon 7 Dec
        let now = Self.at(6, 12)                                          // Sun 29 noon
        let plan = StandingSchedule.plan(Self.weekdays(), record: record, lateLimit: .zero, now: now, zone: Self.zone, dayOff: Self.dayOff(c))
        #expect(plan.next?.instant == Self.at(15))  // Tue 8 Dec
        let phrases = StandingSchedule.reasons(plan.ahead(of: now), skipsAhead: 4, now: now, zone: Self.zone)
        #expect(phrases == ["Mon 30 Nov skipped: St Andrew's Day (h.ics)", "Tue 1 Dec skipped (3 more)", "Thu 3 Dec skipped: Founders' Day (h.ics)"])
        #expect(plan.ahead(of: now).map { StandingSchedule.kind($0.reason) } == ["holiday", "skip", "skip", "holiday", "skip", "skip"])

        // A pause ahead; a single skip says no count; another year's date says its year.
        let pause = StandingSchedule.PassedOver(instant: Self.at(8), reason: .paused(until: Self.at(14, 0, 0)))
        #expect(StandingSchedule.reasons([pause], skipsAhead: 0, now: now, zone: Self.zone) == ["paused until Mon 7 Dec 00:00"])
        let newYear = utc(2027, 1, 1, 6, 30)
        #expect(StandingSchedule.reasons([StandingSchedule.PassedOver(instant: newYear, reason: .requested)], skipsAhead: 1, now: now,
                                         zone: Self.zone) == ["Fri 1 Jan 2027 skipped"])
        // What has passed is not said.
        let past = StandingSchedule.PassedOver(instant: Self.at(5), reason: .dayOff("Gone (h.ics)"))
        #expect(StandingSchedule.reasons([past], skipsAhead: 0, now: now, zone: Self.zone).isEmpty)
    }

    @Test("a yearly event of 366 days covers every day: a recurring alarm has no day to ring and is not done; a one-off still is")
    func calendarCoveringEveryDay() throws {
        // 2026-01-01 plus 366 days, every year: each day is inside one of them (issue 49).
        let c = try Self.calendar("BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20260101\r\nDURATION:P366D\r\nRRULE:FREQ=YEARLY\r\n"
                                  + "SUMMARY:Always\r\nEND:VEVENT\r\n")
        let now = Self.at(0, 1)
        let plan = StandingSchedule.plan(Self.weekdays(), record: AlarmRecord(name: "work"), lateLimit: .zero, now: now, zone: Self.zone,
                                         dayOff: Self.dayOff(c))
        #expect(plan.next == nil)
        #expect(!plan.isDone, "a recurring alarm is never done: the daemon would delete it from alarms.toml")
        // The walk's last occurrence: 4,096 weekdays, about 15 years of them.
        let until = try #require(plan.noDayUntil)
        #expect(until > utc(2042, 1, 1) && until < utc(2043, 1, 1), "\(until)")
        #expect(plan.passedOver.count == StandingSchedule.passedOverKept && plan.skippedPassed == nil)
        #expect(StandingSchedule.noDayPhrase(until: utc(2042, 9, 5, 6, 30), files: ["'h.ics'"], now: now, zone: Self.zone)
                == "every day until Fri 5 Sep 2042 is a holiday in 'h.ics'")

        // A one-off that has rung is done, calendar or not; one ahead on such a day rings (its own moment).
        let once = StandingAlarm(name: "once", hour: 6, minute: 30, second: 0, days: 0, date: nil, options: [:], created: Self.monday)
        var rang = AlarmRecord(name: "once")
        rang.lastFired = Self.at(0)
        let done = StandingSchedule.plan(once, record: rang, lateLimit: .zero, now: Self.at(0, 7), zone: Self.zone, dayOff: Self.dayOff(c))
        #expect(done.isDone && done.noDayUntil == nil)
        #expect(StandingSchedule.plan(once, record: AlarmRecord(name: "once"), lateLimit: .zero, now: now, zone: Self.zone,
                                      dayOff: Self.dayOff(c)).next?.instant == Self.at(0))
    }

    @Test("one line says the first few reasons and a count of the rest; at least, when the plan kept only the first ones")
    func reasonsShortened() {
        let phrases = (1...64).map { "day \($0)" }
        #expect(StandingSchedule.shortened(phrases) == ["day 1", "day 2", "day 3", "and 61 more"])
        #expect(StandingSchedule.shortened(phrases, complete: false).last == "and at least 61 more")
        #expect(StandingSchedule.shortened(Array(phrases.prefix(4))) == Array(phrases.prefix(4)), "no count for one more")
        let next = NextAlarm(id: "work", standing: true, at: Self.at(70), skipped: phrases, skippedAll: false)
        #expect(next.line(now: Self.at(0, 1), zone: Self.zone, wait: false)
                == "06:30 Mon 1 Feb 2027 (work); day 1; day 2; day 3; and at least 61 more")
    }

    @Test("history: skips as local dates, the instants and single skip an older wake wrote still read and merged; read back equal")
    func historyRoundTrip() throws {
        var work = AlarmRecord(name: "work")
        work.skips = [CivilDate(year: 2026, month: 11, day: 25), CivilDate(year: 2026, month: 12, day: 1)]
        let text = AlarmHistory.serialize(["work": work])
        #expect(text.contains("\nskips = [\"2026-11-25\", \"2026-12-01\"]\n"), "\(text)")
        #expect(!text.contains("\nskip = "), "the old key is not written")
        #expect(try AlarmHistory.parse(text) == ["work": work])

        // What a wake before `skips` wrote, and one before dates: instants, kept as such until migrated.
        let legacy = try AlarmHistory.parse("[work]\nskip = \"2026-11-25T05:30:00Z\"\n")
        #expect(legacy["work"]?.legacySkips == [utc(2026, 11, 25, 5, 30)] && legacy["work"]?.skips == [])
        let both = try AlarmHistory.parse("[work]\nskips = [\"2026-12-01T05:30:00.000000007Z\", \"2026-11-25T05:30:00Z\"]\n"
                                          + "skip = \"2026-11-25T05:30:00Z\"\n")
        #expect(both["work"]?.legacySkips == [utc(2026, 11, 25, 5, 30), utc(2026, 12, 1, 5, 30, ns: 7)], "merged, in order, once each")
        #expect(AlarmHistory.serialize(legacy).contains("skips = [\"2026-11-25T05:30:00Z\"]"))
        #expect(try AlarmHistory.parse(AlarmHistory.serialize(both)) == both, "read back as they were, until migrated")
        // Migrated in the zone they were taken in: the local date of each occurrence.
        let berlin = try WakeCoreTests.zone("Europe/Berlin")
        let migrated = try #require(both["work"]).migratingSkips(zone: berlin)
        #expect(migrated.skips == [CivilDate(year: 2026, month: 11, day: 25), CivilDate(year: 2026, month: 12, day: 1)]
                && migrated.legacySkips.isEmpty)
        // Refused with the line: a skip that is not a time, skips not an array.
        #expect(historyError("[work]\nskips = [\"soon\"]\n")?.line == 2)
        #expect(historyError("[work]\nskips = \"2026-11-25T05:30:00Z\"\n")?.line == 2)
        #expect(historyError("[work]\npaused_from = \"monday\"\n")?.line == 2)
    }

    @Test("alarms.toml: skip-days with one file as a string, with two as an array; both read back equal")
    func alarmBookSkipDays() throws {
        let one = alarm("work", options: ["skip-days": "/home/me/holidays-de-by.ics"])
        let two = alarm("gym", days: StandingAlarm.weekdays, options: ["skip-days": "/home/me/holidays-de-by.ics\n/home/me/school.ics"])
        let text = AlarmBook.serialize([one, two])
        #expect(text.contains("\nskip-days = \"/home/me/holidays-de-by.ics\"\n"), "\(text)")
        #expect(text.contains("\nskip-days = [\"/home/me/holidays-de-by.ics\", \"/home/me/school.ics\"]\n"), "\(text)")
        let back = try AlarmBook.parse(text)
        #expect(back.sorted { $0.name < $1.name } == [two, one])
        #expect(AlarmOption.list(back.first { $0.name == "gym" }?.options["skip-days"] ?? "") == ["/home/me/holidays-de-by.ics", "/home/me/school.ics"])
        // By hand: a one-element array is one file; an empty one is refused with its line.
        func body(_ skipDays: String) -> String {
            "[alarms.x]\ntime = \"06:30:00\"\ndays = [\"mon\"]\nskip-days = \(skipDays)\ncreated = \"2026-11-23T03:00:00Z\"\n"
        }
        #expect(try AlarmBook.parse(body("[\"/a.ics\"]")).first?.options["skip-days"] == "/a.ics")
        #expect(bookError(body("[]"))?.line == 4)
    }
}
