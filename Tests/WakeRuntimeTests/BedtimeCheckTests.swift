import Foundation
import Synchronization
import Testing
import WakeCore
@testable import WakeEngine
@testable import WakeRuntime
import WakeSystem

/// The daemon's bedtime check (issue 39) in process: the controller and the check in a
/// `TestSession` (a real reactor, the runner on the fake clock), the checks themselves a fake
/// that answers on the check's own thread. When it checks, what it says, that it notifies a
/// problem once, waits for a ring, takes one check at a time and is never waited for.
@Suite("Bedtime check in the daemon, in process")
struct BedtimeCheckTests {
    /// The checks, as the check's thread runs them: what they were asked, and what they answer.
    final class FakeChecks: Sendable {
        private let state = Mutex<(asked: [(alarm: String, occurrence: Instant)], answers: [String: [DoctorFinding]], held: Bool)>(([], [:], false))
        private let gate = DispatchSemaphore(value: 0)

        var asked: [(alarm: String, occurrence: Instant)] { state.withLock { $0.asked } }
        func answer(_ alarm: String, _ findings: [DoctorFinding]) { state.withLock { $0.answers[alarm] = findings } }
        /// From now on each check waits for `release()`.
        func hold() { state.withLock { $0.held = true } }
        func release(_ n: Int = 1) { for _ in 0..<n { gate.signal() } }

        func run(_ s: BedtimeCheck.Subject) -> [DoctorFinding]? {
            let held = state.withLock { s2 in
                s2.asked.append((s.alarm.name, s.occurrence))
                return s2.held
            }
            if held { gate.wait() }
            return state.withLock { $0.answers[s.alarm.name] } ?? [DoctorFinding(.sound, "sound.device", alarms: [s.alarm.name], .pass, "opens")]
        }
    }

    /// A daemon's night: its files, the session, the controller, the check, what it showed.
    final class Night {
        let directory: String
        let store: AlarmStore
        let session: TestSession
        let controller: DaemonController
        let fake = FakeChecks()
        private(set) var check: BedtimeCheck!
        var notices: [DesktopNotice] = []
        /// The bedtime reminders shown: the alarm, its occurrence, the notice.
        var reminders: [(alarm: String, occurrence: Instant, notice: DesktopNotice)] = []
        /// What logind says of the session, as the reminder's check asks it on its thread.
        let presence = PresenceBox()
        final class PresenceBox: Sendable {
            private let value = Mutex(SessionPresence.present)
            func withLock<T>(_ body: (inout SessionPresence) -> T) -> T { value.withLock { body(&$0) } }
        }

        init(alarms: [StandingAlarm], at now: Instant = RunnerTests.evening, notifications: Bool = true,
             sleepTarget: Duration? = nil) throws {
            directory = NSTemporaryDirectory() + "wake-bedtime-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            store = AlarmStore(alarmsFile: directory + "/config/alarms.toml", historyFile: directory + "/state/history.toml")
            try store.update { $0 = alarms }
            session = TestSession(standing: true, at: now)
            let world = session.world
            let services = DaemonController.Services(clock: world, timers: world, loadConfig: { () throws(WakeFailure) in ConfigDefaults() },
                                                     inhibit: nil, builtInSound: RunnerTests.tone)
            controller = DaemonController(runner: session.runner, store: store, zone: .utc, console: session.console, log: nil,
                                          unpaced: true, config: ConfigDefaults(), services: services)
            let fake = self.fake
            check = BedtimeCheck(lead: BedtimeLedger.lead(noticeBefore: .zero), controller: controller, clock: world, timers: world,
                                 notifyMode: .auto, notify: notifications ? { [unowned self] in notices.append($0) } : nil,
                                 reminders: .init(target: { [controller] in controller.sleepTarget(of: $0) ?? sleepTarget },
                                                  presence: { [presence] in presence.withLock { $0 } },
                                                  remind: { [unowned self] in reminders.append(($0, $1, $2)) }),
                                 checks: { fake.run($0) })
            controller.onFilesChanged = { [unowned self] in check.filesChanged() }
            try controller.start()
            check.start(in: session)
        }

        deinit {
            check.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// The daemon's loop: the controller's pending work and the check before each poll.
        func turn(until done: () -> Bool, limit: Duration = .seconds(10)) throws {
            let deadline = ContinuousClock.now + limit
            repeat {
                controller.applyPending()
                check.beforePoll()
                try session.reactor.runOnce(timeout: .milliseconds(10))
            } while !done() && ContinuousClock.now < deadline
        }

        /// A few turns with nothing expected: what would come, has.
        func settle() throws {
            let until = ContinuousClock.now + .milliseconds(300)
            try turn(until: { ContinuousClock.now >= until })
        }

        func waitForChecks(_ n: Int) throws {
            try turn(until: { fake.asked.count >= n })
            try settle()
        }

        func advance(by span: Duration) throws {
            session.world.advance(by: span)
            controller.applyPending()
            try settle()
        }

        var events: [[String: String]] {
            session.recorded.filter { $0.0 == "bedtime_check" }.map { _, fields in
                var out: [String: String] = [:]
                for (k, v) in fields {
                    if case .string(let s) = v { out[k] = s } else { out[k] = v.text }
                }
                return out
            }
        }

        var bedtimeLines: [String] { session.lines.lines.filter { $0.contains("bedtime check: ") } }
    }

