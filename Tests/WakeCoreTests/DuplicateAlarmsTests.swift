import Testing
@testable import WakeCore

@Suite("Duplicate alarms: the same moments, whatever the name and ring options")
struct DuplicateAlarmsTests {
    @Test("same time, days and day rules are copies; another second, day, date or rule is not; holidays and sounds do not count")
    func same() {
        let work = alarm("work")
        #expect(DuplicateAlarms.same(work, alarm("copy", options: ["sound": "/a.flac", "skip-days": "/h.ics"])))
        #expect(!DuplicateAlarms.same(work, alarm("later", 6, 30, 1)))
        #expect(!DuplicateAlarms.same(work, alarm("daily", days: StandingAlarm.everyDay)))
        #expect(!DuplicateAlarms.same(alarm("a", days: 0), alarm("b", days: 0, date: CivilDate(year: 2027, month: 3, day: 2))))
        #expect(DuplicateAlarms.same(alarm("a", 8, 0, days: 0), alarm("b", 8, 0, days: 0)), "two one-offs at 08:00 ring together")
        for key in DuplicateAlarms.dayRuleKeys {
            #expect(!DuplicateAlarms.same(work, alarm("rule", options: [key: "x"])), "\(key)")
        }
    }

    @Test("the existing copy is found by name order, never the alarm itself; copies come in sets of two or more")
    func sets() {
        let alarms = [alarm("zeta"), alarm("work"), alarm("gym", 7, 0), alarm("alpha"), alarm("gym2", 7, 0), alarm("solo", 9, 0)]
        #expect(DuplicateAlarms.existing(alarm("new"), among: alarms)?.name == "alpha")
        #expect(DuplicateAlarms.existing(alarm("solo", 9, 0), among: alarms) == nil)
        #expect(DuplicateAlarms.copies(in: alarms) == [["alpha", "work", "zeta"], ["gym", "gym2"]])
        #expect(DuplicateAlarms.copies(in: [alarm("one")]).isEmpty)
    }
}
