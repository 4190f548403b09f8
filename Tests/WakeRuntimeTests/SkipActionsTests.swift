import Foundation
import Testing
import WakeCore
@testable import WakeRuntime
@testable import WakeSystem
@testable import WakeTestSupport

/// `wake skip --count/--on/--undo`, `wake pause --from/--until`, `wake add --skip-days` and what
/// `wake list` and `wake next` say of them (issue 40), in-process: the files in a temporary
/// directory, the zone UTC, a clock the test moves, no daemon.
@Suite("Skips, pauses and holiday calendars: the commands in-process")
struct SkipActionsTests {
    /// Monday 2026-11-23 23:00 UTC; the weekday alarm's next 06:30 is Tuesday's.
    static let monday = RunnerTests.evening
    /// 06:30 UTC `days` after Monday 23 November 2026 (1: Tuesday 24).
    static func at(_ days: Int, _ h: Int = 6, _ m: Int = 30) -> Instant {
        monday - .seconds(23 * 3600) + .seconds(Int64(days * 86_400 + h * 3600 + m * 60))
    }

    /// Thanksgiving (Thursday 26 November 2026) once, and Christmas every year, so the calendar
    /// reaches beyond the next 60 days.
    static let holidays = """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//wake tests//EN\r
        BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261126\r\nDTEND;VALUE=DATE:20261127\r\nSUMMARY:Thanksgiving Day\r\nEND:VEVENT\r
        BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20201225\r\nDURATION:P1D\r\nRRULE:FREQ=YEARLY\r\nSUMMARY:Christmas Day\r\nEND:VEVENT\r
        END:VCALENDAR\r

        """

    final class Clock {
        var now: Instant
        init(_ now: Instant) { self.now = now }
    }

    struct World {
        let dir: TestDirectory
        let clock: Clock
        let context: StandingContext
        let lines = Console.LineCapture()
        let console: Console
        let signals: SignalChannel
        let calendar: String

        init() throws {
            dir = try TestDirectory()
            let store = AlarmStore(alarmsFile: dir.path + "/config/wake/alarms.toml", historyFile: dir.path + "/config/wake/history.toml")
            let clock = Clock(SkipActionsTests.monday)
            self.clock = clock
            context = StandingContext(store: store, now: { clock.now }, zone: .utc)
            console = Console(capturing: lines)
            signals = try SignalChannel()
            calendar = try dir.write("holidays-us.ics", Array(SkipActionsTests.holidays.utf8))
        }

        func add(_ when: [String] = ["06:30"], days: String? = "weekdays", name: String = "work", skipDays: [String]? = nil) throws(WakeFailure) -> CommandResult {
            let ring = try RingSettings(values: ["device": "null"])
            let request = StandingAlarmActions.AddRequest(when: when, days: days, name: name, ring: ring, given: ["--device"],
                                                          skipDays: skipDays ?? [calendar])
            return try StandingAlarmActions.add(request, console: console, signals: signals, in: context)
        }

        func skip(count: Int? = nil, on dates: [String] = [], undo: Bool = false) throws(WakeFailure) -> CommandResult {
            try StandingAlarmActions.skip(.init(name: "work", undo: undo, count: count, dates: dates), console: console, in: context)
        }

        func record() throws -> AlarmRecord { try context.store.loadHistory()["work"] ?? AlarmRecord(name: "work") }

        /// What the daemon would have recorded: `work` rang at `t`.
        func rang(_ t: Instant) throws {
            try context.store.updateHistory { h in
                var r = h["work"] ?? AlarmRecord(name: "work")
                r.lastFired = t
                h["work"] = r
            }
        }

        /// `wake list --json`'s one alarm.
        func listed() throws -> [String: Any] {
            let before = lines.lines.count
            _ = try StandingAlarmActions.list(json: true, console: console, in: context)
            let json = try #require(lines.lines.dropFirst(before).first { $0.hasPrefix("[") })
            let array = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
            return try #require(array.first { $0["name"] as? String == "work" })
        }

        /// What the last command said, from line `from` on.
        func said(from: Int = 0) -> String { lines.lines.dropFirst(from).joined(separator: "\n") }
    }

    static func iso(_ t: Instant) -> String { Formatting.iso8601(t, zone: .utc) }

