import Foundation
import Testing
import WakeCore
@testable import WakeTestSupport

/// Issue 54's `--before-first-event FILE --lead DURATION` through the command line, on Monday
/// 2027-03-01 at 05:00 UTC: what `wake add` stores and says, the ring `next` plans, the day with
/// no event said as a reason, and the refusals (64 for the command line, 78 for the calendar).
@Suite("Before the first event: the command line")
struct FirstEventCommandTests {
    static let calendar = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"
        + "BEGIN:VEVENT\r\nDTSTART:20270301T110000Z\r\nSUMMARY:Later\r\nEND:VEVENT\r\n"
        + "BEGIN:VEVENT\r\nDTSTART;TZID=Europe/Berlin:20270301T100000\r\nSUMMARY:Stand-up\r\nEND:VEVENT\r\n"
        + "BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20270302\r\nSUMMARY:All day\r\nEND:VEVENT\r\n"
        + "BEGIN:VEVENT\r\nDTSTART:20270303T080000Z\r\nSUMMARY:Review\r\nEND:VEVENT\r\n"
        + "END:VCALENDAR\r\n"

    @Test("90m before 10:00 Berlin (09:00 UTC): 07:30; skipped, the next is Wednesday's, Tuesday said as no event")
    func ringsBeforeTheFirst() throws {
        let world = try TestWorld()
        let file = try world.dir.write("work.ics", Array(Self.calendar.utf8))
        var r = world.run(["add", "--before-first-event", file, "--lead", "90m", "--days", "weekdays", "--name", "meet", "-D", "null"])
        #expect(r.code == 0 && r.stdout.contains("added 'meet': 1h30m before the first event in work.ics on weekdays; next "), "\(r)")
        let meet = try #require(try world.listJSON().first)
        #expect(meet["options"] as? [String: String] == ["device": "null", "before-first-event": file, "lead": "90m"], "\(meet)")
        #expect(meet["next"] as? String == "2027-03-01T07:30:00+00:00", "\(meet)")
        r = world.run(["list"])
        #expect(r.code == 0 && r.stdout.contains("by event"), "its time is the calendar's: \(r)")
        r = world.run(["skip", "meet"])
        #expect(r.code == 0, "\(r)")
        r = world.run(["next", "--json"])
        let next = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r)")
        #expect(next["next"] as? String == "2027-03-03T06:30:00+00:00", "\(next)")
        #expect((next["skipped"] as? [String])?.contains("Tue 2 Mar: no event in work.ics") == true, "\(next)")
    }

    @Test("refusals: WHEN with it, --lead alone or missing (64); a broken or an empty calendar (78, naming the file and line)")
    func refusals() throws {
        let world = try TestWorld()
        let file = try world.dir.write("work.ics", Array(Self.calendar.utf8))
        for (args, message) in [(["06:30", "--before-first-event", file, "--lead", "1h"], "WHEN does not go with --before-first-event"),
                                (["--before-first-event", file], "--before-first-event and --lead go together"),
                                (["06:30", "--lead", "1h"], "--before-first-event and --lead go together"),
                                (["--before-first-event", file, "--lead", "13h"], "--lead 13h is longer than 12h")] {
            let r = world.run(["add", "-D", "null"] + args)
            #expect(r.code == 64 && r.stderrIsOneLine && r.stderr.contains(message), "\(args): \(r)")
        }
        let monthly = try world.dir.write("monthly.ics", Array(("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20270301T090000Z\r\n"
            + "RRULE:FREQ=MONTHLY\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").utf8))
        var r = world.run(["add", "--before-first-event", monthly, "--lead", "1h", "-D", "null"])
        #expect(r.code == 78 && r.stderr.contains("calendar '\(monthly)' line 4: RRULE 'FREQ=MONTHLY' is not yearly"), "\(r)")
        let past = try world.dir.write("past.ics", Array(("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20260301T090000Z\r\n"
            + "END:VEVENT\r\nEND:VCALENDAR\r\n").utf8))
        r = world.run(["add", "--before-first-event", past, "--lead", "1h", "-D", "null"])
        #expect(r.code == 78 && r.stderr.contains("has no timed event on the alarm's days in the next year"), "\(r)")
        #expect(!FileManager.default.fileExists(atPath: world.alarmsFile), "a refused add stores nothing")
        // A weekly meeting series, as calendar programs export one: its Wednesdays ring.
        let weekly = try world.dir.write("weekly.ics", Array(("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20270303T090000Z\r\n"
            + "RRULE:FREQ=WEEKLY;BYDAY=WE\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").utf8))
        r = world.run(["add", "--before-first-event", weekly, "--lead", "1h", "--name", "weekly", "-D", "null"])
        #expect(r.code == 0 && r.stdout.contains("next 08:00 Wed 3 Mar"), "\(r)")
        r = world.run(["skip", "weekly"])
        #expect(r.code == 0 && r.stdout.contains("it rings next at 08:00 Wed 10 Mar"), "\(r)")
    }
}

extension FirstEventCommandTests {
    @Test("skip --on a day of events, listed; a change keeps it; a day without one refused; an unreadable calendar said as such")
    func skipsAndResets() throws {
        let world = try TestWorld()
        let file = try world.dir.write("work.ics", Array(Self.calendar.utf8))
        #expect(world.run(["add", "--before-first-event", file, "--lead", "90m", "--days", "weekdays", "--name", "meet",
                           "-D", "null"]).code == 0)
        var r = world.run(["skip", "meet", "--on", "2027-03-03"])
        #expect(r.code == 0 && r.stdout.contains("skipping 'meet' at Wed 3 Mar 06:30"), "\(r)")
        r = world.run(["skip", "meet", "--on", "2027-03-02"])
        #expect(r.code == 64 && r.stderr.contains("before the first event in work.ics, and that day has none"), "\(r)")
        r = world.run(["change", "meet", "--lead", "1h"])
        #expect(r.code == 0 && !r.stdout.contains("dropped"), "the skip of a day with an event is kept: \(r)")
        var meet = try #require(try world.listJSON().first)
        #expect((meet["skips"] as? [String]) == ["2027-03-03T07:00:00+00:00"], "\(meet)")

        r = world.run(["change", "meet", "--reset", "before-first-event"])
        #expect(r.code == 64 && r.stderr.contains("give the new WHEN too"), "\(r)")
        try FileManager.default.removeItem(atPath: file)
        meet = try #require(try world.listJSON().first)
        #expect(meet["state"] as? String == "no day rings: its calendar '\(file)' cannot be read", "\(meet)")
        r = world.run(["skip", "meet", "--on", "2027-03-05"])
        #expect(r.code == 78 && r.stderr.contains("which cannot be read now"), "\(r)")
        r = world.run(["change", "meet", "07:00", "--reset", "before-first-event"])
        #expect(r.code == 0 && r.stdout.contains("changed 'meet': 07:00 on weekdays"), "\(r)")
        meet = try #require(try world.listJSON().first)
        #expect(meet["options"] as? [String: String] == ["device": "null"], "the calendar and its lead both gone: \(meet)")
    }
}
