import Foundation
import Testing
import WakeCore

/// Alarms as people keep them (issue 54), on Monday 2027-03-01 at 05:00 UTC: no silent copies,
/// and `wake skip` without a name.
@Suite("Keeping alarms: copies refused, skip without a name")
struct KeepingCommandTests {
    @Test("an alarm at work's time on work's days is refused (64) naming work; --force adds it; the doctor names both")
    func duplicateRefused() throws {
        let world = try TestWorld()
        #expect(world.run(["add", "06:30", "--days", "weekdays", "--name", "work", "-D", "null"]).code == 0)
        var r = world.run(["add", "06:30", "--days", "mon-fri", "-D", "null", "--volume", "50"])
        #expect(r.code == 64 && r.stderrIsOneLine, "\(r)")
        #expect(r.stderr == "wake: 06:30 on weekdays is already alarm 'work'; use --force to add another, "
                + "or 'wake remove work' first\n", "\(r)")
        for _ in 0..<2 { _ = world.run(["add", "08:00", "-D", "null"]) }
        #expect(try world.listJSON().compactMap { $0["name"] as? String }.sorted() == ["0800", "work"], "08:00 twice is one alarm")
        #expect(world.run(["add", "06:30", "--days", "weekends", "-D", "null"]).code == 0, "other days: not a copy")
        r = world.run(["add", "06:30", "--days", "weekdays", "--name", "work-too", "-D", "null", "--force"])
        #expect(r.code == 0 && r.stdout.contains("added 'work-too'"), "\(r)")
        r = world.run(["change", "0800", "06:30", "--days", "weekends"])
        #expect(r.code == 64 && r.stderr.contains("06:30 on weekends is already alarm '0630-weekends'; use --force"), "a change too: \(r)")
        r = world.run(["doctor", "work"])
        #expect(r.stdout.contains("alarms 'work' and 'work-too' ring at the same moments"), "\(r)")
        #expect(r.stdout.contains("wake remove work-too"), "\(r)")
    }

    @Test("wake skip without a name skips the alarm that rings next, and says it; --undo takes back the one alarm's skips")
    func skipWithoutName() throws {
        let world = try TestWorld()
        var r = world.run(["skip"])
        #expect(r.code == 1 && r.stderr.contains("no standing alarm rings ahead: nothing to skip"), "\(r)")
        _ = world.run(["timer", "10m", "tea", "-D", "null"])
        r = world.run(["skip", "tea"])
        #expect(r.code == 64 && r.stderr.contains("'tea' is a timer: it has no occurrence to skip"), "\(r)")
        _ = world.run(["add", "07:00", "--days", "daily", "--name", "late", "-D", "null"])
        _ = world.run(["add", "06:30", "--days", "weekdays", "--name", "work", "-D", "null"])
        r = world.run(["skip"])
        #expect(r.code == 0 && r.stdout.contains("skipping 'work' at Mon 1 Mar 06:30"), "\(r)")
        r = world.run(["skip"])
        #expect(r.code == 0 && r.stdout.contains("skipping 'late' at Mon 1 Mar 07:00"), "the next to ring is now late's: \(r)")
        r = world.run(["skip", "--undo"])
        #expect(r.code == 1 && r.stderr.contains("several alarms have skips ahead (late, work); name one"), "\(r)")
        _ = world.run(["skip", "late", "--undo"])
        r = world.run(["skip", "--undo"])
        #expect(r.code == 0 && r.stdout.contains("'work' rings again at Mon 1 Mar 06:30"), "\(r)")
        r = world.run(["skip", "--on", "2027-03-02"])
        #expect(r.code == 64 && r.stderr.contains("--on needs the alarm's name"), "\(r)")
    }

    @Test("pause --until and --from, skip --on and resume --on take WHEN's day words; --until mon on a Monday is the next one")
    func dayWords() throws {
        let world = try TestWorld()  // Monday 2027-03-01, 05:00 UTC
        _ = world.run(["add", "06:30", "--days", "weekdays", "--name", "work", "-D", "null"])
        var r = world.run(["pause", "--until", "tomorrow", "work"])
        #expect(r.code == 0 && r.stdout.contains("paused until tomorrow 00:00"), "\(r)")
        _ = world.run(["resume", "--all"])
        r = world.run(["pause", "--until", "mon"])
        #expect(r.code == 0 && r.stdout.contains("Mon 8 Mar"), "\(r)")
        r = world.run(["resume", "--on", "today"])
        #expect(r.code == 0, "\(r)")
        r = world.run(["pause", "--from", "dec 24", "--until", "2027-12-28"])
        #expect(r.code == 0 && r.stdout.contains("24 Dec"), "\(r)")
        r = world.run(["skip", "work", "--on", "wed"])
        #expect(r.code == 0 && r.stdout.contains("skipping 'work' at Wed 3 Mar 06:30"), "\(r)")
        r = world.run(["pause", "--until", "someday"])
        #expect(r.code == 64 && r.stderr.contains("tomorrow, mon or 'dec 24'"), "\(r)")
    }
}
