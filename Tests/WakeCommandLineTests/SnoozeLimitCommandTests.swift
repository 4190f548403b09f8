import Foundation
import Testing

/// `--snooze-limit` through the command line: `wake add` stores the limit and `wake list` shows
/// it; config.toml sets it; a bad value is refused. (In process since issue 50; was
/// Tests/WakeTests/SnoozeLimitEndToEndTests.swift's storedAndConfigured; the rings stay there.)
@Suite("Snooze limit: the command line")
struct SnoozeLimitCommandTests {
    @Test("wake add --snooze-limit 2 is stored and listed; config.toml's limit shows in the dry run; a bad value is refused")
    func storedAndConfigured() throws {
        let world = try TestWorld()
        var r = world.run(["add", "06:30", "--days", "weekdays", "--name", "work", "-D", "null", "--snooze-limit", "2"])
        #expect(r.code == 0, "\(r)")
        let stored = try String(contentsOfFile: world.alarmsFile, encoding: .utf8)
        #expect(stored.contains("\nsnooze-limit = \"2\"\n"), "\(stored)")
        let work = try #require(try world.listJSON().first)
        #expect((work["options"] as? [String: String])?["snooze-limit"] == "2", "\(work)")

        r = world.run(["add", "07:00", "-D", "null", "--snooze-limit", "100"])
        #expect(r.code == 64 && r.stderr.contains("--snooze-limit: invalid value '100'; give a whole number from 0 to 99"), "\(r)")

        try world.writeConfig("snooze-limit = 3\n")
        r = world.run(["07:00", "-D", "null", "--dry-run", "--inhibit", "off"])
        #expect(r.code == 0 && r.stdout.contains("snooze: 9m, at most 3 times a ring (from \(world.configFile) line 1)"), "\(r)")
        // 0 lifts the file's limit for one alarm.
        r = world.run(["07:00", "-D", "null", "--dry-run", "--inhibit", "off", "--snooze-limit", "0"])
        #expect(r.code == 0 && r.stdout.contains("snooze: 9m (from the command line)\n"), "\(r)")
    }
}
