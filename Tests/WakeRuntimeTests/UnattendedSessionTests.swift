import Testing
import WakeCore
@testable import WakeEngine
@testable import WakeRuntime
@testable import WakeSystem

/// A one-off's morning in a whole session on the fake clock: what the console says of each
/// unanswered round and of the check-up, and what the process ends with.
@Suite("Unattended rings and the check-up: the session's lines")
struct UnattendedSessionTests {
    @Test("unanswered, a second round stopped by a key, asked 5 minutes later, unanswered again, stopped: each said; exit as stopped")
    func morningLines() throws {
        let world = FakeWorld(realtime: RunnerTests.evening)
        let lines = Console.LineCapture()
        let settings = AlarmEngine.Settings(unattended: Unattended(mode: .snooze, rounds: 2), checkUp: .seconds(5 * 60))
        let session = try AlarmSessionTests.oneOff(world, lines, settings: settings)
        session.attach(AlarmSessionTests.Script([
            { _ in world.advance(by: .seconds(8 * 3600)) },                   // 07:00: it rings
            { _ in world.advance(by: .seconds(10 * 60)) },                    // unanswered: snoozed to 07:19
            { _ in world.advance(by: .seconds(9 * 60)) },                     // 07:19: round 2
            { s in s.runner.command(.stop, by: .key("x")) },                  // stopped: asks at 07:24
            { _ in world.advance(by: .seconds(5 * 60)) },                     // are you up?
            { _ in world.advance(by: Defaults.checkUpWindow) },               // no answer: it rings again
            { s in s.runner.command(.stop, by: .key("x")) },
        ]))
        let result = session.run(try RunnerTests.setup(world, settings: settings), spec: .timeOfDay(hour: 7, minute: 0, second: 0),
                                 wake: AlarmSessionTests.plan)
        #expect(result == .rang(.stopped(by: .key("x"))), "\(result)")
        let said = lines.lines
        for line in ["rang 10 min unanswered; again at 07:19, round 2 of 2 (--unattended snooze; any key stops it then)",
                     "stopped by key 'x'; at 07:24 it asks once more whether you are up",
                     "no answer: the alarm rings again", "stopped by key 'x'"] {
            #expect(said.contains(line), "\(line): \(said)")
        }
        #expect(said.contains { $0.hasPrefix("are you up? ") && $0.hasSuffix(" by 07:25, or the alarm rings again") }, "\(said)")
        #expect(world.startedVolumes == [100, 100, 20, 100], "two rounds, the quiet question, the alarm again")
    }
}