    @Test("skip --count 3 of a weekday alarm skips exactly the next three that would ring: the holiday between is not counted")
    func countPassesOverTheHoliday() throws {
        let w = try World()
        #expect(try w.add() == .done)
        let start = w.lines.lines.count
        #expect(try w.skip(count: 3) == .done)
        // Tue 24, Wed 25, (Thu 26 is Thanksgiving), Fri 27.
        #expect(try w.record().skips == [1, 2, 4].map { utcDay(Self.at($0)) })
        #expect(w.said(from: start).contains("skipping 'work' at Tue 24 Nov 06:30, Wed 25 Nov 06:30, Fri 27 Nov 06:30; "
                                             + "it rings next at 06:30 Mon 30 Nov"),
                "\(w.said(from: start))")
        let work = try w.listed()
        #expect(work["next"] as? String == Self.iso(Self.at(7)), "\(work)")
        #expect(work["skips"] as? [String] == [1, 2, 4].map { Self.iso(Self.at($0)) }, "\(work)")
        let skipped = try #require(work["skipped"] as? [[String: Any]])
        #expect(skipped.map { $0["reason"] as? String } == ["skip", "skip", "holiday", "skip"], "\(skipped)")
        #expect(skipped.map { $0["occurrence"] as? String } == [1, 2, 3, 4].map { Self.iso(Self.at($0)) })
        #expect(skipped[2]["holiday"] as? String == "Thanksgiving Day (holidays-us.ics)" && skipped[0]["holiday"] is NSNull)
        #expect(work["state"] as? String == "Tue 24 Nov skipped (2 more); Thu 26 Nov skipped: Thanksgiving Day (holidays-us.ics)", "\(work)")

        // Three more: counted from those already skipped, the holiday again not counted.
        #expect(try w.skip(count: 3) == .done)
        #expect(try w.record().skips == [1, 2, 4, 7, 8, 9].map { utcDay(Self.at($0)) })
    }

    @Test("skip --on two dates skips exactly those; a weekend, a passed day or a bad date is refused; --count with --on is refused; --undo --on takes one back")
    func onDates() throws {
        let w = try World()
        _ = try w.add()
        #expect(try w.skip(on: ["2026-11-25,2026-12-01"]) == .done)
        #expect(try w.record().skips == [utcDay(Self.at(2)), utcDay(Self.at(8))])
        var work = try w.listed()
        #expect(work["next"] as? String == Self.iso(Self.at(1)), "Tuesday still rings: \(work)")
        #expect(work["skips"] as? [String] == [Self.iso(Self.at(2)), Self.iso(Self.at(8))])

        func refused(_ run: () throws(WakeFailure) -> CommandResult, _ says: String) {
            do {
                _ = try run()
                Issue.record("not refused: wanted '\(says)'")
            } catch {
                #expect(error.kind == .usage && error.message.contains(says), "\(error.message)")
            }
        }
        refused({ () throws(WakeFailure) in try w.skip(on: ["2026-11-28"]) }, "'work' does not ring that day (it rings on weekdays)")
        refused({ () throws(WakeFailure) in try w.skip(on: ["2026-11-23"]) }, "has already rung or passed that day")
        refused({ () throws(WakeFailure) in try w.skip(on: ["26/11/2026"]) }, "--on: invalid date")
        refused({ () throws(WakeFailure) in try w.skip(count: 2, on: ["2026-11-27"]) }, "--count and --on do not go together")
        refused({ () throws(WakeFailure) in try w.skip(count: 0) }, "--count 0")
        refused({ () throws(WakeFailure) in try w.skip(count: 2, undo: true) }, "leave out --count")
        #expect(try w.record().skips == [utcDay(Self.at(2)), utcDay(Self.at(8))], "nothing refused was written")

        let start = w.lines.lines.count
        #expect(try w.skip(on: ["2026-11-25"], undo: true) == .done)
        #expect(w.said(from: start).contains("'work' rings again at Wed 25 Nov 06:30"), "\(w.said(from: start))")
        #expect(try w.record().skips == [utcDay(Self.at(8))])
        // Asked again: already so.
        #expect(try w.skip(on: ["2026-12-01"]) == .done)
        #expect(w.said().contains("'work' already skips Tue 1 Dec 06:30"), "\(w.said())")
        // A day given twice is one skip, said once.
        let twice = w.lines.lines.count
        #expect(try w.skip(on: ["2026-12-02,2026-12-02"]) == .done)
        #expect(w.said(from: twice).hasPrefix("skipping 'work' at Wed 2 Dec 06:30; it rings next"), "\(w.said(from: twice))")
        // --undo alone takes back every skip ahead.
        #expect(try w.skip(undo: true) == .done)
        #expect(try w.record().skips.isEmpty)
        work = try w.listed()
        #expect(work["state"] as? String == "waiting" && (work["skipped"] as? [Any])?.isEmpty == true, "\(work)")
    }

    @Test("pause --from --until: it rings before the pause and from its end, not inside; resume before it begins removes it")
    func pauseFromUntil() throws {
        let w = try World()
        _ = try w.add()
        let start = w.lines.lines.count
        #expect(try StandingAlarmActions.pause(until: "2026-11-27", from: "2026-11-25", names: ["work"], console: w.console, in: w.context) == .done)
        #expect(w.said(from: start).contains("'work' paused from Wed 25 Nov 00:00 until Fri 27 Nov 00:00; it rings next at 06:30 tomorrow"),
                "\(w.said(from: start))")
        var record = try w.record()
        #expect(record.pauses == [Pause(from: Self.at(2, 0, 0), until: Self.at(4, 0, 0))])
        var work = try w.listed()
        #expect(work["next"] as? String == Self.iso(Self.at(1)), "it rings before the pause: \(work)")
        #expect(work["paused_from"] as? String == Self.iso(Self.at(2, 0, 0)) && work["paused_until"] as? String == Self.iso(Self.at(4, 0, 0)))
        #expect(work["state"] as? String == "waiting; paused from Wed 25 Nov 00:00 until Fri 27 Nov 00:00", "\(work)")

        // Tuesday evening, Tuesday rung: the next is Friday's, after the pause (Thursday's holiday is inside it).
        try w.rang(Self.at(1))
        w.clock.now = Self.at(1, 23, 0)
        work = try w.listed()
        #expect(work["next"] as? String == Self.iso(Self.at(4)), "\(work)")
        #expect((work["skipped"] as? [[String: Any]])?.map { $0["reason"] as? String } == ["pause"], "\(work)")
        #expect(work["state"] as? String == "paused until Fri 27 Nov 00:00", "\(work)")

        // A bare resume lifts only the pause on now: this one lies ahead, and the line says how to lift it.
        let bare = w.lines.lines.count
        #expect(try StandingAlarmActions.resume(names: ["work"], console: w.console, in: w.context) == .done)
        #expect(w.said(from: bare).contains("no pause is on now; 'work' is paused from tomorrow 00:00 until Fri 27 Nov 00:00: "
                                            + "lift it with 'wake resume work --on 2026-11-25', "
                                            + "or every pause with 'wake resume --all work'"),
                "\(w.said(from: bare))")
        #expect(try w.record().pauses.count == 1)
        // Resumed by a date inside it, before it begins: nothing is left of it, and Wednesday rings.
        let dated = w.lines.lines.count
        #expect(try StandingAlarmActions.resume(names: ["work"], on: "2026-11-26", console: w.console, in: w.context) == .done)
        #expect(w.said(from: dated).contains("'work' resumed: lifted the pause from tomorrow 00:00 until Fri 27 Nov 00:00; "
                                             + "it rings next at 06:30 tomorrow"),
                "\(w.said(from: dated))")
        record = try w.record()
        #expect(record.pauses.isEmpty)
        #expect(try w.listed()["next"] as? String == Self.iso(Self.at(2)))

        // --from not before --until is refused.
        do {
            _ = try StandingAlarmActions.pause(until: "2026-11-27", from: "2026-11-27", names: [], console: w.console, in: w.context)
            Issue.record("a pause that ends when it begins was taken")
        } catch {
            #expect(error.kind == .usage && error.message.contains("is not before --until"), "\(error.message)")
        }
    }

    @Test("wake add --skip-days: a malformed calendar is a config failure naming the file and the line; a missing one names the file; a one-off is a usage error; nothing is stored")
    func addRefusals() throws {
        let w = try World()
        let bad = try w.dir.write("bad.ics", Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261126\r\nRRULE:FREQ=WEEKLY\r\nSUMMARY:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8))
        do {
            _ = try w.add(skipDays: [w.calendar, bad])
            Issue.record("a malformed calendar was taken")
        } catch {
            #expect(error.kind == .config, "\(error.kind)")
            #expect(error.message.contains("'\(bad)' line 4: RRULE 'FREQ=WEEKLY' is not yearly"), "\(error.message)")
        }
        do {
            _ = try w.add(skipDays: [w.dir.file("nosuch.ics")])
            Issue.record("a missing calendar was taken")
        } catch {
            #expect(error.kind == .config && error.message.contains("nosuch.ics"), "\(error.message)")
        }
        do {
            _ = try w.add(["2026-11-26T06:30"], days: nil)
            Issue.record("a one-off took --skip-days")
        } catch {
            #expect(error.kind == .usage && error.message.contains("--skip-days is for an alarm that repeats"), "\(error.message)")
        }
        #expect(try w.context.store.load().isEmpty, "nothing refused was stored")

        // Two good ones, one given twice: stored once each, as given (absolute), read back as two.
        let other = try w.dir.write("school.ics", Array(Self.holidays.replacingOccurrences(of: "Thanksgiving Day", with: "Staff Day").utf8))
        #expect(try w.add(skipDays: [w.calendar, other, w.calendar]) == .done)
        let stored = try #require(try w.context.store.load().first)
        #expect(AlarmOption.list(stored.options["skip-days"] ?? "") == [w.calendar, other])
        #expect(w.said().contains("added 'work': 06:30 on weekdays; next 06:30 tomorrow"), "\(w.said())")
    }

    @Test("""
        wake add refuses a calendar that leaves the alarm no day in the next year (78, naming the file); \
        one that leaves a day prints that day
        """)
    func addRefusesACalendarWithNoDay() throws {
        let w = try World()
        let always = try w.dir.write("always.ics", Array(DayOffCalendarsTests.always.utf8))
        // Thirteen months off, then days to ring: still no day in the next year.
        let long = try w.dir.write("long.ics", Array((
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261101\r\nDTEND;VALUE=DATE:20271101\r\n"
            + "SUMMARY:Sabbatical\r\nEND:VEVENT\r\n"
            + "BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20271101\r\nDTEND;VALUE=DATE:20280101\r\nSUMMARY:Sabbatical\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n").utf8))
        for (file, says) in [(always, "(every day until Tue 5 Aug 2042 is a holiday in '\(always)');"),
                             (long, "(its first day to ring is Mon 3 Jan 2028);")] {
            do {
                _ = try w.add(skipDays: [file])
                Issue.record("a calendar with no day to ring was taken: \(w.said())")
            } catch {
                #expect(error.kind == .config, "exit 78: \(error.kind)")
                #expect(error.message.hasPrefix("--skip-days: '\(file)' leaves the alarm no day to ring in the next year (")
                        && error.message.contains(says),
                        "\(error.message)")
            }
        }
        // From config.toml's skip-days: the config file's entry is named, not --skip-days.
        var fromConfig = w.context
        let configPath = w.dir.path + "/config.toml"
        fromConfig.config = { ConfigDefaults(path: configPath, entries: [ConfigFile.Entry(key: "skip-days", value: always, line: 2)]) }
        let request = StandingAlarmActions.AddRequest(when: ["06:30"], days: "weekdays", name: "work",
                                                      ring: try RingSettings(values: ["device": "null"]),
                                                      given: ["--device"], skipDays: [])
        do {
            _ = try StandingAlarmActions.add(request, console: w.console, signals: w.signals, in: fromConfig)
            Issue.record("config.toml's calendar with no day to ring was taken: \(w.said())")
        } catch {
            #expect(error.kind == .config, "exit 78: \(error.kind)")
            #expect(error.message.hasPrefix("config file '\(configPath)' line 2, skip-days: '\(always)' leaves the alarm no day to ring")
                    && error.message.hasSuffix("or take it out of skip-days") && !error.message.contains("--skip-days"),
                    "\(error.message)")
        }
        #expect(try w.context.store.load().isEmpty, "nothing refused was stored")
        #expect(!w.said().contains("added"), "\(w.said())")

        // Six weeks off: added, the real next ring printed, and the first few days with a count.
        let weeks = try w.dir.write("weeks.ics", Array((
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261124\r\nDTEND;VALUE=DATE:20270105\r\nSUMMARY:Break\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n").utf8))
        #expect(try w.add(skipDays: [weeks]) == .done)
        let line = w.said()
        #expect(line.contains("added 'work': 06:30 on weekdays; next 06:30 Tue 5 Jan 2027, in 42d 7h; "
                              + "Tue 24 Nov skipped: Break (weeks.ics); "
                              + "Wed 25 Nov skipped: Break (weeks.ics); Thu 26 Nov skipped: Break (weeks.ics); and 27 more"), "\(line)")
    }

    @Test("a one-off two years ahead is added: only a recurring alarm needs a day to ring within the year")
    func addTakesAOneOffFarAhead() throws {
        let w = try World()
        let date = w.clock.now + .seconds(730 * 86_400)
        let day = TimeZoneRules.utc.localTime(at: date).date
        let when = "\(day.year)-\(day.month < 10 ? "0" : "")\(day.month)-\(day.day < 10 ? "0" : "")\(day.day)T07:00"
        #expect(try w.add([when], days: nil, name: "far", skipDays: []) == .done, "\(w.said())")
        #expect(try w.context.store.load().map(\.name) == ["far"])
    }

    @Test("wake list: a recurring alarm whose calendar came to cover every day says 'no day rings', naming the file")
    func listSaysNoDayRings() throws {
        let w = try World()
        _ = try w.add()
        _ = try w.dir.write("holidays-us.ics", Array(DayOffCalendarsTests.always.utf8))
        let start = w.lines.lines.count
        _ = try StandingAlarmActions.list(json: false, console: w.console, in: w.context)
        let row = try #require(w.lines.lines.dropFirst(start).first { $0.hasPrefix("work ") })
        #expect(row.contains("no day rings: every day until ") && row.contains(" is a holiday in '\(w.calendar)'"), "\(row)")
        #expect(try w.listed()["next"] is NSNull, "nothing to ring")
    }

    @Test("wake next and wake list name the holiday and its calendar: 'Thu 26 Nov skipped: Thanksgiving Day (holidays-us.ics)'")
    func nextAndListNameTheHoliday() throws {
        let w = try World()
        _ = try w.add()
        // Wednesday evening, Wednesday rung: Thursday is Thanksgiving.
        try w.rang(Self.at(2))
        w.clock.now = Self.at(2, 23, 0)
        var start = w.lines.lines.count
        #expect(try StandingAlarmActions.next(json: false, console: w.console, in: w.context) == .done)
        #expect(w.said(from: start).contains("06:30 Fri 27 Nov (work), in 1d 7h; Thu 26 Nov skipped: Thanksgiving Day (holidays-us.ics)"),
                "\(w.said(from: start))")
        start = w.lines.lines.count
        #expect(try StandingAlarmActions.next(json: true, console: w.console, in: w.context) == .done)
        let json = try #require(w.lines.lines.dropFirst(start).first { $0.hasPrefix("{") })
        let next = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(next["skipped"] as? [String] == ["Thu 26 Nov skipped: Thanksgiving Day (holidays-us.ics)"], "\(next)")
        #expect(next["next"] as? String == Self.iso(Self.at(4)))
        start = w.lines.lines.count
        #expect(try StandingAlarmActions.list(json: false, console: w.console, in: w.context) == .done)
        let row = try #require(w.lines.lines.dropFirst(start).first { $0.hasPrefix("work ") })
        #expect(row.contains("Thu 26 Nov skipped: Thanksgiving Day (holidays-us.ics)"), "\(row)")

        // The calendar broken since: said as a problem (list exits with problems), and Thursday rings.
        try "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:2026112\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".write(toFile: w.calendar, atomically: true, encoding: .utf8)
        start = w.lines.lines.count
        #expect(try StandingAlarmActions.list(json: true, console: w.console, in: w.context) == .doneWithProblems)
        #expect(w.said(from: start).contains("alarm 'work' --skip-days: calendar '\(w.calendar)' line 3"), "\(w.said(from: start))")
        #expect(try w.listed()["next"] as? String == Self.iso(Self.at(3)))
    }

    @Test("wake skip --count past the most skips one alarm keeps is refused, and nothing is written")
    func tooManySkips() throws {
        let w = try World()
        _ = try w.add(days: "daily", skipDays: [])
        // 390 daily skips from Tuesday on, as earlier `wake skip`s left them.
        try w.context.store.updateHistory { h in
            var r = AlarmRecord(name: "work")
            r.skips = (1...390).map { utcDay(Self.at($0)) }
            h["work"] = r
        }
        let before = try w.record().skips
        #expect(before.count == 390)
        do {
            _ = try w.skip(count: 20)
            Issue.record("more than \(AlarmHistory.skipsKept) skips were taken: \(w.said())")
        } catch {
            #expect(error.kind == .usage && error.message.contains("would have more than \(AlarmHistory.skipsKept) skips"), "\(error.message)")
        }
        #expect(try w.record().skips == before)
    }
}
