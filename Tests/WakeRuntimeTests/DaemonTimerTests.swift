import Foundation
import Testing
import WakeCore
import WakeRuntime
@testable import WakeTestSupport

/// The daemon's controller with timers, on the fake clock: a repeating timer's next round starts
/// when its ring is stopped, and a paused one is kept and not armed.
@Suite("Daemon controller: timers")
struct DaemonTimerTests {
    static func timer(_ name: String, at: Instant?, remaining: Duration? = nil, repeats: Bool = false) -> StandingAlarm {
        var a = StandingAlarm(name: name, hour: 0, minute: 0, second: 0, days: 0, date: nil, options: [:], created: RunnerTests.evening,
                              timer: StandingTimer(span: .seconds(240), remaining: remaining, repeats: repeats))
        a.at = at
        return a
    }

    @Test("a repeating 4m timer rings, is stopped, and its next round is written 4m from the stop and rings; a paused one waits")
    func repeatsAfterStopAndPausedWaits() throws {
        let start = RunnerTests.evening
        let d = try DaemonControllerTests.Daemon(alarms: [Self.timer("tea", at: start + .seconds(240), repeats: true),
                                                          Self.timer("egg", at: nil, remaining: .seconds(60))])
        try d.start()
        d.advance(by: .seconds(240))
        #expect(d.runner.isRinging)
        d.advance(by: .seconds(10))
        d.stop("tea")
        d.controller?.applyPending()
        let tea = try #require(try d.store.load().first { $0.name == "tea" })
        #expect(tea.at == start + .seconds(490) && tea.created == start + .seconds(250), "\(tea)")
        d.controller?.requestReload()
        d.controller?.applyPending()
        d.advance(by: .seconds(240))
        #expect(d.runner.isRinging, "the next round rang")
        let egg = try #require(try d.store.load().first { $0.name == "egg" }, "a paused timer is kept")
        #expect(egg.timer?.remaining == .seconds(60) && d.controller?.occurrence(of: "egg") == nil)
    }
}
