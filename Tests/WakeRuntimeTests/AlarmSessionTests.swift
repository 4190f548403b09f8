import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeEngine
@testable import WakeRuntime
@testable import WakeSystem
@testable import WakeTestSupport

/// A whole session in-process (issue 38): its loop, its attachments and how it ends, with the
/// runner on a fake clock and output. A script attachment plays the night, one step before each
/// wait, and keeps the loop turning with a descriptor that is always readable.
@Suite("Alarm session in-process")
struct AlarmSessionTests {
    /// Plays `steps`, one before each poll, and records what the session asked of it.
    final class Script: SessionAttachment {
        var steps: [(SessionContext) -> Void]
        private(set) var calls: [String] = []
        private var pipe: [Int32] = [-1, -1]
        init(_ steps: [(SessionContext) -> Void]) { self.steps = steps }

        func start(in session: SessionContext) {
            calls.append("start")
            // Always readable: the loop never sleeps while the script plays.
            _ = Glibc.pipe(&pipe)
            var one: UInt8 = 1
            _ = write(pipe[1], &one, 1)
            _ = session.reactor.register(fd: pipe[0]) { _ in }
            self.session = session
        }
        private var session: SessionContext?

        func beforePoll() {
            calls.append("beforePoll")
            guard !steps.isEmpty, let session else { return }
            steps.removeFirst()(session)
        }

        func stop() {
            calls.append("stop")
            close(pipe[0])
            close(pipe[1])
        }
    }

    static func session(_ mode: AlarmSession.Mode, world: FakeWorld, lines: Console.LineCapture) throws -> AlarmSession {
        try AlarmSession(mode: mode, zone: .utc, console: Console(capturing: lines), log: nil, signals: try SignalChannel(),
                         inhibitor: .off, alarmTimers: nil, settings: AlarmEngine.Settings(),
                         world: AlarmSession.World(clock: world, timers: world, output: world))
    }

    static var plan: WakeSystemPlan { WakeSystemPlan(mode: .off, alarmTimers: nil, clocks: [], warning: nil) }

    @Test("a one-off: armed, the morning comes, a snooze, a stop; the attachments start once, turn, and stop once; the result is the outcome")
    func oneOffNight() throws {
        let world = FakeWorld(realtime: RunnerTests.evening)
        let lines = Console.LineCapture()
        let session = try Self.session(.oneOff, world: world, lines: lines)
        let script = Script([
            { _ in world.advance(by: .seconds(8 * 3600)) },                   // 07:00: it rings
            { s in s.runner.command(.snooze, by: .key("s")) },
            { _ in world.advance(by: .seconds(9 * 60)) },                     // the snooze ends
            { s in s.runner.command(.stop, by: .key("x")) },
        ])
        session.attach(script)
        let recorder = EventRecorder()
        session.runner.observe(with: recorder)
        let result = session.run(try RunnerTests.setup(world), spec: .timeOfDay(hour: 7, minute: 0, second: 0), wake: Self.plan)
        #expect(result == .rang(.stopped(by: .key("x"))), "\(result)")
        #expect(script.calls.first == "start" && script.calls.last == "stop")
        #expect(script.calls.filter { $0 == "start" }.count == 1 && script.calls.filter { $0 == "stop" }.count == 1)
        #expect(recorder.names.contains("snoozed") && world.started.count == 2, "rang, snoozed, rang again: \(recorder.names)")
        #expect(lines.lines.contains { $0.contains("snoozed") }, "the console said the snooze: \(lines.lines)")
    }

    /// A one-off session on the fake world, its lines captured: what the Ctrl-Z tests drive.
    static func oneOff(_ world: FakeWorld, _ lines: Console.LineCapture, settings: AlarmEngine.Settings,
                       log: EventLog? = nil) throws -> AlarmSession {
        try AlarmSession(mode: .oneOff, zone: .utc, console: Console(capturing: lines), log: log, signals: try SignalChannel(),
                         inhibitor: .off, alarmTimers: nil, settings: settings,
                         world: AlarmSession.World(clock: world, timers: world, output: world))
    }

