import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeEngine
@testable import WakeRuntime
@testable import WakeSystem
@testable import WakeTestSupport

/// `wake snooze 20m`, `wake snooze --until 07:40` and the snooze count in `wake list`, in
/// process: a session on the fake clock with its control endpoint on a real socket, and the
/// commands themselves (`ControlActions.snooze`, `StandingAlarmActions.list`) on a thread of their
/// own with a store in a temporary directory, "now" and the zone handed in.
@Suite("Chosen snooze in-process")
struct ChosenSnoozeSessionTests {
    /// What a client command run beside the session gave back, and what it said.
    struct Said: Sendable {
        var result: Result<CommandResult, WakeFailure>
        var lines: [String]
        var text: String { lines.joined(separator: "\n") }
    }

    final class SaidBox: @unchecked Sendable {
        private let lock = NSLock()
        private var said: Said?
        func set(_ s: Said) { lock.withLock { said = s } }
        func get() -> Said? { lock.withLock { said } }
    }

    /// A session holding one alarm for `at`, in `zone`, with its control endpoint; the world's
    /// "now" is `evening`.
    struct World {
        let session: TestSession
        let endpoint: ControlEndpoint
        let dir: TestDirectory
        let pid = String(getpid())

        init(at deadline: Instant, evening: Instant, zone: TimeZoneRules, settings: AlarmEngine.Settings = .init()) throws {
            session = TestSession(at: evening)
            session.zone = zone
            (endpoint, dir) = try ControlEndpointTests.endpoint(session)
            try session.runner.arm(RunnerTests.setup(session.world, at: deadline, settings: settings))
        }

        /// Runs `body` as a command from another shell would, with a context on this world's
        /// files, clock and zone, turning the session's loop until it is done.
        func command(_ body: @escaping @Sendable (Console, StandingContext) throws(WakeFailure) -> CommandResult) throws -> Said {
            let (path, now, zone) = (dir.path, session.world.realtime, session.zone)
            let box = SaidBox()
            let thread = Thread {
                let lines = Console.LineCapture()
                let console = Console(capturing: lines)
                let store = AlarmStore(alarmsFile: path + "/config/wake/alarms.toml", historyFile: path + "/config/wake/history.toml")
                let context = StandingContext(store: store, now: { now }, zone: zone, controlDirectory: { path })
                let result = Result { () throws(WakeFailure) -> CommandResult in try body(console, context) }
                box.set(Said(result: result, lines: lines.lines))
            }
            thread.start()
            try session.turn(until: { box.get() != nil })
            return try #require(box.get())
        }

        func snooze(_ words: [String], until: String? = nil) throws -> Said {
            try command { console, context throws(WakeFailure) in
                try ControlActions.snooze(words: words, until: until, console: console, in: context)
            }
        }

        func list(json: Bool = false) throws -> Said {
            try command { console, context throws(WakeFailure) in try StandingAlarmActions.list(json: json, console: console, in: context) }
        }

        var snoozedUntil: Wait? {
            if case .snoozed(let wait)? = session.runner.state(of: "alarm") { return wait }
            return nil
        }
    }

    /// Berlin's spring-forward night: 2027-03-28 02:00 CET -> 03:00 CEST (01:00 UTC); the alarm
    /// rings at 01:50 CET (00:50 UTC).
    static let springDeadline = Instant(seconds: 1_806_192_000) + .seconds(50 * 60)

