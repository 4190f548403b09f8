import Testing
import WakeCore
import WakeEngine
import WakeRuntime
import WakeSystem

/// `--snooze-volume`: the ring after a snooze plays at it (a fade-in rising to it), the first
/// ring at the alarm's own volume; unset, every ring is at the alarm's. And its value checked
/// by the option table, as the command line, both files and the D-Bus API check it.
@Suite("Snooze volume")
struct SnoozeVolumeTests {
    static func armed(snoozeVolume: String?, fadeIn: String = "0") throws -> (FakeWorld, Runner) {
        let world = FakeWorld(realtime: RunnerTests.evening)
        let (runner, _) = RunnerTests.runner(world)
        var values = ["device": "null", "volume": "80", "fade-in": fadeIn, "snooze": "5m"]
        values["snooze-volume"] = snoozeVolume
        let settings = try RingSettings(values: values)
        let setup = AlarmSetup(id: "alarm", deadline: Deadline(instant: RunnerTests.morning, clock: .wall), resolvedAt: world.now(),
                               settings: settings.engine, ring: settings.request(sound: try RunnerTests.tone(), kind: .user))
        try runner.arm(setup)
        return (world, runner)
    }

    @Test("after a snooze the ring resumes at the snooze volume, and every later ring too")
    func resumesAtSnoozeVolume() throws {
        let (world, runner) = try Self.armed(snoozeVolume: "30")
        world.advance(by: RunnerTests.morning - world.realtime)
        #expect(world.startedVolumes == [80], "the first ring is at the alarm's volume")
        runner.command(.snooze, by: .key("s"))
        world.advance(by: .seconds(300))
        #expect(runner.isRinging)
        #expect(world.startedVolumes == [80, 30])
        #expect(world.preparedVolumes.last == 30, "the pre-roll before the snooze's end opens the device for the snooze volume's ring")
        runner.command(.snooze, by: .key("s"))
        world.advance(by: .seconds(300))
        #expect(world.startedVolumes == [80, 30, 30])
    }

    @Test("with a fade-in the ring after a snooze fades in again, to the snooze volume")
    func fadesToSnoozeVolume() throws {
        let (world, runner) = try Self.armed(snoozeVolume: "40", fadeIn: "30s")
        world.advance(by: RunnerTests.morning - world.realtime)
        runner.command(.snooze, by: .key("s"))
        world.advance(by: .seconds(300))
        #expect(world.startedVolumes == [80, 40])
        #expect(world.startedFades == [.seconds(30), .seconds(30)])
    }

    @Test("unset: the ring after a snooze is at the alarm's volume")
    func unsetKeepsVolume() throws {
        let (world, runner) = try Self.armed(snoozeVolume: nil)
        world.advance(by: RunnerTests.morning - world.realtime)
        runner.command(.snooze, by: .key("s"))
        world.advance(by: .seconds(300))
        #expect(world.startedVolumes == [80, 80])
    }

    @Test("0, 101 and abc are refused with the option and what it takes")
    func refusesBadValues() throws {
        let expected = ["0": "--snooze-volume 0: the ring after a snooze would be silent; "
                            + "give a volume from 1 to 100, or leave it out for the alarm's",
                        "101": "--snooze-volume: invalid value '101'; give a whole number from 1 to 100",
                        "abc": "--snooze-volume: invalid value 'abc'; give a whole number from 1 to 100"]
        for (value, message) in expected {
            let direct = #expect(throws: WakeFailure.self) { _ = try RingSettings(values: ["snooze-volume": value]) }
            #expect(direct?.message == message && direct?.kind == .usage, "\(value): \(direct?.message ?? "")")
            // The same rules through the path `wake add` and the D-Bus API's Add take (under config.toml).
            let layered = #expect(throws: WakeFailure.self) {
                _ = try RingSettings(layering: ["snooze-volume": value], under: ConfigDefaults(), given: ["--snooze-volume"])
            }
            #expect(layered?.message == message, "\(value): \(layered?.message ?? "")")
        }
        #expect(try RingSettings(values: ["snooze-volume": "1"]).request(sound: try RunnerTests.tone(), kind: .user).snoozeVolume == 1)
    }

    @Test("a stored snooze volume the daemon would refuse is set aside alone: the alarm rings after a snooze at its own volume")
    func storedBadValueSetAside() throws {
        let read = try RingSettings.tolerating(stored: ["snooze-volume": "0", "volume": "70"])
        #expect(read.settings.volume == 70)
        #expect(read.settings.number(.snoozeVolume) == nil)
        #expect(read.adjustments.map(\.option) == ["snooze-volume"])
    }
}
