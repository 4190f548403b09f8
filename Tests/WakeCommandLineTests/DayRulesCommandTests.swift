import Foundation
import Testing
import WakeCore
@testable import WakeTestSupport

/// Issue 54's `--weeks`, `--every` and `--from` through the command line, on Monday 2027-03-01
/// at 05:00 UTC (ISO week 9, odd): what `wake add` stores and says, what `list` and `next` plan,
/// and the refusals.
@Suite("Odd and even weeks, every Nth day: the command line")
struct DayRulesCommandTests {
    static func at630(_ date: String) -> String { date + "T06:30:00+00:00" }

    @Test("--weeks even: every day of week 10 on; stored as given, said in add's line and the list")
    func evenWeeks() throws {
        let world = try TestWorld()
        var r = world.run(["add", "06:30", "--weeks", "even", "--name", "shift", "-D", "null"])
        #expect(r.code == 0 && r.stdout.contains("added 'shift': 06:30 on daily in even weeks; next "), "\(r)")
        let shift = try #require(try world.listJSON().first)
        #expect(shift["options"] as? [String: String] == ["device": "null", "weeks": "even"], "\(shift)")
        #expect(shift["next"] as? String == Self.at630("2027-03-08"), "\(shift)")
        r = world.run(["list"])
        #expect(r.code == 0 && r.stdout.contains("daily in even weeks"), "\(r)")
        r = world.run(["next", "--json"])
        let next = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r)")
        #expect(next["next"] as? String == Self.at630("2027-03-08"), "\(next)")
    }

    @Test("--every 3d --from tomorrow stores tomorrow's date; without --from, today's; with --days both must hold")
    func everyNth() throws {
        let world = try TestWorld()
        var r = world.run(["add", "06:30", "--every", "3d", "--from", "tomorrow", "--name", "rota", "-D", "null"])
        #expect(r.code == 0 && r.stdout.contains("06:30 on daily every 3 days from 2027-03-02; next "), "\(r)")
        r = world.run(["add", "07:00", "--every", "2d", "--days", "tue-fri", "--name", "other", "-D", "null"])
        #expect(r.code == 0, "\(r)")
        let alarms = try world.listJSON()
        let rota = try #require(alarms.first { $0["name"] as? String == "rota" })
        #expect(rota["options"] as? [String: String] == ["device": "null", "every": "3d", "from": "2027-03-02"], "\(rota)")
        #expect(rota["next"] as? String == Self.at630("2027-03-02"), "\(rota)")
        // From Monday the 1st, every other day on Tuesday to Friday: Wednesday the 3rd.
        let other = try #require(alarms.first { $0["name"] as? String == "other" })
        #expect((other["options"] as? [String: String])?["from"] == "2027-03-01", "\(other)")
        #expect(other["next"] as? String == "2027-03-03T07:00:00+00:00", "\(other)")
    }

    @Test("names made from the rules; a skip on a day the rules leave out is refused, naming them")
    func namesAndSkips() throws {
        let world = try TestWorld()
        #expect(world.run(["add", "06:30", "--days", "weekdays", "--weeks", "odd", "-D", "null"]).code == 0)
        #expect(world.run(["add", "06:30", "--days", "weekdays", "--weeks", "even", "-D", "null"]).code == 0)
        #expect(world.run(["add", "06:30", "--every", "3d", "-D", "null"]).code == 0)
        #expect(try world.listJSON().compactMap { $0["name"] as? String }.sorted()
                == ["0630-daily-every3d", "0630-weekdays-even", "0630-weekdays-odd"])
        // Tuesday 2 March is in week 9, odd: not a day of the even weeks' alarm.
        let r = world.run(["skip", "0630-weekdays-even", "--on", "2027-03-02"])
        #expect(r.code == 64 && r.stderr.contains("does not ring that day (it rings on weekdays in even weeks)"), "\(r)")
    }

    @Test("refusals: a bad value, --from alone, a date's alarm, rules that leave no day; exit 64, one line, nothing stored")
    func refusals() throws {
        let world = try TestWorld()
        let cases: [([String], String)] = [
            (["--weeks", "sometimes"], "--weeks: invalid mode 'sometimes'; use odd or even"),
            (["--every", "1d"], "--every: invalid value '1d'; give a number of days from 2 to 366, as 3d"),
            (["--every", "3"], "--every: invalid value '3'; give a number of days from 2 to 366, as 3d"),
            (["--every", "3d", "--from", "someday"], "--from: invalid date 'someday'; give a date, as 2026-12-07, tomorrow, mon or dec 24"),
            (["--from", "tomorrow"], "--from goes with --every"),
            (["--every", "7d", "--from", "mon", "--days", "tue"], "--days tue every 7 days from 2027-03-01 leave the alarm no day to ring"),
        ]
        for (options, message) in cases {
            let r = world.run(["add", "06:30", "-D", "null"] + options)
            #expect(r.code == 64 && r.stderrIsOneLine && r.stderr.contains(message), "\(options): \(r)")
        }
        let r = world.run(["add", "2027-03-05T06:30", "--weeks", "odd", "-D", "null"])
        #expect(r.code == 64 && r.stderr.contains("--weeks is for an alarm that repeats"), "\(r)")
        #expect(!FileManager.default.fileExists(atPath: world.alarmsFile), "a refused add stores nothing")
    }
}

extension DayRulesCommandTests {
    @Test("a rule with a span from now is refused (64); ISO week 53 ahead is said: weeks 53 and 1 are both odd")
    func spansAndWeekFiftyThree() throws {
        var r = try TestWorld().run(["add", "+25m", "--weeks", "odd", "-D", "null"])
        #expect(r.code == 64 && r.stderrIsOneLine && r.stderr.contains("--weeks is for an alarm that repeats"), "\(r)")
        // Tuesday 2026-12-01: 2026 has 53 ISO weeks.
        let world = try TestWorld(now: Instant(seconds: 1_796_083_200))
        r = world.run(["add", "06:30", "--weeks", "even", "--name", "shift", "-D", "null"])
        #expect(r.code == 0 && r.stdout.contains("note: 2026 has an ISO week 53: weeks 53 and 1 (2026-12-28 to 2027-01-10) are both odd, "
                                                 + "so 'shift' rings in neither"), "\(r)")
    }
}
