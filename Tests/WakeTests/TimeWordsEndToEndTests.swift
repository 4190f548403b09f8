import Foundation
import Testing
@testable import WakeTestSupport

/// The time forms people type (issue 43), through the binary: each dry run names the moment the
/// same date written as ISO 8601 names; the refusals exit 64 with one line and nothing on stdout.
@Suite("Time forms people type: end to end")
struct TimeWordsEndToEndTests {
    static let zone = "Europe/Berlin"
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let weekdays = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// The local date `days` from today in Berlin, as (ISO date, weekday 0-6, month 1-12, day).
    /// A fixed-offset zone where it is now between 06:00 and 07:00.
    static func morningZone() -> String {
        let utcHour = Calendar(identifier: .gregorian).dateComponents(in: .gmt, from: Date()).hour ?? 0
        var east = (6 - utcHour + 24) % 24
        if east > 14 { east -= 24 }
        return east == 0 ? "Etc/GMT" : east > 0 ? "Etc/GMT-\(east)" : "Etc/GMT+\(-east)"
    }

    static func date(in days: Int) -> (iso: String, weekday: Int, month: Int, day: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
        let d = calendar.date(byAdding: .day, value: days, to: Date()) ?? Date()
        let c = calendar.dateComponents([.year, .month, .day, .weekday], from: d)
        let (y, m, day) = (c.year ?? 0, c.month ?? 0, c.day ?? 0)
        let iso = "\(y)-\(m < 10 ? "0" : "")\(m)-\(day < 10 ? "0" : "")\(day)"
        return (iso, (c.weekday ?? 1) - 1, m, day)
    }

    /// The `wake time:` line of a dry run of `when` (as the shell passes those words).
    static func wakeTime(_ when: [String]) async throws -> String {
        let r = try await WakeProcess.run(when + ["--dry-run", "-D", "null"], environment: ["TZ": zone])
        guard r.exitCode == 0, let line = r.stdoutLines.first(where: { $0.hasPrefix("wake time: ") }) else {
            throw WakeTestError("\(when): \(r)")
        }
        return line
    }

    @Test("each day form rings at the moment of the ISO 8601 date it names; noon and midnight; quoted or not")
    func dayForms() async throws {
        let tomorrow = Self.date(in: 1), later = Self.date(in: 3), far = Self.date(in: 12)
        let cases: [([String], String)] = [
            (["tomorrow", "7am"], tomorrow.iso + "T07:00"),
            (["7:30", "pm", "tomorrow"], tomorrow.iso + "T19:30"),
            (["tomorrow 6:30"], tomorrow.iso + "T06:30"),
            ([Self.weekdays[later.weekday], "06:30"], later.iso + "T06:30"),
            (["\(Self.months[far.month - 1]) \(far.day) 8:00"], far.iso + "T08:00"),
            (["\(far.day)", Self.months[far.month - 1].uppercased(), "8am"], far.iso + "T08:00"),
            (["noon"], ""), (["midnight"], ""),
        ]
        for (words, iso) in cases {
            let expected = try await Self.wakeTime(iso.isEmpty ? [words == ["noon"] ? "12:00" : "00:00"] : [iso])
            let got = try await Self.wakeTime(words)
            #expect(got == expected, "\(words)")
        }
    }

    @Test("in DURATION waits as +DURATION does")
    func inWords() async throws {
        for words in [["in", "20", "minutes"], ["in 1 hour 30 minutes"], ["in", "1h", "30m"]] {
            let r = try await WakeProcess.run(words + ["--dry-run", "-D", "null"])
            #expect(r.exitCode == 0, "\(r)")
            let wait = r.stdoutLines.first { $0.hasPrefix("wait: ") } ?? ""
            let seconds = words.joined(separator: " ").contains("20") ? 1200 : 5400
            #expect(wait.hasPrefix("wait: \(seconds) s") || wait.hasPrefix("wait: \(seconds - 1) s"), "\(words): \(r)")
        }
    }

    @Test("refused before the wait: exit 64, one line saying what was expected, nothing on stdout")
    func refusals() async throws {
        let cases: [([String], String)] = [
            (["tomorrow"], "needs a time too"), (["mon"], "needs a time too"), (["in"], "needs a span"),
            (["in", "20"], "has no unit"), (["tomorrow", "mon", "7am"], "two days"), (["7am", "8am"], "two times"),
            (["feb", "30", "7am"], "no such date"), (["banana"], "unknown word 'banana'"),
        ]
        for (words, reason) in cases {
            let r = try await WakeProcess.run(words + ["-D", "null"])
            #expect(r.exitCode == 64 && r.stdout.isEmpty, "\(words): \(r)")
            #expect(r.stderr.contains(reason) && r.stderr.split(separator: "\n").count == 1, "\(words): \(r)")
        }
    }

    @Test("wake add takes a day form for a one-off; wake snooze --until takes noon")
    func addAndSnooze() async throws {
        let home = try AlarmHome()
        let env = home.environment.merging(["TZ": Self.zone]) { $1 }
        let add = try await WakeProcess.run(["add", "tomorrow", "6:30", "--name", "once", "-D", "null"], environment: env)
        #expect(add.exitCode == 0, "\(add)")
        let stored = try String(contentsOfFile: home.alarmsFile, encoding: .utf8)
        #expect(stored.contains("date = \"\(Self.date(in: 1).iso)\""), "\(stored)")
        let weekly = try await WakeProcess.run(["add", "tomorrow", "6:30", "--days", "weekdays", "-D", "null"], environment: env)
        #expect(weekly.exitCode == 64 && weekly.stderr.contains("--days does not go with a date"), "\(weekly)")
        // Nothing rings: the words are read, and nothing matched is the answer. In a zone where it
        // is morning now: an afternoon's noon is a day away, past the longest snooze (exit 64).
        let snooze = try await WakeProcess.run(["snooze", "--until", "noon"], environment: home.environment.merging(["TZ": Self.morningZone()]) { $1 })
        #expect(snooze.exitCode == 1, "\(snooze)")
    }
}
