import Testing
import WakeCore
import WakeEngine
import WakeRuntime
import WakeSystem

/// `--check-up` through the runner on the fake clock: the quiet ring's level, the alarm rung
/// again at its own after no answer; and the option's checks.
@Suite("Are you up? The runner and the settings")
struct CheckUpRunnerTests {
    @Test("stopped at 07:00:30, asked quietly at 07:05:30, unanswered: the alarm rings again at its own volume at 07:06:30")
    func unansweredMorning() throws {
        let (world, runner, recorder) = try UnattendedRunnerTests.armed(["check-up": "5m"])
        world.advance(by: RunnerTests.morning - world.realtime + .seconds(30))
        runner.command(.stop, by: .key("q"))
        #expect(!runner.isRinging && runner.outcome(of: "alarm") == nil)
        world.advance(by: .seconds(5 * 60))
        #expect(runner.isRinging && world.startedVolumes == [40, 8], "the question at a fifth of the alarm's volume")
        world.advance(by: Defaults.checkUpWindow)
        #expect(runner.isRinging && world.startedVolumes == [40, 8, 40])
        runner.command(.stop, by: .key("q"))
        #expect(runner.outcome(of: "alarm") == .stopped(by: .key("q")))
        let names = recorder.names.filter { $0.hasPrefix("checkUp") || $0 == "ringStarted" || $0 == "stopped" || $0 == "ringing" }
        #expect(names == ["ringStarted", "ringing", "checkUpSet", "checkUp", "checkUpUnanswered", "ringStarted", "ringing", "stopped"])
    }

    @Test("answered by the notification's I'm up: the alarm ends, stopped by it")
    func answered() throws {
        let (world, runner, _) = try UnattendedRunnerTests.armed(["check-up": "1m"])
        world.advance(by: RunnerTests.morning - world.realtime)
        runner.command(.stop, by: .key("q"))
        world.advance(by: .seconds(70))
        runner.command(.upAlready, by: .notification)
        #expect(runner.outcome(of: "alarm") == .stopped(by: .notification) && !runner.isRinging)
    }

    @Test("bad values refused with one line; a stored one set aside alone")
    func badValues() throws {
        for (value, message) in [("500ms", "--check-up 500ms is shorter than a second; give 1s or more, or 0 for none"),
                                 ("13h", "--check-up 13h is longer than 12h, the longest it may be; give 12h or less")] {
            let refused = #expect(throws: WakeFailure.self) { _ = try RingSettings(values: ["check-up": value]) }
            #expect(refused?.message == message && refused?.kind == .usage, "\(value): \(refused?.message ?? "")")
        }
        let read = try RingSettings.tolerating(stored: ["check-up": "x", "volume": "70"])
        #expect(read.settings.volume == 70 && read.settings.engine.checkUp == .zero && read.adjustments.map(\.option) == ["check-up"])
        #expect(try RingSettings(values: [:]).engine.checkUp == .zero, "off by default")
    }
}
