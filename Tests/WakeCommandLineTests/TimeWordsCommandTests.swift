import Foundation
import Testing
import WakeCore
@testable import WakeSystem

/// The time forms people type (issue 43), through the command line: each dry run names the moment
/// the same date written as ISO 8601 names; the refusals exit 64 with one line and nothing on
/// stdout. In Berlin, on Monday 2027-03-01 at 06:00. (In process since issue 50; was
/// Tests/WakeTests/TimeWordsEndToEndTests.swift.)
@Suite("Time forms people type: the command line")
struct TimeWordsCommandTests {
    static func berlin() throws -> TestWorld {
        try TestWorld(zone: ZoneLoader.load(named: "Europe/Berlin", zoneDirectory: ZoneLoader.zoneDirectory).get())
    }

    /// The `wake time:` line of a dry run of `when` (as the shell passes those words).
    static func wakeTime(_ when: [String], in world: TestWorld) throws -> String {
        let r = world.run(when + ["--dry-run", "-D", "null"])
        return try #require(r.code == 0 ? r.out.first(where: { $0.hasPrefix("wake time: ") }) : nil, "\(when): \(r)")
    }

    @Test("each day form rings at the moment of the ISO 8601 date it names; noon and midnight; quoted or not")
    func dayForms() throws {
        let world = try Self.berlin()
        // Tomorrow is Tuesday 2027-03-02; three days on, Thursday the 4th; twelve, Saturday the 13th.
        let cases: [([String], String)] = [
            (["tomorrow", "7am"], "2027-03-02T07:00"),
            (["7:30", "pm", "tomorrow"], "2027-03-02T19:30"),
            (["tomorrow 6:30"], "2027-03-02T06:30"),
            (["thu", "06:30"], "2027-03-04T06:30"),
            (["mar 13 8:00"], "2027-03-13T08:00"),
            (["13", "MAR", "8am"], "2027-03-13T08:00"),
            (["noon"], "12:00"), (["midnight"], "00:00"),
        ]
        for (words, iso) in cases {
            let expected = try Self.wakeTime([iso], in: world)
            let got = try Self.wakeTime(words, in: world)
            #expect(got == expected, "\(words)")
        }
        #expect(try Self.wakeTime(["tomorrow", "7am"], in: world) == "wake time: 2027-03-02T07:00:00+01:00")
    }

    @Test("in DURATION waits as +DURATION does")
    func inWords() throws {
        let world = try TestWorld()
        for words in [["in", "20", "minutes"], ["in 1 hour 30 minutes"], ["in", "1h", "30m"]] {
            let r = world.run(words + ["--dry-run", "-D", "null"])
            #expect(r.code == 0, "\(r)")
            let wait = r.out.first { $0.hasPrefix("wait: ") } ?? ""
            let seconds = words.joined(separator: " ").contains("20") ? 1200 : 5400
            #expect(wait.hasPrefix("wait: \(seconds) s"), "\(words): \(r)")
        }
    }

    @Test("refused before the wait: exit 64, one line saying what was expected, nothing on stdout")
    func refusals() throws {
        let world = try TestWorld()
        let cases: [([String], String)] = [
            (["tomorrow"], "needs a time too"), (["mon"], "needs a time too"), (["in"], "needs a span"),
            (["in", "20"], "has no unit"), (["tomorrow", "mon", "7am"], "two days"), (["7am", "8am"], "two times"),
            (["feb", "30", "7am"], "no such date"), (["banana"], "unknown word 'banana'"),
        ]
        for (words, reason) in cases {
            let r = world.run(words + ["-D", "null"])
            #expect(r.code == 64 && r.out.isEmpty, "\(words): \(r)")
            #expect(r.stderr.contains(reason) && r.stderrIsOneLine, "\(words): \(r)")
        }
    }

    @Test("wake add takes a day form for a one-off; wake snooze --until takes noon")
    func addAndSnooze() throws {
        let world = try Self.berlin()
        let add = world.run(["add", "tomorrow", "6:30", "--name", "once", "-D", "null"])
        #expect(add.code == 0, "\(add)")
        let stored = try String(contentsOfFile: world.alarmsFile, encoding: .utf8)
        #expect(stored.contains("date = \"2027-03-02\""), "\(stored)")
        let weekly = world.run(["add", "tomorrow", "6:30", "--days", "weekdays", "-D", "null"])
        #expect(weekly.code == 64 && weekly.stderr.contains("--days does not go with a date"), "\(weekly)")
        // Nothing rings: the words are read, and nothing matched is the answer (noon is six hours
        // away, within the longest snooze).
        let snooze = world.run(["snooze", "--until", "noon"])
        #expect(snooze.code == 1, "\(snooze)")
    }
}
