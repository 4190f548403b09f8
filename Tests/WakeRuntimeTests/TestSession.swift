import WakeCore
@testable import WakeEngine
@testable import WakeRuntime
import WakeSystem

/// A session for an attachment under test: a real reactor (sockets and buses need one), the
/// runner on a fake clock, timers and output (`FakeWorld`), and a console that keeps its lines.
final class TestSession: SessionContext {
    var isSleepTimer: Bool { false }
    let reactor: Reactor
    let timers: ReactorTimers
    let world: FakeWorld
    let runner: Runner
    let lines = Console.LineCapture()
    let console: Console
    var zone: TimeZoneRules = .utc
    var standing: Bool
    var wakesSystem = false
    var isSilent = false
    private(set) var recorded: [(String, [(String, JSONValue)])] = []

    /// `reactor`: another session's loop, for two processes' sessions turned by one test (a
    /// one-off beside the daemon).
    init(standing: Bool = false, at now: Instant = RunnerTests.evening, reactor: Reactor = Reactor()) {
        self.standing = standing
        self.reactor = reactor
        world = FakeWorld(realtime: now)
        runner = Runner(clock: world, timers: world, output: world)
        timers = ReactorTimers(reactor: reactor)
        console = Console(capturing: lines)
    }

    func deadlineText(of id: String) -> String { runner.nextWall(of: id).map { Formatting.clockTime($0, zone: zone) } ?? "" }
    func record(_ event: String, _ fields: [(String, JSONValue)]) { recorded.append((event, fields)) }

    /// Turns the loop until `done` holds or `limit` passes (real time: sockets are real).
    func turn(until done: () -> Bool, limit: Duration = .seconds(10)) throws {
        let deadline = ContinuousClock.now + limit
        while !done(), ContinuousClock.now < deadline { try reactor.runOnce(timeout: .milliseconds(20)) }
    }
}
