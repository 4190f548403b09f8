import Foundation
import Testing
import WakeCore
import WakeRuntime

/// Pause and skip never delete (issue 37 item 11): the daemon used to remove a one-off inside a
/// pause, or skipped, at its next reload, so `wake resume` and `wake skip --undo` had nothing to
/// bring back. Run in-process with the fake clock.
@Suite("Daemon: a paused or skipped one-off is kept")
struct DaemonKeptOneOffTests {
    typealias D = DaemonControllerTests.Daemon

    /// 07:00 on the morning's date (RunnerTests.morning).
    static let once = StandingAlarm(name: "dentist", hour: 7, minute: 0, second: 0, days: 0, date: CivilDate(year: 2026, month: 11, day: 24),
                                    options: [:], created: RunnerTests.evening - .seconds(3600))

    /// What `wake pause`, `resume`, `skip` and `skip --undo` write, then the reload inotify brings.
    static func history(_ d: D, _ change: (inout AlarmRecord) -> Void) throws {
        try d.store.updateHistory { h in
            var r = h["dentist"] ?? AlarmRecord(name: "dentist")
            change(&r)
            h["dentist"] = r
        }
        d.controller?.requestReload()
        d.controller?.applyPending()
    }

    @Test("inside a pause: kept and quiet through its time, removed when the pause ends, recorded as skipped")
    func keptUntilThePauseEnds() throws {
        let d = try D(alarms: [Self.once])
        try d.start()
        #expect(d.controller?.occurrence(of: "dentist") == RunnerTests.morning)
        let end = RunnerTests.morning + .seconds(86_400)
        try Self.history(d) { $0.pauses = [Pause(until: end)] }
        #expect(d.controller?.occurrence(of: "dentist") == nil, "not armed while paused")
        #expect(try d.store.load().map(\.name) == ["dentist"], "kept, not deleted")

        d.advance(by: .seconds(9 * 3600))  // past 07:00, inside the pause
        #expect(!d.runner.isRinging)
        #expect(try d.store.load().map(\.name) == ["dentist"], "still kept while the pause lasts")
        #expect(try d.record("dentist")?.missed == nil)

        d.advance(by: end - (RunnerTests.evening + .seconds(9 * 3600)))  // the pause ends: the daemon looks again by itself
        #expect(try d.store.load().isEmpty, "removed when the pause ended")
        #expect(try d.record("dentist")?.lastSkipped == RunnerTests.morning, "recorded, so a restored copy does not ring")
        #expect(!d.runner.isRinging)
    }

    @Test("paused, then resumed before its time: it rings")
    func resumedBeforeItsTime() throws {
        let d = try D(alarms: [Self.once])
        try d.start()
        try Self.history(d) { $0.pauses = [Pause(until: RunnerTests.morning + .seconds(86_400))] }
        d.advance(by: .seconds(3600))
        try Self.history(d) { $0.pauses = [Pause(until: RunnerTests.evening + .seconds(3600))] }  // `wake resume`: the pause ends now
        #expect(d.controller?.occurrence(of: "dentist") == RunnerTests.morning)
        d.advance(by: .seconds(7 * 3600))
        #expect(d.runner.isRinging, "\(d.lines.lines)")
    }

    @Test("skipped, then the skip taken back: it rings; skipped and left so: removed once its time passes")
    func skipUndone() throws {
        let d = try D(alarms: [Self.once])
        try d.start()
        try Self.history(d) { $0.skips = [utcDay(RunnerTests.morning)] }
        #expect(d.controller?.occurrence(of: "dentist") == nil)
        #expect(try d.record("dentist")?.skips == [utcDay(RunnerTests.morning)], "the skip stays in the history until its time")
        #expect(try d.store.load().map(\.name) == ["dentist"], "kept, not deleted")
        // `wake skip --undo` clears both forms; the daemon's memory of the skip must not win.
        try Self.history(d) { r in
            r.skips = []
            r.lastSkipped = nil
        }
        #expect(d.controller?.occurrence(of: "dentist") == RunnerTests.morning, "\(d.lines.lines)")
        d.advance(by: .seconds(8 * 3600))
        #expect(d.runner.isRinging)

        let other = try D(alarms: [Self.once])
        try other.start()
        try Self.history(other) { $0.skips = [utcDay(RunnerTests.morning)] }
        other.advance(by: .seconds(8 * 3600))
        #expect(!other.runner.isRinging)
        #expect(try other.store.load().isEmpty, "removed at its skipped time")
    }
}
