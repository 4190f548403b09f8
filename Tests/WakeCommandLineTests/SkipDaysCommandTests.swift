import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeTestSupport

/// Issue 40's skips, pauses planned ahead and holiday calendars through the command line: what
/// `wake add`, `skip`, `pause`, `list` and `next` say and store, on Monday 2027-03-01 at 05:00 UTC.
/// (In process since issue 50; were Tests/WakeTests/SkipDaysEndToEndTests.swift's
/// SkipDaysEndToEndTests; the daemon's calendar case stays there.)
@Suite("Skips, pauses and holiday calendars: the command line")
struct SkipDaysCommandTests {
    static func date(in days: Int) -> String { PauseCommandTests.date(in: days) }
    /// `YYYYMMDD`, as a calendar file writes it.
    static func icsDate(in days: Int) -> String { date(in: days).filter { $0 != "-" } }
    /// 06:30 UTC on the day `days` from the world's today, as `wake list --json` writes it.
    static func half6(in days: Int) -> String { date(in: days) + "T06:30:00+00:00" }

    static func calendar(_ events: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//wake tests//EN\r\n" + events + "END:VCALENDAR\r\n"
    }

    /// Line 4 is a weekly rule, which the reader refuses rather than read wrongly.
    static let malformed = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:\(icsDate(in: 0))\r\nRRULE:FREQ=WEEKLY\r\n"
        + "SUMMARY:Weekly\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

    @Test("wake add refuses a malformed calendar with 78 naming the file and the line, and a one-off's --skip-days with 64; nothing stored")
    func addRefuses() throws {
        let world = try TestWorld()
        let bad = try world.dir.write("bad.ics", Array(Self.malformed.utf8))
        var r = world.run(["add", "06:30", "--days", "weekdays", "--skip-days", bad, "-D", "null"])
        #expect(r.code == 78 && r.stderrIsOneLine, "\(r)")
        #expect(r.stderr.contains("calendar '\(bad)' line 4: RRULE 'FREQ=WEEKLY' is not yearly"), "\(r)")
        r = world.run(["add", Self.date(in: 2) + "T06:30", "--skip-days", bad, "-D", "null"])
        #expect(r.code == 64 && r.stderr.contains("--skip-days is for an alarm that repeats"), "\(r)")
        #expect(!FileManager.default.fileExists(atPath: world.alarmsFile), "a refused add stores nothing")
    }

    @Test("wake next names the holiday and its calendar, for the days before the next ring; wake add says it too")
    func nextNamesTheHoliday() throws {
        let world = try TestWorld()
        // Today, tomorrow and the day after, every year: the next ring is in 3 days.
        let file = try world.dir.write("holidays-test.ics", Array(Self.calendar("""
            BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:\(Self.icsDate(in: 0))\r\nDTEND;VALUE=DATE:\(Self.icsDate(in: 3))\r
            RRULE:FREQ=YEARLY\r\nSUMMARY:Founders' Days\r\nEND:VEVENT\r

            """).utf8))
        var r = world.run(["add", "06:30", "--days", "daily", "--name", "work", "--skip-days", file, "-D", "null"])
        let now = TestWorld.monday
        let tomorrow = Formatting.datePhrase(now + .seconds(86_400), now: now, zone: .utc)
        let phrase = "\(tomorrow) skipped: Founders' Days (holidays-test.ics)"
        #expect(r.code == 0 && r.stdout.contains(phrase), "\(r)")
        r = world.run(["next"])
        #expect(r.code == 0 && r.stdout.contains("(work)") && r.stdout.contains("; " + phrase), "\(r)")
        r = world.run(["next", "--json"])
        let next = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r)")
        #expect(next["next"] as? String == Self.half6(in: 3), "\(next)")
        #expect((next["skipped"] as? [String])?.contains(phrase) == true, "\(next)")
        let work = try #require(try world.listJSON().first)
        #expect(work["options"] as? [String: String] == ["device": "null", "skip-days": file], "stored by its full name: \(work)")
    }

    @Test("skip --count 2 and --on DATE: wake list --json shows exactly those in skips, and the next that rings")
    func skipCountAndOn() throws {
        let world = try TestWorld()
        _ = world.run(["add", "06:30", "--days", "daily", "--name", "work", "-D", "null"])
        let first = try #require(try world.listJSON().first?["next"] as? String)
        let d = first == Self.half6(in: 0) ? 0 : 1  // today's 06:30 (it is 05:00)
        #expect(first == Self.half6(in: d))
        var r = world.run(["skip", "work", "--count", "2"])
        #expect(r.code == 0 && r.stdout.contains("skipping 'work' at ") && r.stdout.contains("; it rings next at 06:30"), "\(r)")
        var work = try #require(try world.listJSON().first)
        #expect(work["skips"] as? [String] == [Self.half6(in: d), Self.half6(in: d + 1)], "\(work)")
        #expect(work["next"] as? String == Self.half6(in: d + 2), "\(work)")
        #expect((work["state"] as? String)?.hasSuffix(" skipped (1 more)") == true, "\(work)")

        r = world.run(["skip", "work", "--on", Self.date(in: d + 4)])
        #expect(r.code == 0, "\(r)")
        work = try #require(try world.listJSON().first)
        #expect(work["skips"] as? [String] == [d, d + 1, d + 4].map { Self.half6(in: $0) }, "\(work)")
        #expect(work["next"] as? String == Self.half6(in: d + 2), "a skip further on leaves the next as it was: \(work)")

        r = world.run(["skip", "work", "--undo", "--on", Self.date(in: d)])
        #expect(r.code == 0 && r.stdout.contains("'work' rings again at "), "\(r)")
        work = try #require(try world.listJSON().first)
        #expect(work["skips"] as? [String] == [d + 1, d + 4].map { Self.half6(in: $0) } && work["next"] as? String == Self.half6(in: d),
                "\(work)")
        r = world.run(["skip", "work", "--count", "2", "--on", Self.date(in: d + 5)])
        #expect(r.code == 64 && r.stderr.contains("--count and --on do not go together"), "\(r)")
    }

    @Test("pause --from D1 --until D2: the next ring is before D1, and paused_from and paused_until are set")
    func pauseFromUntil() throws {
        let world = try TestWorld()
        _ = world.run(["add", "06:30", "--days", "daily", "--name", "work", "-D", "null"])
        let r = world.run(["pause", "--from", Self.date(in: 3), "--until", Self.date(in: 5), "work"])
        #expect(r.code == 0 && r.stdout.contains("'work' paused from ") && r.stdout.contains("; it rings next at 06:30"), "\(r)")
        let work = try #require(try world.listJSON().first)
        let next = try #require(work["next"] as? String, "\(work)")
        #expect(next == Self.half6(in: 0) || next == Self.half6(in: 1), "it rings before the pause: \(work)")
        #expect(work["paused_from"] as? String == Self.date(in: 3) + "T00:00:00+00:00", "\(work)")
        #expect(work["paused_until"] as? String == Self.date(in: 5) + "T00:00:00+00:00", "\(work)")
        #expect((work["state"] as? String)?.hasPrefix("waiting; paused from ") == true, "\(work)")
        #expect(ChildProcess.read(world.dir.file("config") + "/wake/history.toml")
                    .contains("pauses = [\"\(Self.date(in: 3))T00:00:00Z/\(Self.date(in: 5))T00:00:00Z\"]"))
    }
}
