import Testing
import WakeCore
import WakeEngine
import WakeSystem

/// `--light` on the fake clock: when the runner asks the light for what, across a whole
/// sunrise, a flash, a snooze, a pre-alarm, two alarms and the end.
@Suite("Runner: the screen's light before and while it rings")
struct LightRunnerTests {
    /// What the runner asked, with the fake clock's wall time of each ask.
    final class RecordingLight: LightOutput {
        var onProblem: ((String) -> Void)?
        let world: FakeWorld
        private(set) var shown: [(at: Instant, share: Double)] = []
        private(set) var restores: [Instant] = []
        private(set) var settled = 0
        init(_ world: FakeWorld) { self.world = world }
        func show(_ share: Double) { shown.append((world.realtime, share)) }
        func restore() { restores.append(world.realtime) }
        func settle(within limit: Duration) { settled += 1 }
    }

    /// A runner on a fake world at `now` whose light records what it is asked.
    static func litRunner(at now: Instant = RunnerTests.evening) -> (FakeWorld, Runner, RecordingLight) {
        let world = FakeWorld(realtime: now)
        let (runner, _) = RunnerTests.runner(world)
        let light = RecordingLight(world)
        runner.light = light
        return (world, runner, light)
    }

    static func lit(_ plan: LightPlan, settings: AlarmEngine.Settings = .init()) throws -> (FakeWorld, Runner, RecordingLight) {
        let (world, runner, light) = litRunner()
        var setup = try RunnerTests.setup(world, settings: settings)
        setup.light = plan
        try runner.arm(setup)
        return (world, runner, light)
    }

    @Test("a sunrise of 20 minutes starts 20 minutes before the ring, rises step by step, and is full at the ring")
    func sunriseRises() throws {
        let (world, runner, light) = try Self.lit(LightPlan(sunrise: .seconds(1200)))
        world.advance(by: RunnerTests.morning - world.realtime - .seconds(1201))
        #expect(light.shown.isEmpty)
        world.advance(by: .seconds(1))
        #expect(light.shown.first?.at == RunnerTests.morning - .seconds(1200) && light.shown.first?.share == 0)
        world.advance(by: .seconds(1199))
        #expect(!runner.isRinging)
        let shares = light.shown.map(\.share)
        #expect(shares == shares.sorted() && shares.count >= 190 && shares.count <= 202, "\(shares.count) steps")
        #expect(light.shown.allSatisfy { $0.at >= RunnerTests.morning - .seconds(1200) && $0.at < RunnerTests.morning })
        world.advance(by: .seconds(1))
        #expect(runner.isRinging && light.shown.last?.share == 1)
        #expect(light.restores.isEmpty)
        runner.command(.cancel, by: .key("x"))
        #expect(light.restores == [RunnerTests.morning])
        // Nothing more after the end: no step, no flash.
        let count = light.shown.count
        world.advance(by: .seconds(60))
        #expect(light.shown.count == count)
    }

    @Test("a flash alternates lit and low each second while it rings; a snooze puts the light back, the next ring flashes again")
    func flashAndSnooze() throws {
        let (world, runner, light) = try Self.lit(LightPlan(flash: true))
        world.advance(by: RunnerTests.morning - world.realtime)
        #expect(runner.isRinging && light.shown.map(\.share) == [1])
        world.advance(by: .seconds(4))
        #expect(light.shown.map(\.share) == [1, 0, 1, 0, 1])
        runner.command(.snooze, by: .key("s"))
        #expect(light.restores.count == 1)
        world.advance(by: .seconds(60))
        #expect(light.shown.count == 5, "no flash while snoozed")
        world.advance(by: .seconds(8 * 60))
        #expect(runner.isRinging && light.shown.last?.share == 1 && light.shown.count == 6)
        runner.shutDown()
        #expect(light.restores.count == 2 && light.settled == 1)
    }

    @Test("a sunrise goes on through the pre-alarm, and one armed later than its start begins part-way")
    func preAlarmAndLateStart() throws {
        var settings = AlarmEngine.Settings()
        settings.preAlarm = PreAlarm(lead: .seconds(300), percent: 20)
        let (world, runner, light) = try Self.lit(LightPlan(sunrise: .seconds(600)), settings: settings)
        world.advance(by: RunnerTests.morning - world.realtime - .seconds(200))
        #expect(runner.state(of: "alarm").map { if case .preRinging = $0 { true } else { false } } == true)
        #expect(light.restores.isEmpty && light.shown.last.map { abs($0.share - 400.0 / 600) < 0.01 } == true)

        let (late, runner2, light2) = Self.litRunner(at: RunnerTests.morning - .seconds(60))
        var setup = try RunnerTests.setup(late)
        setup.light = LightPlan(sunrise: .seconds(600))
        try runner2.arm(setup)
        late.advance(by: .zero)
        #expect(light2.shown.first.map { abs($0.share - 0.9) < 0.001 } == true)
    }

    @Test("two lit alarms: the first to start lights the screen; the other does not take it over")
    func oneAtATime() throws {
        let (world, runner, light) = Self.litRunner()
        var first = try RunnerTests.setup(world, id: "first")
        first.light = LightPlan(sunrise: .seconds(600))
        var second = try RunnerTests.setup(world, id: "second", at: RunnerTests.morning + .seconds(120))
        second.light = LightPlan(flash: true)
        try runner.arm(first)
        try runner.arm(second)
        world.advance(by: RunnerTests.morning - world.realtime + .seconds(121))
        #expect(runner.isRinging)
        // The second's ring flashes nothing while the first still lights the screen.
        let shares = light.shown.map(\.share)
        #expect(shares == shares.sorted() && shares.last == 1)
        runner.command(.cancel, by: .key("x"), alarm: "first")
        #expect(light.restores.count == 1)
    }

    @Test("an alarm without --light, or a runner without a light, asks nothing")
    func unlit() throws {
        let (world, runner, light) = Self.litRunner()
        try runner.arm(RunnerTests.setup(world))
        world.advance(by: RunnerTests.morning - world.realtime + .seconds(5))
        runner.command(.cancel, by: .key("x"))
        #expect(light.shown.isEmpty && light.restores.isEmpty)
    }
}

extension LightRunnerTests {
    typealias D = DaemonControllerTests

    @Test("the daemon: a stored --light gives the sunrise before 07:00; a stored value it cannot read is set aside, and it rings")
    func daemon() throws {
        let d = try D.Daemon(alarms: [D.daily("work", 7, options: ["light": "sunrise:10m"]),
                                      D.daily("odd", 7, 30, options: ["light": "dawn"])])
        let light = RecordingLight(d.world)
        d.runner.light = light
        try d.start()
        #expect(d.runner.setup(of: "work")?.light == LightPlan(sunrise: .seconds(600)))
        #expect(d.runner.setup(of: "odd")?.light == nil && d.runner.setup(of: "odd") != nil)
        #expect(d.lines.lines.contains { $0.contains("light") && $0.contains("dawn") }, "\(d.lines.lines)")
        d.advance(by: RunnerTests.morning - d.world.realtime - .seconds(600))
        #expect(light.shown.first?.share == 0)
        d.advance(by: .seconds(600))
        #expect(d.runner.isRinging && light.shown.last?.share == 1)
        #expect(d.recorder.names.filter { $0 == "sunrise" }.count == 1, "said once, as it starts: \(d.recorder.names)")
    }
}
