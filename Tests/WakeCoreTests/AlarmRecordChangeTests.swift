import Testing
@testable import WakeCore

/// `wake change`'s part of the record: a rename follows, a skip of a day no longer rung goes.
@Suite("AlarmRecord.changed: what an edit keeps")
struct AlarmRecordChangeTests {
    @Test("a rename moves the record; skips of days the alarm still rings on stay, the others are dropped and returned")
    func skipsAndRename() {
        let zone = TimeZoneRules.utc
        // Wednesday 2027-03-03 and Friday 2027-03-05, skipped from a weekday alarm.
        let (wed, fri) = (CivilDate(year: 2027, month: 3, day: 3), CivilDate(year: 2027, month: 3, day: 5))
        var record = AlarmRecord(name: "work")
        record.skips = [wed, fri]
        record.lastFired = Instant(seconds: 1_803_877_200)
        record.pauses = [Pause(from: Instant(seconds: 1_804_000_000), until: Instant(seconds: 1_804_100_000))]
        let changed = StandingAlarm(name: "early", hour: 6, minute: 45, second: 0, days: DaySet(bits: 0b0011110).bits, date: nil,
                                    options: [:], created: Instant(seconds: 1_803_877_200))
        let (r, dropped) = record.changed(to: changed, zone: zone)
        #expect(r.name == "early")
        #expect(r.skips == [wed] && dropped == [fri], "mon-thu no longer rings on Friday")
        #expect(r.lastFired == record.lastFired && r.pauses == record.pauses, "history and pauses stay")
        // Unchanged days: nothing dropped.
        let same = StandingAlarm(name: "work", hour: 7, minute: 0, second: 0, days: StandingAlarm.weekdays, date: nil, options: [:],
                                 created: Instant(seconds: 0))
        #expect(record.changed(to: same, zone: zone).dropped.isEmpty)
        #expect(wed.isoText == "2027-03-03")
    }

    @Test("a switched-off alarm plans nothing, misses nothing and is never done")
    func switchedOff() {
        let a = StandingAlarm(name: "once", hour: 6, minute: 30, second: 0, days: 0, date: nil, options: ["switch": "off"],
                              created: Instant(seconds: 1_803_877_200))
        #expect(a.isOff)
        let plan = StandingSchedule.plan(a, record: AlarmRecord(name: "once"), lateLimit: .seconds(600),
                                         now: Instant(seconds: 1_803_877_200 + 86_400 * 3), zone: .utc)
        #expect(plan.next == nil && plan.missed.isEmpty && !plan.isDone && plan.switchedOff)
    }
}