    static func berlin() throws -> TimeZoneRules { try #require(ZoneLoader.zone(named: "Europe/Berlin")) }

    @Test("wake snooze 20m at 01:50 on the spring-forward night: the reply says 03:10:00 and it rings again 20 minutes on, at 03:10")
    func spanAcrossSpringForward() throws {
        let zone = try Self.berlin()
        #expect(Formatting.clockTime(Self.springDeadline, zone: zone) == "01:50")
        let w = try World(at: Self.springDeadline, evening: Self.springDeadline - .seconds(3600), zone: zone)
        defer { w.endpoint.stop() }
        w.session.world.advance(by: .seconds(3600))
        #expect(w.session.runner.isRinging)

        let said = try w.snooze(["20m"])
        #expect(try said.result.get() == .done, "\(said)")
        // (The test session names a ringing alarm by no time: "the alarm".)
        #expect(said.text == "snoozed the alarm (pid \(w.pid)) until 03:10", "\(said.text)")
        #expect(w.snoozedUntil?.clock == .elapsed, "a span waits on the boot clock")
        w.session.world.advance(by: .seconds(20 * 60 - 1))
        #expect(!w.session.runner.isRinging)
        w.session.world.advance(by: .seconds(1))
        #expect(w.session.runner.isRinging)
        #expect(Formatting.clockTime(w.session.world.realtime, zone: zone, alwaysSeconds: true) == "03:10:00")
    }

    @Test("wake snooze ID --until 03:10 on the same night: a wall-clock wait, 20 minutes; a clock stepped past it rings at once")
    func untilAcrossSpringForward() throws {
        let zone = try Self.berlin()
        let w = try World(at: Self.springDeadline, evening: Self.springDeadline - .seconds(3600), zone: zone)
        defer { w.endpoint.stop() }
        w.session.world.advance(by: .seconds(3600))

        let said = try w.snooze([w.pid], until: "03:10")
        // (The test session names a ringing alarm by no time: "the alarm".)
        #expect(said.text == "snoozed the alarm (pid \(w.pid)) until 03:10", "\(said.text)")
        #expect(w.snoozedUntil == Wait(instant: Self.springDeadline + .seconds(20 * 60), clock: .wall))
        w.session.world.advance(by: .seconds(20 * 60 - 1))
        #expect(!w.session.runner.isRinging)
        w.session.world.advance(by: .seconds(1))
        #expect(w.session.runner.isRinging)

        // Snoozed again until 03:40, then the wall clock is stepped to 03:45: it rings at once.
        _ = try w.snooze([], until: "03:40")
        #expect(!w.session.runner.isRinging)
        w.session.world.stepWallClock(by: .seconds(35 * 60))
        #expect(w.session.runner.isRinging)
    }

    @Test("refused before anyone is asked, exit 64: zero, past 12 hours, a length and --until together; the alarm rings on")
    func refusedLengths() throws {
        let w = try World(at: RunnerTests.morning, evening: RunnerTests.evening, zone: .utc)
        defer { w.endpoint.stop() }
        w.session.world.advance(by: .seconds(8 * 3600))
        for (words, until, expected) in [(["0"], nil, "snooze length '0' is zero"), (["13h"], nil, "is longer than 12h"),
                                         (["20m"], "07:40", "not both"), ([], "06:59", "more than 12h")] as [([String], String?, String)] {
            let said = try w.snooze(words, until: until)
            guard case .failure(let f) = said.result else { Issue.record("accepted \(words) \(until ?? "")"); continue }
            #expect(f.kind == .usage && f.message.contains(expected), "\(f.message)")
        }
        #expect(w.session.runner.isRinging)
    }

    @Test("an alarm named like a length: one word names it; two words are the alarm and the length")
    func alarmNamedLikeALength() throws {
        let w = try World(at: RunnerTests.morning, evening: RunnerTests.evening, zone: .utc)
        defer { w.endpoint.stop() }
        // A standing alarm named 20m, from before wake add refused such names.
        let store = AlarmStore(alarmsFile: w.dir.path + "/config/wake/alarms.toml", historyFile: w.dir.path + "/config/wake/history.toml")
        try store.update { alarms in
            alarms.append(StandingAlarm(name: "20m", hour: 6, minute: 30, second: 0, days: DaySet(weekdays: [1]).bits, date: nil, options: [:],
                                        created: RunnerTests.evening))
        }
        w.session.world.advance(by: .seconds(8 * 3600))
        var said = try w.snooze(["20m"])
        guard case .failure(let f) = said.result else { Issue.record("snoozed: \(said)"); return }
        #expect(f.message == "no running alarm has the ID '20m'; see 'wake list'", "taken as the name: \(f.message)")
        #expect(w.session.runner.isRinging)
        said = try w.snooze([w.pid, "20m"])
        #expect(said.text.hasSuffix("until 07:20"), "\(said.text)")
    }

    @Test("the limit counts a chosen length, shows in wake list and its JSON, and refuses past it while the alarm rings on")
    func limitCountsShowsRefuses() throws {
        let settings = AlarmEngine.Settings(snooze: .seconds(9 * 60), ringFor: .zero, snoozeLimit: 2)
        let w = try World(at: RunnerTests.morning, evening: RunnerTests.evening, zone: .utc, settings: settings)
        defer { w.endpoint.stop() }
        w.session.world.advance(by: .seconds(8 * 3600))
        var listed = try w.list()
        #expect(listed.text.contains("ringing (snoozed 0 of 2)"), "\(listed.text)")

        _ = try w.snooze(["20m"])
        listed = try w.list()
        #expect(listed.text.contains("snoozed 1 of 2 until 07:20"), "\(listed.text)")
        listed = try w.list(json: true)
        #expect(listed.text.contains("\"snoozes\":1") && listed.text.contains("\"snooze_limit\":2"), "\(listed.text)")

        w.session.world.advance(by: .seconds(20 * 60))
        _ = try w.snooze([], until: "07:30")
        w.session.world.advance(by: .seconds(10 * 60))
        #expect(w.session.runner.isRinging)
        listed = try w.list()
        #expect(listed.text.contains("ringing (snoozed 2 of 2)"), "\(listed.text)")

        let said = try w.snooze(["5m"])
        guard case .failure(let f) = said.result else { Issue.record("snoozed past the limit: \(said)"); return }
        #expect(f.kind == .nothingMatched && f.message.contains("snooze limit reached (2 of 2); it rings until stopped"), "\(f.message)")
        #expect(w.session.runner.isRinging, "a limit never silences")
    }

    @Test("wake list --json: null snoozes while an alarm waits, and a null limit without one")
    func listWhileWaiting() throws {
        let w = try World(at: RunnerTests.morning, evening: RunnerTests.evening, zone: .utc)
        defer { w.endpoint.stop() }
        let listed = try w.list(json: true)
        #expect(listed.text.contains("\"snoozes\":null") && listed.text.contains("\"snooze_limit\":null"), "\(listed.text)")
        #expect(try w.list().text.contains(" waiting "), "no count while it waits")
    }

    @Test("wake add --name refuses a name that reads as a length (exit 64, saying why); nothing is written")
    func addRefusesLengthNames() throws {
        let w = try StandingActionsTests.World()
        for name in ["20m", "1h30m", "0", "500ms"] {
            do {
                _ = try w.add(["06:30"], name: name)
                Issue.record("added an alarm named \(name)")
            } catch {
                #expect(error.kind == .usage, "\(error.kind)")
                #expect(error.message == "--name: '\(name)' reads as a length, so 'wake snooze \(name)' would be a snooze of that length; "
                        + "give a name that is not a length, as 'nap-\(name)'")
            }
        }
        #expect(try w.context.store.load().isEmpty)
        #expect(try w.add(["06:30"], name: "nap-20m") == .done && w.add(["06:31"], name: "m20") == .done)
    }

