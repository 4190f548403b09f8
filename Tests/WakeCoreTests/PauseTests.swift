import Testing
import WakeCore

/// `wake pause --until DATE`: occurrences inside a pause pass quietly, neither rung nor missed.
@Suite("Pause")
struct PauseTests {
    typealias S = StandingScheduleTests

    func record(pausedUntil: Instant?) -> AlarmRecord {
        var r = AlarmRecord(name: "work")
        r.pauses = pausedUntil.map { [Pause(until: $0)] } ?? []
        return r
    }

    @Test("a pause passes over every occurrence before its end; the first one after it rings")
    func passesOver() {
        // Paused from Monday to Thursday 00:00: Mon, Tue and Wed stay quiet.
        let plan = StandingSchedule.plan(S.alarm(), record: record(pausedUntil: S.at(3, 0)), lateLimit: .seconds(1800),
                                         now: S.at(0, 1), zone: S.utc)
        #expect(plan.next?.instant == S.at(3, 6, 30))
        #expect(plan.missed.isEmpty && plan.skipped == nil)
    }

    @Test("occurrences that passed during a pause are not missed, whenever the daemon looks")
    func notMissed() {
        for now in [S.at(1, 12), S.at(2, 23), S.at(3, 6, 40)] {
            let plan = StandingSchedule.plan(S.alarm(), record: record(pausedUntil: S.at(3, 0)), lateLimit: .seconds(1800),
                                             now: now, zone: S.utc)
            #expect(plan.missed.isEmpty, "at \(now)")
            #expect(plan.next?.instant == S.at(3, 6, 30), "at \(now): Thursday's rings (late, within the limit, at 06:40)")
        }
    }

    @Test("resumed (the pause ends now): what passed stays quiet, the next one rings")
    func resumed() {
        let resumedAt = S.at(1, 12)
        let plan = StandingSchedule.plan(S.alarm(), record: record(pausedUntil: resumedAt), lateLimit: .zero, now: resumedAt, zone: S.utc)
        #expect(plan.next?.instant == S.at(2, 6, 30) && plan.missed.isEmpty)
        // An occurrence a minute before the resume, within any late limit, was paused: quiet.
        let justBefore = StandingSchedule.plan(S.alarm(), record: record(pausedUntil: S.at(1, 6, 31)), lateLimit: .zero,
                                               now: S.at(1, 6, 31), zone: S.utc)
        #expect(justBefore.next?.instant == S.at(2, 6, 30))
    }

    @Test("a pause of years is one step, not a walk; a pause in the past changes nothing")
    func longAndPast() {
        let plan = StandingSchedule.plan(S.alarm(days: .daily), record: record(pausedUntil: S.at(20_000, 0)), lateLimit: .seconds(60),
                                         now: S.at(0, 1), zone: S.utc)
        #expect(plan.next?.instant == S.at(20_000, 6, 30))
        let past = StandingSchedule.plan(S.alarm(), record: record(pausedUntil: S.at(0, 0)), lateLimit: .seconds(60),
                                         now: S.at(0, 1), zone: S.utc)
        #expect(past.next?.instant == S.at(0, 6, 30))
    }

    @Test("a one-off inside the pause is kept, not done, until the pause ends; then passed over as skipped; one after it still rings")
    func oneOff() {
        let once = S.alarm(days: .none)  // Monday 06:30
        let paused = record(pausedUntil: S.at(2, 0))
        // Before its time and after it, while the pause lasts: nothing armed, nothing recorded, kept.
        for now in [S.at(0, 1), S.at(0, 6, 30), S.at(1, 12), S.at(1, 23, 59, 59)] {
            let plan = StandingSchedule.plan(once, record: paused, lateLimit: .seconds(60), now: now, zone: S.utc)
            #expect(plan.next == nil && plan.keptUntil == S.at(2, 0) && !plan.isDone, "at \(now)")
            #expect(plan.missed.isEmpty && plan.skipped == nil, "at \(now)")
        }
        // The pause over: done, its occurrence passed over as a skip (recorded: a restored file does not bring it back).
        let ended = StandingSchedule.plan(once, record: paused, lateLimit: .zero, now: S.at(2, 0), zone: S.utc)
        #expect(ended.isDone && ended.skipped == S.at(0, 6, 30) && ended.missed.isEmpty)
        // Resumed before its time (the pause ends then): it rings.
        let resumed = StandingSchedule.plan(once, record: record(pausedUntil: S.at(0, 2)), lateLimit: .zero, now: S.at(0, 2), zone: S.utc)
        #expect(resumed.next?.instant == S.at(0, 6, 30) && resumed.keptUntil == nil)
        // Resumed after it: it passed inside the pause, so it is done.
        let late = StandingSchedule.plan(once, record: record(pausedUntil: S.at(0, 8)), lateLimit: .zero, now: S.at(0, 8), zone: S.utc)
        #expect(late.isDone && late.skipped == S.at(0, 6, 30))
        let after = StandingSchedule.plan(once, record: record(pausedUntil: S.at(0, 6)), lateLimit: .zero, now: S.at(0, 1), zone: S.utc)
        #expect(after.next?.instant == S.at(0, 6, 30))
    }

