import Testing
import WakeCore
@testable import WakeRuntime
@testable import WakeTestSupport

/// The daemon and issue 54's `--weeks` and `--every`, in process with the fake clock: it arms
/// what `StandingSchedule` plans, and a stored rule it cannot read is said and set aside as any
/// stored option is (`StoredRingSettings`), the alarm kept.
@Suite("Daemon: odd and even weeks, every Nth day")
struct DaemonDayRulesTests {
    typealias Days = DaemonDayOffTests

    @Test("odd weeks: after Wednesday in week 48, the next ring is Monday of week 49; every 3 days from Friday: Friday")
    func armsByTheRules() throws {
        let odd = Days.alarm(nil, options: ["weeks": "odd"])
        var d = try ZoneChangeTests.Daemon(at: Days.wednesday, alarms: [odd], history: [Days.rangWednesday])
        #expect(d.controller.occurrence(of: "work") == Days.seven(5), "\(d.lines.lines)")
        let rota = Days.alarm(nil, options: ["every": "3d", "from": "2026-11-27"])
        d = try ZoneChangeTests.Daemon(at: Days.wednesday, alarms: [rota], history: [Days.rangWednesday])
        #expect(d.controller.occurrence(of: "work") == Days.seven(2), "not Thursday: Friday 27 November, its first")
    }

    @Test("a stored --weeks it cannot read is said once, naming the alarm and the value; the alarm rings on its days")
    func badValueSetAside() throws {
        let d = try ZoneChangeTests.Daemon(at: Days.wednesday, alarms: [Days.alarm(nil, options: ["weeks": "odq"])],
                                           history: [Days.rangWednesday])
        #expect(d.controller.occurrence(of: "work") == Days.seven(1), "Thursday, as if no --weeks were given")
        let said = d.lines.lines.filter { $0.contains("'odq'") }
        #expect(said == ["wake: alarm 'work': --weeks: invalid mode 'odq'; use odd or even (weeks = \"odq\" in alarms.toml); "
                         + "it rings without it instead, and keeps its other options"], "\(d.lines.lines)")
        Days.reload(d)
        #expect(d.lines.lines.filter { $0.contains("'odq'") }.count == 1, "said once while it lasts: \(d.lines.lines)")
    }
}