    static func daily(_ name: String, _ hour: Int, _ minute: Int = 0) -> StandingAlarm {
        StandingAlarm(name: name, hour: hour, minute: minute, second: 0, days: DaySet.daily.bits, date: nil, options: [:],
                      created: RunnerTests.evening - .seconds(86_400 * 7))
    }

    static func mutedOff(_ alarm: String) -> DoctorFinding {
        DoctorFinding(.sound, "sound.sink", alarms: [alarm], .fail,
                      "the default sink 'Speakers' (speaker) is muted (100 %), and --mixer off leaves it so: the alarm will not be heard",
                      fix: "unmute it ('pactl set-sink-mute @DEFAULT_SINK@ 0'), or let wake guard it (--mixer auto)")
    }

    static func mutedGuarded(_ alarm: String) -> DoctorFinding {
        DoctorFinding(.sound, "sound.sink", alarms: [alarm], .warn,
                      "the default sink 'Speakers' (speaker) is muted (100 %): the mixer guard unmutes it while ringing, and puts it back",
                      fix: "nothing is needed for the alarm")
    }

    static let morning = RunnerTests.morning  // 07:00; the session starts at 23:00

    @Test("when: each alarm at its moment 2 h before (--notice-before 0), the next alarm after a change of the files; not at the start")
    func when() throws {
        let night = try Night(alarms: [Self.daily("work", 7), Self.daily("gym", 7, 30)])
        try night.settle()
        #expect(night.fake.asked.isEmpty, "the start is no change, and 07:00 is 8 h away")
        try night.advance(by: .seconds(5 * 3600 + 59 * 60))  // 04:59
        #expect(night.fake.asked.isEmpty, "nothing before its moment: \(night.fake.asked)")
        try night.advance(by: .seconds(60))  // 05:00, two hours before 07:00
        try night.waitForChecks(1)
        #expect(night.fake.asked.map(\.alarm) == ["work"])
        #expect(night.fake.asked.first?.occurrence == Self.morning)
        try night.advance(by: .seconds(30 * 60))  // 05:30, two hours before 07:30
        try night.waitForChecks(2)
        #expect(night.fake.asked.map(\.alarm) == ["work", "gym"])
        #expect(night.fake.asked.last?.occurrence == Self.morning + .seconds(1800))

        night.check.filesChanged()  // alarms.toml or config.toml changed, or SIGHUP
        try night.waitForChecks(3)
        #expect(night.fake.asked.last?.alarm == "work", "the next alarm to ring")
        try night.settle()
        #expect(night.fake.asked.count == 3, "once each: \(night.fake.asked)")
    }

    @Test("the controller says a change of alarms.toml, not a reload that read the same files (the history's changes, the daemon's own writes)")
    func changeOfTheFiles() throws {
        let night = try Night(alarms: [Self.daily("work", 7)])
        night.controller.requestReload()
        try night.settle()
        #expect(night.fake.asked.isEmpty, "the same files")
        try night.store.update { $0.append(Self.daily("gym", 8)) }
        night.controller.requestReload()
        try night.waitForChecks(1)
        #expect(night.fake.asked.map(\.alarm) == ["work"], "the next alarm to ring, not the one added")
    }

    @Test("an alarm nearer than the lead is checked at once; none in its last half minute")
    func nearer() throws {
        let night = try Night(alarms: [Self.daily("work", 7)], at: Self.morning - .seconds(600))
        try night.waitForChecks(1)
        #expect(night.fake.asked.count == 1, "its moment has passed: at once: \(night.fake.asked)")
        try night.advance(by: .seconds(590))
        night.check.filesChanged()
        try night.settle()
        #expect(night.fake.asked.count == 1, "10 s before the ring: no check")
    }

    @Test("a FAIL: a line, an event and one notification; checked again after a change and at its moment: said again, never notified twice")
    func failNotifiedOnce() throws {
        let night = try Night(alarms: [Self.daily("work", 7)])
        night.fake.answer("work", [DoctorFinding(.sound, "sound.device", alarms: ["work"], .pass, "opens"), Self.mutedOff("work")])
        night.check.filesChanged()
        try night.waitForChecks(1)
        #expect(night.notices.count == 1)
        #expect(night.notices.first?.summary == "Alarm at 07:00 (work) may be silent")
        #expect(night.notices.first?.body.contains("is muted (100 %), and --mixer off leaves it so") == true)
        #expect(night.notices.first?.body.contains("Fix: unmute it") == true)
        #expect(night.bedtimeLines == ["wake: bedtime check: alarm 'work' at 07:00: FAIL sound.sink: \(Self.mutedOff("work").found); fix: \(Self.mutedOff("work").fix ?? "")"],
                "\(night.session.lines.lines)")
        let event = try #require(night.events.first)
        #expect(event["alarm"] == "work" && event["check"] == "sound.sink" && event["status"] == "FAIL" && event["notified"] == "true", "\(event)")
        #expect(event["occurrence"]?.hasPrefix("2026-") == true && event["fix"]?.hasPrefix("unmute it") == true, "\(event)")

