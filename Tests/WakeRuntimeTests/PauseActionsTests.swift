import Testing
import WakeCore
@testable import WakeRuntime
@testable import WakeSystem

/// Issue 49: `wake pause` twice keeps both pauses (joined where they meet, with a line that
/// says so), `wake resume` says which pause it lifted (`--all`, `--on DATE`), and a snoozed
/// alarm's resume says it rings at its snooze.
@Suite("Pause and resume with several pauses")
struct PauseActionsTests {
    typealias World = StandingActionsTests.World
    /// Monday 2026-11-23 23:00 UTC.
    static let now = StandingActionsTests.now

    static func pause(_ w: World, until: String, from: String? = nil) throws -> String {
        let start = w.lines.lines.count
        _ = try StandingAlarmActions.pause(until: until, from: from, names: ["work"], console: w.console, in: w.context)
        return w.lines.lines.dropFirst(start).joined(separator: "\n")
    }

    static func resume(_ w: World, all: Bool = false, on: String? = nil) throws -> String {
        let start = w.lines.lines.count
        _ = try StandingAlarmActions.resume(names: ["work"], all: all, on: on, console: w.console, in: w.context)
        return w.lines.lines.dropFirst(start).joined(separator: "\n")
    }

    static func pauses(_ w: World) throws -> [Pause] { try w.context.store.loadHistory()["work"]?.pauses ?? [] }

    @Test("a sick day paused after Christmas was planned keeps both; an overlap is joined and one inside covered, each said")
    func pauseTwiceKeepsBoth() throws {
        let w = try World()
        _ = try w.add(["06:30"], days: "daily", name: "work")
        _ = try Self.pause(w, until: "2027-01-04", from: "2026-12-21")
        let sick = try Self.pause(w, until: "2026-11-26")
        #expect(sick.contains("'work' paused until Thu 26 Nov 00:00; it rings next at 06:30 Thu 26 Nov")
                && sick.hasSuffix("; also paused from Mon 21 Dec 00:00 until Mon 4 Jan 2027 00:00"), "\(sick)")
        let christmas = Pause(from: utc(2026, 12, 21), until: utc(2027, 1, 4))
        #expect(try Self.pauses(w) == [Pause(until: utc(2026, 11, 26)), christmas], "the planned pause is not erased")

