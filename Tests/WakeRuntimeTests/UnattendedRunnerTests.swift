import Testing
import WakeCore
import WakeEngine
import WakeRuntime
import WakeSystem

/// `--unattended` and `--escalate` through the runner, on the fake clock: a whole unanswered
/// morning in milliseconds, each round's level and sound as the output was asked for it; and the
/// options' defaults (a one-off stops, a standing alarm snoozes), config.toml and a stored bad value.
@Suite("Unattended rings: the runner and the settings")
struct UnattendedRunnerTests {
    static func armed(_ values: [String: String], standing: Bool = false) throws -> (FakeWorld, Runner, EventRecorder) {
        let world = FakeWorld(realtime: RunnerTests.evening)
        let (runner, recorder) = RunnerTests.runner(world)
        let settings = try RingSettings(values: ["device": "null", "volume": "40"].merging(values) { $1 })
        let setup = AlarmSetup(id: "alarm", deadline: Deadline(instant: RunnerTests.morning, clock: .wall), resolvedAt: world.now(),
                               settings: settings.engine(standing: standing),
                               ring: settings.request(sound: try RunnerTests.tone(), kind: .user))
        try runner.arm(setup)
        return (world, runner, recorder)
    }

    @Test("a standing alarm's unanswered morning: three rounds at 40, 70 and 100 %, the last on wake's built-in sound; then timed out")
    func wholeUnansweredMorning() throws {
        let (world, runner, recorder) = try Self.armed(["escalate": "on"], standing: true)
        world.advance(by: RunnerTests.morning - world.realtime)
        #expect(runner.isRinging)
        // 07:00 + 10m ring + 9m snooze, twice, + the last 10m ring.
        world.advance(by: .seconds(48 * 60 + 1))
        #expect(world.startedVolumes == [40, 70, 100])
        #expect(world.startedBuiltIn == [false, false, true])
        #expect(runner.outcome(of: "alarm") == .timedOut)
        let rounds = recorder.events.compactMap { e -> (UnansweredRing, Instant?)? in
            if case .unanswered(let news, let next) = e.kind { return (news, next) } else { return nil }
        }
        #expect(rounds.map(\.0.round) == [2, 3] && rounds.allSatisfy { $0.0.of == 3 && $0.0.mode == .snooze })
        #expect(rounds.first?.1 == RunnerTests.morning + .seconds(19 * 60), "round 2 at 07:19")
        let names = recorder.names.filter { ["ringStarted", "unanswered", "snoozed", "timedOut"].contains($0) }
        #expect(names == ["ringStarted", "unanswered", "snoozed", "ringStarted", "unanswered", "snoozed", "ringStarted", "timedOut"])
        let by = recorder.events.compactMap { e -> Requester? in if case .snoozed(_, let who) = e.kind { who } else { nil } }
        #expect(by == [.unattended, .unattended])
        #expect(runner.snoozes(of: "alarm")?.used == 0, "nobody's snoozes are not the sleeper's")
    }

    @Test("the pre-roll before a round opens the device for that round's level")
    func prerollAtRoundLevel() throws {
        let (world, runner, _) = try Self.armed(["unattended": "snooze", "escalate": "on"])
        world.advance(by: RunnerTests.morning - world.realtime + .seconds(10 * 60 + 9 * 60))
        #expect(world.preparedVolumes.last == 70 && runner.isRinging)
    }

    @Test("ring: on past --ring-for at 100 % on the built-in sound, until the late limit")
    func ringsOn() throws {
        let (world, runner, recorder) = try Self.armed(["unattended": "ring", "escalate": "on", "late-limit": "30m"])
        world.advance(by: RunnerTests.morning - world.realtime + .seconds(10 * 60 + 1))
        #expect(runner.isRinging && world.startedVolumes == [40, 100] && world.startedBuiltIn == [false, true] && world.stops == 1)
        world.advance(by: .seconds(20 * 60))
        #expect(runner.outcome(of: "alarm") == .timedOut && !runner.isRinging)
        #expect(recorder.names.filter { $0 == "unanswered" }.count == 1)
    }

    @Test("wake list says the round of an unanswered alarm")
    func listed() throws {
        let settings = AlarmEngine.Settings(snooze: .seconds(9 * 60), ringFor: .seconds(10 * 60), unattended: Unattended(mode: .snooze))
        let w = try ChosenSnoozeSessionTests.World(at: RunnerTests.morning, evening: RunnerTests.evening, zone: .utc, settings: settings)
        defer { w.endpoint.stop() }
        w.session.world.advance(by: .seconds(8 * 3600 + 10 * 60))
        var listed = try w.list()
        #expect(listed.text.contains("snoozed until 07:19 (unanswered, round 2 of 3)"), "\(listed.text)")
        w.session.world.advance(by: .seconds(9 * 60))
        listed = try w.list()
        #expect(listed.text.contains("ringing (unanswered, round 2 of 3)"), "\(listed.text)")
    }

    @Test("a one-off stops by default (exit 4 stays); a standing alarm snoozes 3 rounds; config.toml sets both")
    func defaults() throws {
        let plain = try RingSettings(values: [:])
        #expect(plain.engine.unattended == Unattended(mode: .stop, rounds: 3, escalate: false))
        #expect(plain.engine(standing: true).unattended == Unattended(mode: .snooze, rounds: 3, escalate: false))
        let config = ConfigDefaults(entries: [ConfigFile.Entry(key: "unattended", value: "ring", line: 1),
                                              ConfigFile.Entry(key: "escalate", value: "on", line: 2)])
        let layered = try RingSettings(layering: [:], under: config, given: [])
        #expect(layered.engine.unattended == Unattended(mode: .ring, rounds: 3, escalate: true))
        let stored = try RingSettings.tolerating(stored: ["unattended-rounds": "5"], defaults: config).settings
        #expect(stored.engine(standing: true).unattended == Unattended(mode: .ring, rounds: 5, escalate: true))
    }

    @Test("bad values are refused with one line; a stored one is set aside alone and the alarm snoozes as a standing alarm does")
    func badValues() throws {
        let expected = ["unattended": ("loud", "--unattended: invalid mode 'loud'; use stop (end, exit 4), snooze (snooze and ring again) "
                                                + "or ring (ring on until the late limit)"),
                        "unattended-rounds": ("0", "--unattended-rounds: invalid value '0'; give a whole number from 1 to 10"),
                        "escalate": ("yes", "--escalate: invalid mode 'yes'; use on (louder each unanswered round) or off")]
        for (key, (value, message)) in expected {
            let refused = #expect(throws: WakeFailure.self) { _ = try RingSettings(values: [key: value]) }
            #expect(refused?.message == message && refused?.kind == .usage, "\(key): \(refused?.message ?? "")")
        }
        let read = try RingSettings.tolerating(stored: ["unattended": "loud", "unattended-rounds": "11", "volume": "70"])
        #expect(read.settings.volume == 70)
        #expect(read.settings.engine(standing: true).unattended == Unattended(mode: .snooze, rounds: 3))
        #expect(read.adjustments.map(\.option) == ["unattended", "unattended-rounds"])
        #expect(read.adjustments.first?.instead == "snoozes and rings again when unanswered (wake's default for a standing alarm)")
    }
}
