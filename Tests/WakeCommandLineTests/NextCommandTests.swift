import Foundation
import Testing

/// `wake next` through the command line: the soonest standing alarm, for a status bar (issue 26),
/// on Monday 2027-03-01 at 05:00 UTC. (In process since issue 50; were
/// Tests/WakeTests/NextTests.swift's none, parser and the standing half of standingThenOneOff;
/// running and ringing wakes stay end to end.)
@Suite("wake next: the command line")
struct NextCommandTests {
    @Test("nothing to ring: nothing printed, exit 1")
    func none() throws {
        let world = try TestWorld()
        let r = world.run(["next"])
        #expect(r.code == 1 && r.out.isEmpty, "\(r)")
        let j = world.run(["next", "--json"])
        #expect(j.code == 1 && j.out.isEmpty, "\(j)")
    }

    @Test("the soonest standing alarm, with its message; a skip passes its occurrence over")
    func soonestStanding() throws {
        let world = try TestWorld()
        var r = world.run(["add", "08:00", "--days", "daily", "--name", "late", "-D", "null"])
        #expect(r.code == 0, "\(r)")
        r = world.run(["add", "07:00", "--days", "daily", "--name", "early", "-D", "null", "--message", "Stand-up"])
        #expect(r.code == 0, "\(r)")
        r = world.run(["next"])
        #expect(r.code == 0, "\(r)")
        #expect(r.out.count == 1 && r.stdout.contains(" (early), in 2h 0m") && r.stdout.hasSuffix(": Stand-up\n"), "\(r)")
        #expect(r.stderr.contains("no daemon is running"), "\(r)")
        let j = world.run(["next", "--json"])
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any], "\(j)")
        #expect(obj["kind"] as? String == "standing" && obj["id"] as? String == "early" && obj["message"] as? String == "Stand-up",
                "\(obj)")
        #expect(obj["in_s"] as? Int == 7200, "\(obj)")

        r = world.run(["skip", "early"])
        #expect(r.code == 0, "\(r)")
        r = world.run(["next"])
        #expect(r.stdout.contains(" (late), in 3h 0m"), "the skipped occurrence is passed over: \(r)")
    }

    @Test("--help and a stray word go through the parser")
    func parser() throws {
        let h = try runWake(["next", "--help"])
        #expect(h.code == 0 && h.stdout.contains("--json"), "\(h)")
        let bad = try runWake(["next", "work"])
        #expect(bad.code == 64 && bad.stderrIsOneLine, "\(bad)")
    }

    @Test("--format without --follow, and an unknown format, are usage errors (64, one line, naming what to do)")
    func formatRefused() throws {
        let bad = try runWake(["next", "--format", "waybar"])
        #expect(bad.code == 64 && bad.stderrIsOneLine && bad.stderr.contains("--follow"), "\(bad)")
        let unknown = try runWake(["next", "--follow", "--format", "polybar"])
        #expect(unknown.code == 64 && unknown.stderrIsOneLine && unknown.stderr.contains("plain, json, waybar, i3blocks"), "\(unknown)")
    }
}