        night.check.filesChanged()
        try night.waitForChecks(2)
        try night.advance(by: .seconds(6 * 3600))  // 05:00
        try night.waitForChecks(3)
        #expect(night.notices.count == 1, "not twice: \(night.notices)")
        #expect(night.bedtimeLines.count == 3, "each check said: \(night.bedtimeLines)")
        #expect(night.events.map { $0["notified"] } == ["true", "false", "false"])
    }

    @Test("a WARN: a line and an event, no notification; a FAIL that clears is said once as passing")
    func warnAndCleared() throws {
        let night = try Night(alarms: [Self.daily("work", 7)])
        night.fake.answer("work", [Self.mutedGuarded("work")])
        night.check.filesChanged()
        try night.waitForChecks(1)
        #expect(night.notices.isEmpty)
        #expect(night.bedtimeLines.count == 1 && night.bedtimeLines[0].contains("WARN sound.sink: "), "\(night.bedtimeLines)")
        #expect(night.events.first?["status"] == "WARN" && night.events.first?["notified"] == nil)

        night.fake.answer("work", [DoctorFinding(.sound, "sound.sink", alarms: ["work"], .pass, "the default sink is unmuted at 100 %")])
        night.check.filesChanged()
        try night.waitForChecks(2)
        #expect(night.bedtimeLines.last == "wake: bedtime check: alarm 'work' at 07:00: sound.sink now passes: the default sink is unmuted at 100 %")
        #expect(night.events.last?["status"] == "PASS")
        night.check.filesChanged()
        try night.waitForChecks(3)
        #expect(night.bedtimeLines.count == 2, "a pass is said once, when it clears: \(night.bedtimeLines)")
    }

    @Test("with notifications off: said, not shown")
    func notificationsOff() throws {
        let night = try Night(alarms: [Self.daily("work", 7)], notifications: false)
        night.fake.answer("work", [Self.mutedOff("work")])
        night.check.filesChanged()
        try night.waitForChecks(1)
        #expect(night.notices.isEmpty && night.bedtimeLines.count == 1)
        #expect(night.events.first?["notified"] == "false")
    }

    @Test("no check while an alarm rings, of any alarm: one asked for then runs when the ring ends; a check of the ringing one is for its next occurrence")
    func waitsForTheRing() throws {
        let night = try Night(alarms: [Self.daily("work", 7), Self.daily("gym", 9, 30)])
        try night.advance(by: .seconds(6 * 3600))  // 05:00
        try night.waitForChecks(1)
        try night.advance(by: .seconds(2 * 3600))  // 07:00
        #expect(night.session.runner.isRinging)
        night.check.filesChanged()  // the next alarm to ring, gym at 09:30, is armed, but work rings
        try night.settle()
        #expect(night.fake.asked.count == 1, "not while it rings: \(night.fake.asked)")
        night.session.runner.command(.stop, by: .control("test"), alarm: "work")
        try night.waitForChecks(2)
        #expect(night.fake.asked.last?.alarm == "gym" && night.fake.asked.last?.occurrence == Self.morning + .seconds(9000),
                "\(night.fake.asked)")
        // The ringing one's next check: its moment tomorrow, for tomorrow's occurrence.
        try night.advance(by: .seconds(22 * 3600))  // 05:00 tomorrow
        try night.waitForChecks(4)
        #expect(night.fake.asked.contains { $0.alarm == "work" && $0.occurrence == Self.morning + .seconds(86_400) }, "\(night.fake.asked)")
    }

    @Test("one check at a time: asked for again while one runs, it runs once more; the end does not wait for a check")
    func oneAtATime() throws {
        let night = try Night(alarms: [Self.daily("work", 7)])
        night.fake.answer("work", [Self.mutedOff("work")])
        night.fake.hold()
        night.check.filesChanged()
        try night.turn(until: { night.fake.asked.count == 1 })
        for _ in 0..<3 {
            night.check.filesChanged()
            try night.settle()
        }
        #expect(night.fake.asked.count == 1, "the first still runs")
        night.fake.release()
        try night.turn(until: { night.fake.asked.count == 2 })
        try night.settle()
        #expect(night.fake.asked.count == 2, "three asks while it ran: one check more")

        // The daemon ends while a check runs: stop returns at once; the late post is dropped.
        let began = ContinuousClock.now
        night.check.stop()
        #expect(ContinuousClock.now - began < .seconds(2), "a check that never ends was waited for")
        night.fake.release(2)
        try night.settle()
        #expect(night.events.count == 1, "only the check that ended before the stop was said: \(night.events)")
    }
}
