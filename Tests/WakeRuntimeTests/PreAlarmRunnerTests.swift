import Testing
import WakeCore
import WakeEngine
import WakeSystem

/// The pre-alarm through the runner: the quiet ring plays lead before the deadline at its share
/// of the volume, and the alarm's own ring takes the output at the deadline.
@Suite("Pre-alarm in the runner")
struct PreAlarmRunnerTests {
    static let settings = AlarmEngine.Settings(preAlarm: PreAlarm(lead: .seconds(600), percent: 25))

    static func armed() throws -> (FakeWorld, Runner, EventRecorder) {
        let world = FakeWorld(realtime: RunnerTests.evening)
        let (runner, recorder) = RunnerTests.runner(world)
        var setup = try RunnerTests.setup(world, settings: settings)
        setup.ring.volume = 80
        try runner.arm(setup)
        return (world, runner, recorder)
    }

    @Test("the pre-ring starts lead before the deadline at 25 % of the volume; the alarm rings at its deadline at its own")
    func preThenMain() throws {
        let (world, runner, recorder) = try Self.armed()
        world.advance(by: RunnerTests.morning - world.realtime - .seconds(601))
        #expect(world.startedVolumes.isEmpty)
        world.advance(by: .seconds(1))
        #expect(world.startedVolumes == [20])
        #expect(!runner.isRinging)  // the alarm itself does not ring yet
        #expect(recorder.names.contains("preRingStarted"))
        #expect(!recorder.names.contains("ringing"))
        #expect(runner.nextWall(of: "alarm") == RunnerTests.morning)
        world.advance(by: .seconds(599))
        #expect(!runner.isRinging)
        world.advance(by: .seconds(1))
        #expect(runner.isRinging)
        #expect(world.realtime == RunnerTests.morning)
        #expect(world.startedVolumes == [20, 80])
        #expect(world.stops == 1)  // the pre-ring gave the output up
        #expect(recorder.names.filter { $0 == "ringing" }.count == 1)
    }

    @Test("a key stops the pre-ring; the alarm stays set and rings at its deadline")
    func stopKeepsMain() throws {
        let (world, runner, recorder) = try Self.armed()
        world.advance(by: RunnerTests.morning - world.realtime - .seconds(300))
        runner.command(.stop, by: .key("x"), activeOnly: true)
        #expect(world.stops == 1)
        #expect(recorder.names.contains("preRingStopped"))
        #expect(runner.outcome(of: "alarm") == nil)
        world.advance(by: .seconds(300))
        #expect(runner.isRinging)
        #expect(world.startedVolumes == [20, 80])
    }

    @Test("up already during the pre-ring: it stops and the alarm never rings")
    func upAlready() throws {
        let (world, runner, _) = try Self.armed()
        world.advance(by: RunnerTests.morning - world.realtime - .seconds(300))
        runner.command(.upAlready, by: .key("u"), activeOnly: true)
        #expect(runner.outcome(of: "alarm") == .upAlready(by: .key("u")))
        world.advance(by: .seconds(3600))
        #expect(world.startedVolumes == [20])
        #expect(!runner.isRinging)
    }

    @Test("two alarms: a ring always has the output; a pre-ring waits for it to end, and gives way to another alarm's ring")
    func sharesTheOutput() throws {
        let world = FakeWorld(realtime: RunnerTests.evening)
        let (runner, _) = RunnerTests.runner(world)
        // A rings at 07:00 for 10 minutes at 100; B pre-rings from 07:05 (at 25) and rings at 07:15.
        try runner.arm(RunnerTests.setup(world, id: "a", settings: AlarmEngine.Settings(ringFor: .seconds(600))))
        try runner.arm(RunnerTests.setup(world, id: "b", at: RunnerTests.morning + .seconds(900), settings: Self.settings))
        world.advance(by: RunnerTests.morning - world.realtime)
        #expect(world.startedVolumes == [100])
        world.advance(by: .seconds(300))
        #expect(world.startedVolumes == [100], "B's pre-ring waits while A rings")
        #expect(runner.state(of: "b").map { if case .preRinging = $0 { true } else { false } } == true)
        runner.command(.stop, by: .key("x"), alarm: "a")
        #expect(world.startedVolumes == [100, 25], "A stopped: B's pre-ring plays")
        world.advance(by: .seconds(600))
        #expect(world.startedVolumes == [100, 25, 100], "B's own ring at 07:15")
        #expect(runner.isRinging)
    }
}
