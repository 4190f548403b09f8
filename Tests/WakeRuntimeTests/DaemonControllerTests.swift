import Foundation
import Testing
import WakeCore
import WakeRuntime
import WakeSystem

/// The daemon's controller in-process: real alarm and history files in a temporary directory,
/// a fake clock, fake timers and a fake output, so nights and restarts run in milliseconds.
@Suite("Daemon controller with an injected clock")
struct DaemonControllerTests {
    /// A daemon's world: its files, its clock, its runner and what it said.
    final class Daemon {
        let directory: String
        let store: AlarmStore
        let world: FakeWorld
        let runner: Runner
        let recorder = EventRecorder()
        let lines = Console.LineCapture()
        var configResult: Result<ConfigDefaults, ArmError> = .success(ConfigDefaults())
        var inhibitCalls: [String?] = []
        private(set) var controller: DaemonController?

        init(at now: Instant = RunnerTests.evening, alarms: [StandingAlarm] = [], history: [AlarmRecord] = []) throws {
            directory = NSTemporaryDirectory() + "wake-daemon-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            store = AlarmStore(alarmsFile: directory + "/config/alarms.toml", historyFile: directory + "/state/history.toml")
            try store.update { $0 = alarms }
            try store.updateHistory { h in for r in history { h[r.name] = r } }
            world = FakeWorld(realtime: now)
            runner = Runner(clock: world, timers: world, output: world)
            runner.observe(with: recorder)
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }

        func start() throws {
            let services = DaemonController.Services(
                clock: world, timers: world,
                loadConfig: { [unowned self] () throws(ArmError) in try configResult.get() },
                inhibit: { [unowned self] why throws(ArmError) in inhibitCalls.append(why) },
                builtInSound: { try? RunnerTests.tone() })
            let controller = DaemonController(runner: runner, store: store, zone: .utc, console: Console(capturing: lines), log: nil,
                                              unpaced: true, config: ConfigDefaults(), services: services)
            try controller.start()
            self.controller = controller
        }

        /// Time passes, and the daemon's loop runs its pending work as it does before each wait.
        func advance(by span: Duration) {
            world.advance(by: span)
            controller?.applyPending()
        }

        func stop(_ name: String) {
            runner.command(.stop, by: .control("test"), alarm: name)
            controller?.applyPending()
        }

        func record(_ name: String) throws -> AlarmRecord? { try store.loadHistory()[name] }
    }

    static func daily(_ name: String, _ hour: Int, _ minute: Int = 0, options: [String: String] = [:]) -> StandingAlarm {
        StandingAlarm(name: name, hour: hour, minute: minute, second: 0, days: DaySet.daily.bits, date: nil, options: options,
                      created: RunnerTests.evening - .seconds(86_400 * 7))
    }

    @Test("a standing alarm is armed for its next occurrence, rings, is recorded as fired, and is armed for the next day")
    func ringsAndRearms() throws {
        let d = try Daemon(alarms: [Self.daily("work", 7)])
        try d.start()
        #expect(d.controller?.occurrence(of: "work") == RunnerTests.morning)
        #expect(d.recorder.names == ["armed"])

        d.advance(by: .seconds(8 * 3600))
        #expect(d.runner.isRinging)
        let fired = try d.record("work")
        #expect(fired?.lastFired == RunnerTests.morning, "recorded as fired before the sound starts")
        #expect(fired?.ringingSince != nil)

        d.advance(by: .seconds(30))
        d.stop("work")
        #expect(!d.runner.isRinging)
        #expect(d.controller?.occurrence(of: "work") == RunnerTests.morning + .seconds(86_400))
        let after = try d.record("work")
        #expect(after?.ringingSince == nil)
        #expect(after?.lastFired == RunnerTests.morning)
    }