        let longer = try Self.pause(w, until: "2027-01-10", from: "2026-12-28")
        #expect(longer.hasPrefix("'work' paused from Mon 21 Dec 00:00 until Sun 10 Jan 2027 00:00 (joined with the pause "
                                 + "from Mon 21 Dec 00:00 until Mon 4 Jan 2027 00:00 already there)"), "\(longer)")
        let inside = try Self.pause(w, until: "2026-12-25", from: "2026-12-24")
        #expect(inside.hasPrefix("'work' is already paused from Mon 21 Dec 00:00 until Sun 10 Jan 2027 00:00, "
                                 + "which covers it; nothing changed"),
                "\(inside)")
        #expect(try Self.pauses(w) == [Pause(until: utc(2026, 11, 26)), Pause(from: utc(2026, 12, 21), until: utc(2027, 1, 10))])
    }

    @Test("resume lifts the pause on now and says which, and which is left; --on DATE lifts the one that day; --all every one")
    func resumeSaysWhich() throws {
        let w = try World()
        _ = try w.add(["06:30"], days: "daily", name: "work")
        _ = try Self.pause(w, until: "2027-01-04", from: "2026-12-21")
        _ = try Self.pause(w, until: "2026-11-26")
        let bare = try Self.resume(w)
        #expect(bare == "'work' resumed: lifted the pause until Thu 26 Nov 00:00; it rings next at 06:30 tomorrow, in 7h 30m; "
                + "still paused from Mon 21 Dec 00:00 until Mon 4 Jan 2027 00:00", "\(bare)")
        let christmas = Pause(from: utc(2026, 12, 21), until: utc(2027, 1, 4))
        #expect(try Self.pauses(w) == [Pause(until: Self.now), christmas], "ended now, so what passed in it stays quiet")

        let dated = try Self.resume(w, on: "2026-12-25")
        #expect(dated.hasPrefix("'work' resumed: lifted the pause from Mon 21 Dec 00:00 until Mon 4 Jan 2027 00:00; it rings next"),
                "\(dated)")
        #expect(try Self.pauses(w).allSatisfy { $0.until <= Self.now })
        #expect(try Self.resume(w, all: true) == "not paused: 'work'")

        _ = try Self.pause(w, until: "2026-11-26")
        _ = try Self.pause(w, until: "2027-01-04", from: "2026-12-21")
        let none = try Self.resume(w, on: "2026-12-01")
        #expect(none == "'work' is not paused on 2026-12-01; 'work' is paused until Thu 26 Nov 00:00, "
                + "from Mon 21 Dec 00:00 until Mon 4 Jan 2027 00:00: "
                + "lift one with 'wake resume work --on 2026-12-21', or every pause with 'wake resume --all work'", "\(none)")
        let all = try Self.resume(w, all: true)
        #expect(all.hasPrefix("'work' resumed: lifted the pause until Thu 26 Nov 00:00 "
                              + "and the pause from Mon 21 Dec 00:00 until Mon 4 Jan 2027 00:00; it rings next"),
                "\(all)")
        #expect(throws: WakeFailure.self) {
            _ = try StandingAlarmActions.resume(names: [], all: true, on: "2026-12-25", console: w.console, in: w.context)
        }
    }

    @Test("resume of a pause written while the alarm was snoozed: it says the snooze holds and when it rings")
    func resumeWhileSnoozed() throws {
        let w = try World()
        // A one-off at 22:43 that rang and was snoozed until 23:05; paused meanwhile.
        let nap = StandingAlarm(name: "work", hour: 22, minute: 43, second: 0, days: 0, date: nil, options: ["device": "null"],
                                created: Self.now - .seconds(3600))
        try w.context.store.update { $0.append(nap) }
        try w.context.store.updateHistory { h in
            var r = AlarmRecord(name: "work")
            r.lastFired = Self.now - .seconds(17 * 60)
            r.snoozedUntil = Self.now + .seconds(5 * 60)
            r.pauses = [Pause(until: utc(2026, 11, 25))]
            h["work"] = r
        }
        let said = try Self.resume(w)
        #expect(said == "'work' resumed: lifted the pause until Wed 25 Nov 00:00; snoozed until 23:05; it rings then", "\(said)")
    }

    @Test("resumed the instant a pause begins: dropped, never an empty FROM/FROM that would cost the others; one read is skipped")
    func resumeAtItsStart() throws {
        let w = try World()
        _ = try w.add(["06:30"], days: "daily", name: "work")
        _ = try Self.pause(w, until: "2027-01-04", from: "2026-12-21")
        try w.context.store.updateHistory { h in h["work"]?.pauses.insert(Pause(from: Self.now, until: utc(2026, 11, 26)), at: 0) }
        _ = try Self.resume(w)
        #expect(try Self.pauses(w) == [Pause(from: utc(2026, 12, 21), until: utc(2027, 1, 4))], "the planned pause is kept")
        // An empty pair an older wake (or a hand) wrote is skipped; the pauses beside it stay.
        let text = "[work]\npauses = [\"2026-11-23T23:00:00Z/2026-11-23T23:00:00Z\", \"2026-12-21T00:00:00Z/2027-01-04T00:00:00Z\"]\n"
        #expect(try AlarmHistory.parse(text)["work"]?.pauses == [Pause(from: utc(2026, 12, 21), until: utc(2027, 1, 4))])
    }

    @Test("a pause after a resume is not 'joined' with the pause that resume just ended")
    func pauseAfterResume() throws {
        let w = try World()
        _ = try w.add(["06:30"], days: "daily", name: "work")
        _ = try Self.pause(w, until: "2026-11-26")
        _ = try Self.resume(w)
        let again = try Self.pause(w, until: "2026-11-28")
        #expect(again.hasPrefix("'work' paused until Sat 28 Nov 00:00; it rings next") && !again.contains("joined"), "\(again)")
        #expect(try Self.pauses(w) == [Pause(until: utc(2026, 11, 28))])
    }
}
