import Testing
import WakeCore

/// The daemon's decisions for one standing alarm, from its history and "now" alone.
@Suite("Standing schedule")
struct StandingScheduleTests {
    static let utc = TimeZoneRules.utc
    /// Monday 2026-11-23 00:00 UTC.
    static let monday = Instant(seconds: 1_795_392_000)
    static func at(_ day: Int, _ h: Int, _ m: Int = 0, _ s: Int = 0) -> Instant {
        monday + .seconds(Int64(day * 86_400 + h * 3600 + m * 60 + s))
    }

    static func alarm(days: DaySet = .weekdays, created: Instant = at(0, 0), date: CivilDate? = nil) -> StandingAlarm {
        StandingAlarm(name: "work", hour: 6, minute: 30, second: 0, days: days.bits, date: date, options: [:], created: created)
    }

    @Test("the next occurrence after creation, then after each recorded firing; weekends passed over")
    func walksTheWeek() {
        let a = Self.alarm()
        var record = AlarmRecord(name: "work")
        var seen: [Instant] = []
        for _ in 0..<6 {
            let plan = StandingSchedule.plan(a, record: record, lateLimit: .seconds(1800), now: seen.last ?? Self.at(0, 0), zone: Self.utc)
            guard let next = plan.next else { Issue.record("no next"); return }
            seen.append(next.instant)
            record.lastFired = next.instant  // rung: recorded before ringing
        }
        #expect(seen == [Self.at(0, 6, 30), Self.at(1, 6, 30), Self.at(2, 6, 30), Self.at(3, 6, 30), Self.at(4, 6, 30), Self.at(7, 6, 30)])
    }

    @Test("recorded as fired: a restart at any moment never plans that occurrence again")
    func neverTwice() {
        var record = AlarmRecord(name: "work")
        record.lastFired = Self.at(0, 6, 30)
        for now in [Self.at(0, 6, 30), Self.at(0, 6, 31), Self.at(0, 7, 0), Self.at(0, 23, 0)] {
            let plan = StandingSchedule.plan(Self.alarm(), record: record, lateLimit: .zero, now: now, zone: Self.utc)
            #expect(plan.next?.instant == Self.at(1, 6, 30))
            #expect(plan.missed.isEmpty)
        }
    }

    @Test("passed while nothing ran: within the late limit it rings at once, beyond it is missed")
    func lateOrMissed() {
        let a = Self.alarm()
        let record = AlarmRecord(name: "work")
        let within = StandingSchedule.plan(a, record: record, lateLimit: .seconds(1800), now: Self.at(0, 6, 50), zone: Self.utc)
        #expect(within.next?.instant == Self.at(0, 6, 30) && within.missed.isEmpty)
        let beyond = StandingSchedule.plan(a, record: record, lateLimit: .seconds(1800), now: Self.at(0, 7, 30), zone: Self.utc)
        #expect(beyond.next?.instant == Self.at(1, 6, 30) && beyond.missed == [Self.at(0, 6, 30)])
        // No limit: the latest passed occurrence rings however late; earlier ones are missed.
        let noLimit = StandingSchedule.plan(a, record: record, lateLimit: .zero, now: Self.at(2, 12, 0), zone: Self.utc)
        #expect(noLimit.next?.instant == Self.at(2, 6, 30))
        #expect(noLimit.missed == [Self.at(0, 6, 30), Self.at(1, 6, 30)])
    }

    @Test("a week away lists only the last few missed; years away does not walk every day")
    func longAbsence() {
        let plan = StandingSchedule.plan(Self.alarm(days: .daily), record: AlarmRecord(name: "work"), lateLimit: .seconds(60),
                                         now: Self.at(3000, 12, 0), zone: Self.utc)
        #expect(plan.next?.instant == Self.at(3001, 6, 30))
        #expect(plan.missed.count == StandingSchedule.missedKept && plan.missed.last == Self.at(3000, 6, 30))
    }

    @Test("skip passes over exactly one occurrence, ahead or passed")
    func skipOne() {
        var record = AlarmRecord(name: "work")
        record.skips = [utcDay(Self.at(0, 6, 30))]
        let ahead = StandingSchedule.plan(Self.alarm(), record: record, lateLimit: .seconds(1800), now: Self.at(0, 1, 0), zone: Self.utc)
        #expect(ahead.next?.instant == Self.at(1, 6, 30) && ahead.skipped == Self.at(0, 6, 30))
        let passed = StandingSchedule.plan(Self.alarm(), record: record, lateLimit: .seconds(1800), now: Self.at(0, 6, 40), zone: Self.utc)
        #expect(passed.next?.instant == Self.at(1, 6, 30) && passed.missed.isEmpty)
    }

    @Test("a one-off: its occurrence once, then done; a dated one on its date; a skipped one is kept until its time")
    func oneOffs() {
        let once = Self.alarm(days: .none)
        var record = AlarmRecord(name: "work")
        #expect(StandingSchedule.plan(once, record: record, lateLimit: .zero, now: Self.at(0, 1), zone: Self.utc).next?.instant == Self.at(0, 6, 30))
        record.lastFired = Self.at(0, 6, 30)
        #expect(StandingSchedule.plan(once, record: record, lateLimit: .zero, now: Self.at(0, 7), zone: Self.utc).isDone)
        let dated = Self.alarm(days: .none, date: CivilDate(year: 2026, month: 11, day: 26))
        #expect(StandingSchedule.plan(dated, record: AlarmRecord(name: "work"), lateLimit: .zero, now: Self.at(0, 1), zone: Self.utc).next?.instant
                == Self.at(3, 6, 30))
        var skipped = AlarmRecord(name: "work")
        skipped.skips = [utcDay(Self.at(3, 6, 30))]
        // Skipped ahead: nothing armed, but kept until its time, so `wake skip --undo` can bring it back.
        let ahead = StandingSchedule.plan(dated, record: skipped, lateLimit: .zero, now: Self.at(0, 1), zone: Self.utc)
        #expect(ahead.next == nil && ahead.skipped == Self.at(3, 6, 30) && ahead.keptUntil == Self.at(3, 6, 30) && !ahead.isDone)
        // As the daemon records it (skip consumed into lastSkipped): still kept until then, then done.
        var recorded = AlarmRecord(name: "work")
        recorded.lastSkipped = Self.at(3, 6, 30)
        #expect(StandingSchedule.plan(dated, record: recorded, lateLimit: .zero, now: Self.at(3, 6), zone: Self.utc).keptUntil == Self.at(3, 6, 30))
        #expect(StandingSchedule.plan(dated, record: recorded, lateLimit: .zero, now: Self.at(3, 6, 30), zone: Self.utc).isDone)
        #expect(StandingSchedule.plan(dated, record: skipped, lateLimit: .zero, now: Self.at(3, 7), zone: Self.utc).isDone)
        // Undone (both cleared): it rings.
        #expect(StandingSchedule.plan(dated, record: AlarmRecord(name: "work"), lateLimit: .zero, now: Self.at(0, 1), zone: Self.utc)
            .next?.instant == Self.at(3, 6, 30))
        // Missed beyond its limit: done, and said.
        let missed = StandingSchedule.plan(once, record: AlarmRecord(name: "work"), lateLimit: .seconds(60), now: Self.at(0, 8), zone: Self.utc)
        #expect(missed.isDone && missed.missed == [Self.at(0, 6, 30)])
    }
}