    @Test("kept in the history file as pauses, read back exactly; the single pause an older wake wrote still read")
    func history() throws {
        var r = record(pausedUntil: utc(2026, 12, 6, 23))
        r.pauses.append(Pause(from: utc(2026, 12, 20, 23), until: utc(2027, 1, 3, 23)))
        r.lastFired = utc(2026, 11, 24, 5, 30)
        let text = AlarmHistory.serialize(["work": r])
        #expect(text.contains("pauses = [\"2026-12-06T23:00:00Z\", \"2026-12-20T23:00:00Z/2027-01-03T23:00:00Z\"]\n"), "\(text)")
        #expect(!text.contains("paused_"), "the old keys are not written")
        #expect(try AlarmHistory.parse(text) == ["work": r])
        #expect(AlarmHistory.header.contains("pauses = "))
        // An older wake's one pause, migrated on read; one whose start is not before its end is none.
        let old = try AlarmHistory.parse("[work]\npaused_from = \"2026-12-20T23:00:00Z\"\npaused_until = \"2027-01-03T23:00:00Z\"\n")
        #expect(old["work"]?.pauses == [Pause(from: utc(2026, 12, 20, 23), until: utc(2027, 1, 3, 23))])
        #expect(try AlarmHistory.parse("[work]\npaused_until = \"2026-12-06T23:00:00Z\"\n")["work"]?.pauses
                == [Pause(until: utc(2026, 12, 6, 23))])
        #expect(try AlarmHistory.parse("[work]\npaused_from = \"2027-01-03T23:00:00Z\"\n"
                                       + "paused_until = \"2026-12-06T23:00:00Z\"\n")["work"]?.pauses == [])
        // Refused with the line: not a pause, or a start after its end.
        for bad in ["[\"soon\"]", "[\"2027-01-03T23:00:00Z/2026-12-06T23:00:00Z\"]", "\"2026-12-06T23:00:00Z\""] {
            #expect(throws: AlarmBook.ParseError.self, "\(bad)") { try AlarmHistory.parse("[work]\npauses = \(bad)\n") }
        }
        #expect(!record(pausedUntil: S.at(0, 0)).isEmpty)
    }

    @Test("an end beyond what wake can represent, or more than a year ahead without --long, is refused with its line")
    func bounds() throws {
        let now = utc(2026, 11, 27, 12)
        func refusal(_ text: String, long: Bool = false) -> String? {
            do { _ = try PauseEnd.resolve(text, now: now, zone: S.utc, long: long); return nil } catch { return error.description }
        }
        // Was clamped to 2262-04-11 without a word.
        for far in ["9999-12-31", "2262-04-11", "2262-04-04T00:00", "3000-01-01"] {
            let why = try #require(refusal(far, long: true), "\(far)")
            #expect(why == "--until \(far) is later than wake can represent (the last date it takes is 2262-04-03); give an earlier date", "\(why)")
        }
        #expect(refusal("2262-04-03", long: true) == nil)
        #expect(try PauseEnd.resolve("2262-04-03", now: now, zone: S.utc, long: true) == utc(2262, 4, 3, 0))
        // A year, leap day included, is taken; a day more needs --long.
        #expect(try PauseEnd.resolve("2027-11-28", now: now, zone: S.utc, long: false) == utc(2027, 11, 28, 0))
        #expect(refusal("2027-11-28T12:00") == nil)
        #expect(refusal("2027-11-28T12:00:01") == "--until 2027-11-28T12:00:01 is 367 days away, more than a year; give an earlier date, or add --long to pause that long")
        #expect(refusal("2062-11-27")?.contains("add --long") == true)
        #expect(refusal("2062-11-27", long: true) == nil)
        #expect(refusal("2026-11-27T12:00") == "--until 2026-11-27T12:00 is not in the future; give a later date to pause until")
        #expect(refusal("1600-01-01", long: true)?.contains("not in the future") == true)
        #expect(refusal("soon\u{1B}[2J")?.hasPrefix("--until: invalid date 'soon\\x1b[2J'; give a local date") == true)
    }

    @Test("a daily alarm paused to the last date taken still has its next occurrence")
    func latestKeepsTheNext() throws {
        let until = try PauseEnd.resolve("2262-04-03", now: utc(2026, 11, 27, 12), zone: S.utc, long: true)
        var late = S.alarm(days: .daily)
        late.hour = 23
        late.minute = 59
        let plan = StandingSchedule.plan(late, record: record(pausedUntil: until), lateLimit: .zero, now: utc(2026, 11, 27, 12), zone: S.utc)
        #expect(plan.next?.instant == utc(2262, 4, 3, 23, 59))
    }

    @Test("DATE: a local date (its midnight) or a local date and time; anything else is nil")
    func dates() {
        #expect(PauseEnd.parse("2026-12-07") == LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 7), hour: 0, minute: 0, second: 0))
        #expect(PauseEnd.parse("2026-12-07T12:30") == LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 7), hour: 12, minute: 30, second: 0))
        #expect(PauseEnd.parse("2026-12-07T12:30:15")?.second == 15)
        for bad in ["", "tomorrow", "2026-02-30", "2026-12-07T25:00", "2026-12-07 12:00", "2026-12-07T", "07.12.2026"] {
            #expect(PauseEnd.parse(bad) == nil, "\(bad)")
        }
    }
}
