import Testing
import WakeCore

/// Issue 49: a second pause is kept beside the first (a sick day and Christmas), joined with it
/// where they meet; and a skip is a local date, so it survives a move across zones.
@Suite("Several pauses, skips across zones")
struct SeveralPausesTests {
    typealias S = StandingScheduleTests

    @Test("a pause added beside another keeps both; one that overlaps or touches is joined; one inside is covered")
    func adding() {
        let christmas = Pause(from: S.at(28, 0), until: S.at(42, 0))
        let sick = Pause(until: S.at(3, 0))
        let (both, added) = Pause.adding(sick, to: [christmas])
        #expect(both == [sick, christmas] && added == .added, "sorted, the one with no start first")
        // Overlapping the start of Christmas's: one pause, from the earliest start to the latest end.
        let early = Pause(from: S.at(25, 0), until: S.at(30, 0))
        let (joined, outcome) = Pause.adding(early, to: both)
        #expect(joined == [sick, Pause(from: S.at(25, 0), until: S.at(42, 0))])
        #expect(outcome == .joined([christmas], into: Pause(from: S.at(25, 0), until: S.at(42, 0))))
        // Touching (one ends where the other starts) is one pause too; no start wins.
        let (touching, _) = Pause.adding(Pause(from: S.at(3, 0), until: S.at(5, 0)), to: [sick])
        #expect(touching == [Pause(until: S.at(5, 0))])
        // Inside one: nothing changes.
        let (same, covered) = Pause.adding(Pause(from: S.at(30, 0), until: S.at(31, 0)), to: both)
        #expect(same == both && covered == .covered(by: christmas))
    }

    @Test("the schedule passes over every pause: the days between them ring")
    func scheduleWithTwoPauses() {
        var record = AlarmRecord(name: "work")
        record.pauses = [Pause(until: S.at(2, 0)), Pause(from: S.at(3, 0), until: S.at(5, 0))]  // Mon-Tue, then Thu-Fri
        var rang: [Instant] = []
        var now = S.at(0, 1)
        for _ in 0..<3 {
            guard let next = StandingSchedule.plan(S.alarm(days: .daily), record: record, lateLimit: .seconds(60), now: now,
                                                   zone: S.utc).next
            else { break }
            rang.append(next.instant)
            record.lastFired = next.instant
            now = next.instant
        }
        #expect(rang == [S.at(2, 6, 30), S.at(5, 6, 30), S.at(6, 6, 30)], "Wed rings between the pauses; Sat after the second")
        // An ended pause is pruned once an occurrence after it has been dealt with, not before.
        record.lastFired = S.at(1, 6, 30)
        #expect(record.pruningPauses(now: S.at(2, 12)).pauses.count == 2, "Mon-Tue ended, but nothing after it is dealt with")
        record.lastFired = S.at(2, 6, 30)
        #expect(record.pruningPauses(now: S.at(2, 12)).pauses == [Pause(from: S.at(3, 0), until: S.at(5, 0))])
    }

    /// A daily 06:30, and the Tuesday (2026-11-24) it skips, taken in `from`; planned in `to`
    /// on Monday evening there.
    func plannedAfterMoving(from: TimeZoneRules, to: TimeZoneRules,
                            legacy: Bool = false) -> (next: Instant?, tuesday: Instant, wednesday: Instant) {
        let alarm = S.alarm(days: .daily, created: utc(2026, 11, 20))
        let tuesday = CivilDate(year: 2026, month: 11, day: 24)
        var record = AlarmRecord(name: "work")
        record.lastFired = to.instant(for: LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 23), hour: 6, minute: 30, second: 0))
        if legacy {
            // As an older wake wrote it: the instant of Tuesday 06:30 in the zone it was taken in.
            record.legacySkips = [StandingSchedule.occurrence(of: alarm, on: tuesday, zone: from)!.instant]
            record = record.migratingSkips(zone: from)
        } else {
            record.skips = [tuesday]
        }
        let now = to.instant(for: LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 23), hour: 21, minute: 0, second: 0))
        let plan = StandingSchedule.plan(alarm, record: record, lateLimit: .seconds(1800), now: now, zone: to)
        func at(_ day: Int) -> Instant {
            to.instant(for: LocalDateTime(date: CivilDate(year: 2026, month: 11, day: day), hour: 6, minute: 30, second: 0))
        }
        return (plan.next?.instant, at(24), at(25))
    }

    @Test("a skip taken in Berlin still skips that morning in New York, and one taken in New York in Berlin")
    func skipAcrossZones() throws {
        let berlin = try WakeCoreTests.zone("Europe/Berlin"), newYork = try WakeCoreTests.zone("America/New_York")
        for (from, to) in [(berlin, newYork), (newYork, berlin)] {
            for legacy in [false, true] {
                let p = plannedAfterMoving(from: from, to: to, legacy: legacy)
                #expect(p.next == p.wednesday, "\(from.name) to \(to.name)\(legacy ? ", migrated" : ""): Tuesday's 06:30 there is skipped")
            }
            // The record as the skip left it says which occurrence it passes over in either zone.
            var record = AlarmRecord(name: "work")
            record.skips = [CivilDate(year: 2026, month: 11, day: 24)]
            let tuesday = to.instant(for: LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 24), hour: 6, minute: 30, second: 0))
            #expect(record.isSkipped(tuesday, zone: to) && record.skipInstants(of: S.alarm(days: .daily), zone: to) == [tuesday])
        }
        // Kept through its day, so a move west the same day still skips it; gone the day after.
        var record = AlarmRecord(name: "work")
        record.skips = [CivilDate(year: 2026, month: 11, day: 24)]
        #expect(record.pruningSkips(now: utc(2026, 11, 24, 12), zone: berlin).skips.count == 1)
        #expect(record.pruningSkips(now: utc(2026, 11, 25, 12), zone: berlin).skips.isEmpty)
    }
}
