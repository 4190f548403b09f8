import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `wake pause --until DATE [NAME...]` and `wake resume` through the command line (issue 26), on
/// Monday 2027-03-01 at 05:00 UTC. (In process since issue 50; were Tests/WakeTests/PauseTests.swift's
/// commands, mistakes and long; the daemon's cases stay there.)
@Suite("Pause and resume: the command line")
struct PauseCommandTests {
    /// The UTC date `days` after the world's "now", `YYYY-MM-DD`.
    static func date(in days: Int) -> String {
        var t = time_t(TestWorld.monday.nanoseconds / 1_000_000_000) + days * 86_400
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(format: "%04d-%02d-%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday)
    }

    @Test("pause every alarm or the named ones; wake list and wake next show it; resume ends it")
    func commands() throws {
        let world = try TestWorld()
        _ = world.run(["add", "06:30", "--days", "daily", "--name", "work", "-D", "null"])
        _ = world.run(["add", "07:00", "--days", "daily", "--name", "gym", "-D", "null"])
        let until = Self.date(in: 5)
        var r = world.run(["pause", "--until", until, "work"])
        #expect(r.code == 0 && r.stdout.contains("'work' paused until ") && r.stdout.contains("; it rings next at 06:30"), "\(r)")
        #expect(!r.stdout.contains("gym"), "\(r)")
        var list = try world.listJSON()
        let work = try #require(list.first { $0["name"] as? String == "work" })
        #expect(work["paused_until"] as? String == until + "T00:00:00+00:00", "\(work)")
        #expect((work["state"] as? String)?.hasPrefix("paused until ") == true, "\(work)")
        #expect((work["next"] as? String)?.hasPrefix(until + "T06:30") == true, "the next occurrence is after the pause: \(work)")
        #expect(list.first { $0["name"] as? String == "gym" }?["paused_until"] is NSNull)
        r = world.run(["next"])
        #expect(r.stdout.contains("(gym)"), "the paused alarm is passed over: \(r)")
        #expect(ChildProcess.read(world.dir.file("config") + "/wake/history.toml").contains("pauses = [\"\(until)T00:00:00Z\"]"))

        r = world.run(["pause", "--until", until])
        #expect(r.code == 0 && r.stdout.contains("'gym' paused")
                && r.stdout.contains("'work' is already paused until ") && r.stdout.contains("which covers it; nothing changed"),
                "every alarm: \(r)")
        r = world.run(["next"])
        #expect(r.code == 0 && r.stdout.contains("(work)") && r.stdout.contains(", in 4d") || r.stdout.contains(", in 5d"), "\(r)")
        r = world.run(["list"])
        #expect(r.stdout.contains("paused until"), "\(r)")

        r = world.run(["resume", "gym"])
        #expect(r.code == 0 && r.stdout.contains("'gym' resumed: lifted the pause until ")
                && r.stdout.contains("; it rings next at 07:00"), "\(r)")
        r = world.run(["resume", "gym"])
        #expect(r.code == 0 && r.stdout.contains("not paused: 'gym'"), "\(r)")
        r = world.run(["resume"])
        #expect(r.code == 0 && r.stdout.contains("'work' resumed"), "\(r)")
        list = try world.listJSON()
        #expect(list.allSatisfy { $0["paused_until"] is NSNull && $0["state"] as? String == "waiting" }, "\(list)")
    }

    @Test("mistakes: one line, exit 64", arguments: [
        (["pause", "--until", "someday"], "invalid date 'someday'"),
        (["pause", "--until", "2001-01-01"], "not in the future"),
        (["pause", "--until", PauseCommandTests.date(in: 5), "nosuch"], "no standing alarm named 'nosuch'"),
        (["pause", "work"], "--until"),
        (["resume", "nosuch"], "no standing alarm named 'nosuch'"),
        // Was clamped to 2262 without a word, and the daily alarm called a one-off.
        (["pause", "--until", "9999-12-31"], "--until 9999-12-31 is later than wake can represent (the last date it takes is 2262-04-03)"),
        (["pause", "--until", "9999-12-31", "--long"], "later than wake can represent"),
        (["pause", "--until", PauseCommandTests.date(in: 400)], "more than a year; give an earlier date, or add --long"),
    ])
    func mistakes(args: [String], text: String) throws {
        let world = try TestWorld()
        _ = world.run(["add", "06:30", "--days", "daily", "--name", "work", "-D", "null"])
        let r = world.run(args)
        #expect(r.code == 64 && r.stderrIsOneLine && r.stderr.contains(text), "\(r)")
    }

    @Test("a pause of more than a year is taken with --long; a daily alarm still rings after it")
    func long() throws {
        let world = try TestWorld()
        _ = world.run(["add", "06:30", "--days", "daily", "--name", "work", "-D", "null"])
        let until = Self.date(in: 400)
        let r = world.run(["pause", "--until", until, "--long"])
        #expect(r.code == 0 && r.stdout.contains("'work' paused until ") && r.stdout.contains("; it rings next at 06:30"), "\(r)")
        #expect(!r.stdout.contains("one-off"), "\(r)")
        let work = try #require(try world.listJSON().first)
        #expect((work["next"] as? String)?.hasPrefix(until + "T06:30") == true, "\(work)")
    }
}