    @Test("""
        Ctrl-Z while ringing never stops the process: under --challenge refused and said, it rings on; \
        without, a snooze; each a ctrl_z event
        """, arguments: [true, false])
    func ctrlZWhileRinging(challenge: Bool) throws {
        let dir = try TestDirectory()
        let log = try EventLog(path: dir.file("events.jsonl"), zone: .utc)
        let world = FakeWorld(realtime: RunnerTests.evening)
        let lines = Console.LineCapture()
        let settings = AlarmEngine.Settings(challenge: challenge)
        let session = try Self.oneOff(world, lines, settings: settings, log: log)
        var ringingAfter: Bool?
        session.attach(Script([
            { _ in world.advance(by: .seconds(8 * 3600)) },                   // 07:00: it rings
            { _ in session.handleSignals([SIGTSTP]) },                        // Ctrl-Z
            { s in ringingAfter = s.runner.isRinging },
            { s in s.runner.command(.stop, by: .control("wake stop")) },
        ]))
        let result = session.run(try RunnerTests.setup(world, settings: settings), spec: .timeOfDay(hour: 7, minute: 0, second: 0),
                                 wake: Self.plan)
        #expect(result == .rang(.stopped(by: .control("wake stop"))), "never stopped or left silent: \(result)")
        let events = ChildProcess.read(dir.file("events.jsonl"))
        if challenge {
            #expect(ringingAfter == true, "it rings on")
            #expect(lines.lines.contains { $0.hasPrefix("Ctrl-Z does not pause a ringing alarm under --challenge; solve the sum (") },
                    "\(lines.lines)")
            #expect(events.contains("\"event\":\"ctrl_z\"") && events.contains("\"result\":\"refused\"") && !events.contains("\"snoozed\""),
                    "\(events)")
        } else {
            #expect(ringingAfter == false, "snoozed")
            #expect(lines.lines.contains("Ctrl-Z does not pause a ringing alarm: it snoozes it, as s does"), "\(lines.lines)")
            #expect(events.contains("\"event\":\"snoozed\"") && events.contains("\"result\":\"snoozed\""), "\(events)")
        }
    }

    @Test("Ctrl-Z while a --challenge alarm is snoozed is refused and said: the process is not stopped, and the snooze rings again")
    func ctrlZWhileSnoozedUnderChallenge() throws {
        let world = FakeWorld(realtime: RunnerTests.evening)
        let lines = Console.LineCapture()
        let settings = AlarmEngine.Settings(challenge: true)
        let session = try Self.oneOff(world, lines, settings: settings)
        var ringsAgain: Bool?
        session.attach(Script([
            { _ in world.advance(by: .seconds(8 * 3600)) },                   // 07:00: it rings
            { s in s.runner.command(.snooze, by: .key("s")) },                // snoozed (a challenge leaves the snooze keys)
            { _ in session.handleSignals([SIGTSTP]) },                        // Ctrl-Z while snoozed
            { _ in world.advance(by: .seconds(9 * 60)) },                     // the snooze ends
            { s in ringsAgain = s.runner.isRinging },
            { s in s.runner.command(.stop, by: .control("wake stop")) },
        ]))
        let result = session.run(try RunnerTests.setup(world, settings: settings), spec: .timeOfDay(hour: 7, minute: 0, second: 0),
                                 wake: Self.plan)
        #expect(result == .rang(.stopped(by: .control("wake stop"))), "\(result)")
        #expect(ringsAgain == true, "the snooze rang again: the process was never stopped")
        #expect(lines.lines.contains("Ctrl-Z does not stop wake while a --challenge alarm is snoozed: it rings again when the snooze ends"),
                "\(lines.lines)")
    }

    @Test("Ctrl-Z while the pre-alarm rings stops the quiet ring, as a key does; the alarm stays set and rings")
    func ctrlZWhilePreRinging() throws {
        let world = FakeWorld(realtime: RunnerTests.evening)
        let lines = Console.LineCapture()
        let settings = AlarmEngine.Settings(challenge: true, preAlarm: PreAlarm(lead: .seconds(600), percent: 25))
        let session = try Self.oneOff(world, lines, settings: settings)
        var afterCtrlZ: AlarmEngine.State?
        session.attach(Script([
            { _ in world.advance(by: .seconds(8 * 3600 - 300)) },             // 06:55: the quiet ring
            { _ in session.handleSignals([SIGTSTP]) },
            { s in afterCtrlZ = s.runner.state(of: "alarm") },
            { _ in world.advance(by: .seconds(300)) },                        // 07:00: the alarm itself
            { s in s.runner.command(.stop, by: .control("wake stop")) },
        ]))
        let result = session.run(try RunnerTests.setup(world, settings: settings), spec: .timeOfDay(hour: 7, minute: 0, second: 0),
                                 wake: Self.plan)
        if case .armed? = afterCtrlZ {} else { Issue.record("the alarm stays set: \(String(describing: afterCtrlZ))") }
        #expect(lines.lines.contains("Ctrl-Z does not pause a ringing alarm: the quiet ring stops, as a key does"), "\(lines.lines)")
        #expect(result == .rang(.stopped(by: .control("wake stop"))), "\(result)")
    }

    @Test("ring-for ends an unstopped ring: the result is timed out")
    func ringForEnds() throws {
        let world = FakeWorld(realtime: RunnerTests.evening)
        let session = try Self.session(.oneOff, world: world, lines: Console.LineCapture())
        session.attach(Script([{ _ in world.advance(by: .seconds(8 * 3600)) }, { _ in world.advance(by: .seconds(11 * 60)) }]))
        let result = session.run(try RunnerTests.setup(world), spec: .timeOfDay(hour: 7, minute: 0, second: 0), wake: Self.plan)
        #expect(result == .rang(.timedOut), "\(result)")
    }

    @Test("the daemon: a ringing alarm stops with it when another daemon takes over; done")
    func daemonEnds() throws {
        let world = FakeWorld(realtime: RunnerTests.evening)
        let session = try Self.session(.daemon, world: world, lines: Console.LineCapture())
        try session.runner.arm(RunnerTests.setup(world, id: "work"))
        session.attach(Script([
            { _ in world.advance(by: .seconds(8 * 3600)) },
            { _ in session.endDaemon(because: "a wake daemon that took over") },
        ]))
        #expect(session.runDaemon() == .done)
        #expect(session.runner.isFinished, "what rang stopped with the daemon")
    }
}