    @Test("the daemon: a stored --snooze-long reaches its engine; a wall-clock snooze of a standing alarm is recorded and rings at its time")
    func daemonLongAndUntil() throws {
        typealias D = DaemonControllerTests
        let d = try D.Daemon(alarms: [D.daily("work", 7, options: ["snooze": "5m", "snooze-long": "25m"]), D.daily("gym", 7, 30)])
        try d.start()
        #expect(d.controller?.settings(of: "work").snoozeLong == .seconds(25 * 60))
        #expect(d.controller?.settings(of: "gym").snoozeLong == Defaults.snooze * 2, "twice --snooze when not given")
        d.advance(by: .seconds(8 * 3600))  // 07:00: work rings
        d.runner.command(.snooze, by: .notification, alarm: "work", length: .long)
        d.controller?.applyPending()
        #expect(try d.record("work")?.snoozedUntil == RunnerTests.morning + .seconds(25 * 60))
        d.advance(by: .seconds(25 * 60))
        #expect(d.runner.isRinging)
        // Until 07:40 on the wall clock: the history says so, and it rings then, not before.
        let until = RunnerTests.morning + .seconds(40 * 60)
        d.runner.command(.snooze, by: .control("wake snooze"), alarm: "work", length: .until(until))
        d.controller?.applyPending()
        #expect(try d.record("work")?.snoozedUntil == until)
        d.advance(by: .seconds(15 * 60 - 1))
        #expect(d.runner.state(of: "work").map { if case .snoozed = $0 { true } else { false } } == true)
        d.advance(by: .seconds(1))
        #expect(d.runner.state(of: "work").map { if case .ringing = $0 { true } else { false } } == true)
    }
}
