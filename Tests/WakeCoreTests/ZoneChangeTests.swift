import Testing
import WakeCore

/// `ZoneChange`: an alarm set as a local reading keeps the reading when the machine's zone
/// changes; a span and an instant with its own offset keep their instant; a reading that has
/// passed in the new zone follows the late limit.
@Suite("What a change of time zone does to a waiting alarm")
struct ZoneChangeTests {
    let limit: Duration = .seconds(600)

    @Test("wake 07:00 set in UTC follows to 07:00 in the Azores, an hour later on the time line")
    func timeOfDayWest() throws {
        let azores = try zone("Atlantic/Azores")
        let now = utc(2026, 11, 24, 22)
        let armed = try Schedule.resolve(WakeSpec(parsing: "07:00"), now: now, zone: .utc)
        let d = ZoneChange.follow(.timeOfDay(hour: 7, minute: 0, second: 0), armed: armed, from: .utc, to: azores, now: now, lateLimit: limit)
        #expect(d == .move(Deadline(instant: utc(2026, 11, 25, 8), clock: .wall)))
        #expect(Formatting.iso8601(utc(2026, 11, 25, 8), zone: azores) == "2026-11-25T07:00:00-01:00")
    }

    @Test("wake 07:00 set in UTC follows to 07:00 in Kolkata, five and a half hours earlier")
    func timeOfDayEast() throws {
        let kolkata = try zone("Asia/Kolkata")
        let now = utc(2026, 11, 24, 22)
        let armed = try Schedule.resolve(.timeOfDay(hour: 7, minute: 0, second: 0), now: now, zone: .utc)
        let d = ZoneChange.follow(.timeOfDay(hour: 7, minute: 0, second: 0), armed: armed, from: .utc, to: kolkata, now: now, lateLimit: limit)
        #expect(d == .move(Deadline(instant: utc(2026, 11, 25, 1, 30), clock: .wall)))
    }

    @Test("the same local date is kept: flying west after setting tomorrow's alarm does not pull it to today")
    func keepsTheDate() throws {
        let azores = try zone("Atlantic/Azores")
        let now = utc(2026, 11, 24, 6, 30)  // 06:30 UTC: 06:00 is tomorrow's
        let armed = try Schedule.resolve(.timeOfDay(hour: 6, minute: 0, second: 0), now: now, zone: .utc)
        #expect(armed.instant == utc(2026, 11, 25, 6))
        let d = ZoneChange.follow(.timeOfDay(hour: 6, minute: 0, second: 0), armed: armed, from: .utc, to: azores, now: now, lateLimit: limit)
        #expect(d == .move(Deadline(instant: utc(2026, 11, 25, 7), clock: .wall)))
    }

    @Test("a span and a date with its own offset keep their instant; now keeps it too")
    func instantsKept() throws {
        let kolkata = try zone("Asia/Kolkata")
        let now = utc(2026, 11, 24, 22)
        for text in ["+8h", "2026-11-25T07:00+01:00", "2026-11-25T07:00Z", "now"] {
            let spec = try WakeSpec(parsing: text)
            let armed = try Schedule.resolve(spec, now: now, zone: .utc)
            #expect(ZoneChange.follow(spec, armed: armed, from: .utc, to: kolkata, now: now, lateLimit: limit) == .keep, "\(text)")
            #expect(!ZoneChange.follows(spec))
        }
    }

    @Test("a local date and time without an offset follows like a time of day")
    func dateTimeFollows() throws {
        let kolkata = try zone("Asia/Kolkata")
        let now = utc(2026, 11, 24, 22)
        let spec = try WakeSpec(parsing: "2026-11-26T07:00")
        let armed = try Schedule.resolve(spec, now: now, zone: .utc)
        let d = ZoneChange.follow(spec, armed: armed, from: .utc, to: kolkata, now: now, lateLimit: limit)
        #expect(d == .move(Deadline(instant: utc(2026, 11, 26, 1, 30), clock: .wall)))
    }

