import Testing
import WakeCore

/// `wake pause --until DATE`: occurrences inside a pause pass quietly, neither rung nor missed.
@Suite("Pause")
struct PauseTests {
    typealias S = StandingScheduleTests

    func record(pausedUntil: Instant?) -> AlarmRecord {
        var r = AlarmRecord(name: "work")
        r.pausedUntil = pausedUntil
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

    @Test("a one-off inside the pause is done; one after it still rings")
    func oneOff() {
        let inside = StandingSchedule.plan(S.alarm(days: .none), record: record(pausedUntil: S.at(2, 0)), lateLimit: .zero,
                                           now: S.at(0, 1), zone: S.utc)
        #expect(inside.isDone && inside.missed.isEmpty)
        let after = StandingSchedule.plan(S.alarm(days: .none), record: record(pausedUntil: S.at(0, 6)), lateLimit: .zero,
                                          now: S.at(0, 1), zone: S.utc)
        #expect(after.next?.instant == S.at(0, 6, 30))
    }

    @Test("kept in the history file as paused_until, read back exactly")
    func history() throws {
        var r = record(pausedUntil: utc(2026, 12, 6, 23))
        r.lastFired = utc(2026, 11, 24, 5, 30)
        let text = AlarmHistory.serialize(["work": r])
        #expect(text.contains("paused_until = \"2026-12-06T23:00:00Z\"\n"))
        #expect(try AlarmHistory.parse(text) == ["work": r])
        #expect(AlarmHistory.header.contains("paused_until"))
        #expect(!record(pausedUntil: S.at(0, 0)).isEmpty)
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
