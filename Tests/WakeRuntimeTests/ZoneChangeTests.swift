import Foundation
import Testing
import WakeCore
import WakeEngine
@testable import WakeRuntime
import WakeSystem

/// The daemon's controller when the machine's zone changes (issue 24): real alarm and history
/// files, a fake clock, the console's lines and the event log as a user sees them.
@Suite("Daemon follows the machine's time zone")
struct ZoneChangeTests {
    final class Daemon {
        let directory: String
        let store: AlarmStore
        let world: FakeWorld
        let runner: Runner
        let recorder = EventRecorder()
        let lines = Console.LineCapture()
        let log: EventLog
        let controller: DaemonController
        let console: ConsoleObserver
        let logObserver: EventLogObserver

        init(at now: Instant, zone: TimeZoneRules = .utc, alarms: [StandingAlarm], history: [AlarmRecord] = []) throws {
            directory = NSTemporaryDirectory() + "wake-zone-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            store = AlarmStore(alarmsFile: directory + "/config/alarms.toml", historyFile: directory + "/state/history.toml")
            try store.update { $0 = alarms }
            try store.updateHistory { h in for r in history { h[r.name] = r } }
            world = FakeWorld(realtime: now)
            runner = Runner(clock: world, timers: world, output: world)
            runner.observe(with: recorder)
            log = try EventLog(path: directory + "/events.jsonl", zone: zone)
            logObserver = EventLogObserver(log: log, zone: zone)
            logObserver.includeAlarmID = true
            runner.observe(with: logObserver)
            let out = Console(capturing: lines)
            console = ConsoleObserver(console: out, zone: zone, settings: AlarmEngine.Settings())
            console.alarmName = { "'\($0)' " }
            runner.observe(with: console)
            let services = DaemonController.Services(
                clock: world, timers: world, loadConfig: { () throws(WakeFailure) in ConfigDefaults() },
                inhibit: nil, builtInSound: RunnerTests.tone)
            controller = DaemonController(runner: runner, store: store, zone: zone, console: out, log: log,
                                          unpaced: true, config: ConfigDefaults(), services: services)
            console.deadlineText = { [controller] id in controller.occurrence(of: id).map { Formatting.clockTime($0, zone: .utc) } ?? "" }
            try controller.start()
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        /// What the session does when the zone watch fires.
        func zoneChanged(to zone: TimeZoneRules) {
            console.zone = zone
            logObserver.zone = zone
            log.zone = zone
            controller.zoneChanged(to: zone)
        }

        func advance(by span: Duration) {
            world.advance(by: span)
            controller.applyPending()
        }

        func stop(_ name: String) {
            runner.command(.stop, by: .control("test"), alarm: name)
            controller.applyPending()
        }

        var events: [String] {
            ((try? String(contentsOfFile: directory + "/events.jsonl", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    static func zone(_ name: String) throws -> TimeZoneRules {
        try #require(ZoneLoader.zone(named: "/usr/share/zoneinfo/" + name).map { z in var z = z; z.name = name; return z })
    }

    static func daily(_ name: String, _ hour: Int, _ minute: Int = 0, created: Instant, options: [String: String] = [:]) -> StandingAlarm {
        StandingAlarm(name: name, hour: hour, minute: minute, second: 0, days: DaySet.daily.bits, date: nil, options: options,
                      created: created)
    }

    /// 2026-11-23T23:00Z; the alarm's 07:00 in UTC is 8 hours away.
    static let evening = RunnerTests.evening
    static let hour: Duration = .seconds(3600)

    @Test("a zone an hour west: the alarm is armed again for 07:00 there, an hour later, and says so once")
    func west() throws {
        let d = try Daemon(at: Self.evening, alarms: [Self.daily("work", 7, created: Self.evening - .seconds(86_400))])
        #expect(d.controller.occurrence(of: "work") == Self.evening + Self.hour * 8)
        d.zoneChanged(to: try Self.zone("Atlantic/Azores"))
        #expect(d.controller.occurrence(of: "work") == Self.evening + Self.hour * 9)
        #expect(d.controller.zone.name == "Atlantic/Azores")
        let said = d.lines.lines.filter { $0.hasPrefix("the time zone is now") }
        #expect(said.count == 1)
        #expect(said.first?.hasPrefix("the time zone is now Atlantic/Azores: alarm 'work' set for 07:00") == true, "\(said)")
        #expect(said.first?.hasSuffix("(2026-11-24T07:00:00-01:00)") == true, "\(said)")
        let armed = d.events.filter { $0.contains("\"event\":\"armed\"") }
        #expect(armed.count == 2)
        #expect(armed.last?.contains("\"reason\":\"zone\"") == true, "\(armed)")
        #expect(armed.last?.contains("\"deadline\":\"2026-11-24T07:00:00-01:00\"") == true, "\(armed)")

        d.advance(by: Self.hour * 8 + .seconds(30))
        #expect(!d.runner.isRinging, "nothing rings at the old zone's 07:00")
        d.advance(by: Self.hour)
        #expect(d.runner.isRinging)
        #expect(try d.store.loadHistory()["work"]?.lastFired == Self.evening + Self.hour * 9)
    }

    @Test("a zone five and a half hours east: the alarm rings at 07:00 in Kolkata, 01:30 UTC")
    func east() throws {
        let d = try Daemon(at: Self.evening, alarms: [Self.daily("work", 7, created: Self.evening - .seconds(86_400))])
        d.zoneChanged(to: try Self.zone("Asia/Kolkata"))
        let kolkata0700 = Self.evening + .seconds(2 * 3600 + 1800)
        #expect(d.controller.occurrence(of: "work") == kolkata0700)
        #expect(d.lines.lines.contains { $0.hasPrefix("the time zone is now Asia/Kolkata: alarm 'work' set for 07:00") },
                "\(d.lines.lines)")
        d.advance(by: Self.hour * 2 + .seconds(1790))
        #expect(!d.runner.isRinging)
        d.advance(by: .seconds(20))
        #expect(d.runner.isRinging)
        d.stop("work")
        #expect(d.controller.occurrence(of: "work") == kolkata0700 + .seconds(86_400), "the next day's 07:00 in Kolkata")
    }

    @Test("east past the alarm time: missed beyond the late limit (and the next day armed), rung now within it")
    func eastPastTheAlarm() throws {
        // 05:00 UTC: 07:00 in Kolkata was 01:30 UTC, three and a half hours ago.
        let dawn = Self.evening + Self.hour * 6
        // Both rang yesterday at their UTC times.
        var work = AlarmRecord(name: "work"), late = AlarmRecord(name: "late")
        work.lastFired = Self.evening - Self.hour * 16
        late.lastFired = Self.evening - Self.hour * 16 + .seconds(900)
        let created = Self.evening - .seconds(3 * 86_400)
        let d = try Daemon(at: dawn, alarms: [Self.daily("work", 7, created: created),
                                               Self.daily("late", 7, 15, created: created, options: ["late-limit": "5h"])],
                           history: [work, late])
        #expect(!d.lines.lines.contains { $0.contains("missed") }, "\(d.lines.lines)")
        d.zoneChanged(to: try Self.zone("Asia/Kolkata"))
        let kolkata0700 = Self.evening + .seconds(2 * 3600 + 1800)
        #expect(try d.store.loadHistory()["work"]?.missed == kolkata0700, "recorded as missed, not dropped")
        #expect(d.lines.lines.contains { $0.hasSuffix("missed 'work' at today 07:00: the time zone changed past it") }, "\(d.lines.lines)")
        #expect(d.controller.occurrence(of: "work") == kolkata0700 + .seconds(86_400))
        #expect(d.runner.isRinging, "'late' is within its 5h late limit: it rings now")
        #expect(d.runner.state(of: "late").map { if case .ringing = $0 { true } else { false } } == true)
        #expect(try d.store.loadHistory()["late"]?.lastFired == kolkata0700 + .seconds(900))
    }

    @Test("across the new zone's DST change: 07:00 in the Azores is 08:00 UTC on Saturday and 07:00 UTC on Sunday")
    func acrossDST() throws {
        // 2026-03-28T05:00Z, a Saturday; the Azores move from -01 to +00 at 01:00 UTC on Sunday.
        let saturday = Instant(seconds: LocalDateTime(date: CivilDate(year: 2026, month: 3, day: 28), hour: 5, minute: 0, second: 0).secondsAsIfUTC)
        let d = try Daemon(at: saturday, alarms: [Self.daily("work", 7, created: saturday - .seconds(86_400))])
        #expect(d.controller.occurrence(of: "work") == saturday + Self.hour * 2)
        d.zoneChanged(to: try Self.zone("Atlantic/Azores"))
        #expect(d.controller.occurrence(of: "work") == saturday + Self.hour * 3)
        d.advance(by: Self.hour * 3)
        #expect(d.runner.isRinging)
        d.stop("work")
        #expect(d.controller.occurrence(of: "work") == saturday + Self.hour * 26, "Sunday 07:00 in summer time is 07:00 UTC")
        d.advance(by: Self.hour * 23)
        #expect(d.runner.isRinging)
    }

    @Test("a ringing alarm is left ringing; the zone applies to its next occurrence")
    func ringingIsLeftAlone() throws {
        let d = try Daemon(at: Self.evening, alarms: [Self.daily("work", 7, created: Self.evening - .seconds(86_400))])
        d.advance(by: Self.hour * 8)
        #expect(d.runner.isRinging)
        let before = d.recorder.names.count
        d.zoneChanged(to: try Self.zone("Asia/Kolkata"))
        #expect(d.runner.isRinging)
        #expect(d.recorder.names.count == before)
        d.stop("work")
        #expect(d.controller.occurrence(of: "work") == Self.evening + .seconds(26 * 3600 + 1800), "tomorrow 07:00 in Kolkata")
    }
}