    @Test("a night of two alarms with a snooze runs in well under a second")
    func wholeNightIsFast() throws {
        let started = ContinuousClock.now
        let d = try Daemon(alarms: [Self.daily("early", 6, 30), Self.daily("late", 7)])
        try d.start()
        d.advance(by: .seconds(7 * 3600 + 30 * 60))
        #expect(d.runner.isRinging)
        d.runner.command(.snooze, by: .key("space"), alarm: "early")
        d.controller?.applyPending()
        let snoozed = try d.record("early")
        #expect(snoozed?.snoozedUntil != nil)
        d.advance(by: .seconds(9 * 60))
        #expect(d.runner.isRinging)
        d.stop("early")
        d.advance(by: .seconds(30 * 60))
        #expect(d.runner.isRinging, "the 07:00 alarm rings")
        d.stop("late")
        #expect(d.controller?.occurrence(of: "early") == RunnerTests.morning - .seconds(1800) + .seconds(86_400))
        #expect(d.controller?.occurrence(of: "late") == RunnerTests.morning + .seconds(86_400))
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("an occurrence missed while no daemon ran is said and recorded; the next one is armed")
    func missedWhileDown() throws {
        // The daemon starts at 08:00, an hour after 07:00, past the 30-minute late limit.
        var record = AlarmRecord(name: "work")
        record.lastFired = RunnerTests.morning - .seconds(86_400)
        let d = try Daemon(at: RunnerTests.morning + .seconds(3600), alarms: [Self.daily("work", 7)], history: [record])
        try d.start()
        #expect(d.lines.lines.contains { $0.hasPrefix("wake: missed 'work' at") && $0.contains("07:00") }, "\(d.lines.lines)")
        #expect(try d.record("work")?.missed == RunnerTests.morning)
        #expect(d.controller?.occurrence(of: "work") == RunnerTests.morning + .seconds(86_400))
        #expect(!d.runner.isRinging)
    }

    @Test("an occurrence still within its late limit at start rings at once")
    func lateWithinLimitRings() throws {
        var record = AlarmRecord(name: "work")
        record.lastFired = RunnerTests.morning - .seconds(86_400)
        let d = try Daemon(at: RunnerTests.morning + .seconds(600), alarms: [Self.daily("work", 7)], history: [record])
        try d.start()
        d.advance(by: .zero)
        #expect(d.runner.isRinging)
        #expect(try d.record("work")?.lastFired == RunnerTests.morning)
    }

    @Test("a skipped occurrence is passed over and recorded; the one after rings")
    func skip() throws {
        var record = AlarmRecord(name: "work")
        record.skip = RunnerTests.morning
        let d = try Daemon(alarms: [Self.daily("work", 7)], history: [record])
        try d.start()
        #expect(d.controller?.occurrence(of: "work") == RunnerTests.morning + .seconds(86_400))
        let after = try d.record("work")
        #expect(after?.lastSkipped == RunnerTests.morning)
        #expect(after?.skip == nil)
    }

    @Test("a broken config file on reload keeps the defaults read before, with one line that says so")
    func brokenConfigOnReload() throws {
        let d = try Daemon(alarms: [Self.daily("work", 7)])
        try d.start()
        d.configResult = .failure(ArmError(message: "config file 'x' line 1: volume: bad", status: 78))
        d.controller?.requestReload()
        d.controller?.applyPending()
        #expect(d.lines.lines.contains { $0.contains("the alarms keep the defaults read before") })
        #expect(d.controller?.occurrence(of: "work") == RunnerTests.morning)
    }

    @Test("a stored option that no longer checks rings with the defaults and says so; the alarm is never dropped")
    func badStoredOption() throws {
        let d = try Daemon(alarms: [Self.daily("work", 7, options: ["volume": "6O"])])
        try d.start()
        #expect(d.lines.lines.contains { $0.contains("alarm 'work'") && $0.contains("defaults") }, "\(d.lines.lines)")
        #expect(d.controller?.occurrence(of: "work") == RunnerTests.morning)
    }

    @Test("the never-sleep lock is taken within ten hours of an occurrence and released after the ring")
    func inhibitorWindow() throws {
        let d = try Daemon(alarms: [Self.daily("work", 7)])
        try d.start()
        #expect(d.inhibitCalls == ["alarm at 07:00"], "8 hours ahead: inside the window")
        d.advance(by: .seconds(8 * 3600))
        d.stop("work")
        // The next is 24 hours ahead: released, and taken again when the window opens.
        #expect(d.inhibitCalls.last == .some(nil))
        d.advance(by: .seconds(14 * 3600 + 60))
        #expect(d.inhibitCalls.last == "alarm at 07:00")
    }

    @Test("an alarm removed from the file is disarmed; one added is armed, at the next reload")
    func reloadPicksUpChanges() throws {
        let d = try Daemon(alarms: [Self.daily("work", 7)])
        try d.start()
        try d.store.update { $0 = [Self.daily("gym", 6)] }
        d.controller?.requestReload()
        d.controller?.applyPending()
        #expect(d.controller?.occurrence(of: "work") == nil)
        #expect(d.controller?.occurrence(of: "gym") == RunnerTests.morning - .seconds(3600))
        #expect(d.lines.lines.contains("'work' removed"))
    }
}