    @Test("travelling east past the alarm time: rung now within the late limit, missed beyond it, never dropped")
    func pastFollowsLateLimit() throws {
        let kolkata = try zone("Asia/Kolkata")
        let spec = WakeSpec.timeOfDay(hour: 7, minute: 0, second: 0)
        // Set at 06:00 UTC for 07:00 UTC; 07:00 in Kolkata was 01:30 UTC.
        let armed = try Schedule.resolve(spec, now: utc(2026, 11, 24, 6), zone: .utc)
        let justAfter = utc(2026, 11, 24, 1, 35)
        let within = ZoneChange.follow(spec, armed: try Schedule.resolve(spec, now: utc(2026, 11, 24, 0), zone: .utc),
                                       from: .utc, to: kolkata, now: justAfter, lateLimit: limit)
        #expect(within == .ringNow(Deadline(instant: utc(2026, 11, 24, 1, 30), clock: .wall), late: .seconds(300)))
        let later = utc(2026, 11, 24, 6, 30)
        let beyond = ZoneChange.follow(spec, armed: armed, from: .utc, to: kolkata, now: later, lateLimit: limit)
        #expect(beyond == .missed(Deadline(instant: utc(2026, 11, 24, 1, 30), clock: .wall), late: .seconds(5 * 3600)))
        #expect(beyond.deadline != nil)
        let noLimit = ZoneChange.follow(spec, armed: armed, from: .utc, to: kolkata, now: later, lateLimit: .zero)
        #expect(noLimit == .ringNow(Deadline(instant: utc(2026, 11, 24, 1, 30), clock: .wall), late: .seconds(5 * 3600)))
    }

    @Test("a reading in the new zone's spring-forward gap rings at the gap's end, and says what was asked")
    func gapInTheNewZone() throws {
        let newYork = try zone("America/New_York")
        // 2026-03-08: 02:00 EST jumps to 03:00 EDT (07:00 UTC).
        let spec = WakeSpec.timeOfDay(hour: 2, minute: 30, second: 0)
        let now = utc(2026, 3, 7, 12)
        let armed = try Schedule.resolve(spec, now: now, zone: .utc)  // 2026-03-08T02:30Z
        let d = ZoneChange.follow(spec, armed: armed, from: .utc, to: newYork, now: now, lateLimit: limit)
        #expect(d == .move(Deadline(instant: utc(2026, 3, 8, 7), clock: .wall, shiftedFrom: local(2026, 3, 8, 2, 30))))
        // And back: the reading asked for, not the shifted one, is what follows.
        let back = ZoneChange.follow(spec, armed: try #require(d.deadline), from: newYork, to: .utc, now: now, lateLimit: limit)
        #expect(back == .move(Deadline(instant: utc(2026, 3, 8, 2, 30), clock: .wall)))
    }

    @Test("a standing alarm planned in the new zone keeps its local time across the new zone's DST change")
    func standingAcrossDST() throws {
        let azores = try zone("Atlantic/Azores")
        // The Azores move from -01 to +00 at 01:00 UTC on 2026-03-29.
        let alarm = StandingAlarm(name: "work", hour: 7, minute: 0, second: 0, days: StandingAlarm.everyDay, date: nil,
                                  options: [:], created: utc(2026, 3, 20))
        let before = StandingSchedule.plan(alarm, record: AlarmRecord(name: "work"), lateLimit: limit, now: utc(2026, 3, 28, 5), zone: azores)
        #expect(before.next?.instant == utc(2026, 3, 28, 8))
        var fired = AlarmRecord(name: "work")
        fired.lastFired = utc(2026, 3, 28, 8)
        let after = StandingSchedule.plan(alarm, record: fired, lateLimit: limit, now: utc(2026, 3, 28, 8, 1), zone: azores)
        #expect(after.next?.instant == utc(2026, 3, 29, 7))
    }
}
