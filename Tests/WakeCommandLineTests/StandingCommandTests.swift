import Foundation
import Testing
import WakeCore

/// The standing-alarm commands through the command line: add, list, skip, remove, and their
/// refusals, on Monday 2027-03-01 at 05:00 UTC. (In process since issue 50; were
/// Tests/WakeTests/StandingAlarmTests.swift's StandingAlarmCommandTests but the relative sound,
/// which needs a working directory of its own; listsMissed has the list half of its
/// StandingAlarmDaemonTests.missedWhileDown.)
@Suite("Standing alarms: the commands, in process")
struct StandingCommandTests {
    @Test("add, list (table and JSON), skip and undo, remove")
    func lifecycle() throws {
        let world = try TestWorld()
        var r = world.run(["add", "06:30", "--days", "weekdays", "--name", "work", "-D", "null", "--volume", "80"])
        #expect(r.code == 0, "\(r)")
        #expect(r.stdout.contains("added 'work': 06:30 on weekdays; next 06:30"), "\(r)")
        #expect(r.stdout.contains("no daemon is running"), "it says how to start one: \(r)")
        r = world.run(["add", "7:15", "pm", "--days", "Sat,sun", "-D", "null"])
        #expect(r.code == 0 && r.stdout.contains("added '1915-weekends'"), "a generated name: \(r)")

        var list = try world.listJSON()
        // By the next ring (Monday 05:00: work's 06:30 today, then Saturday's); `--sort name` as before.
        #expect(list.map { $0["name"] as? String } == ["work", "1915-weekends"])
        let sorted = world.run(["list", "--json", "--sort", "name"])
        let byName = try JSONSerialization.jsonObject(with: Data(sorted.stdout.utf8)) as? [[String: Any]]
        #expect(byName?.map { $0["name"] as? String } == ["1915-weekends", "work"])
        func workIn(_ l: [[String: Any]]) -> [String: Any]? { l.first { $0["name"] as? String == "work" } }
        let work = try #require(workIn(list))
        #expect(work["time"] as? String == "06:30:00")
        #expect(work["days"] as? [String] == ["mon", "tue", "wed", "thu", "fri"])
        #expect(work["skip_next"] as? Bool == false && work["state"] as? String == "waiting")
        #expect((work["next"] as? String)?.hasSuffix("T06:30:00+00:00") == true, "\(work)")
        #expect((work["options"] as? [String: String]) == ["device": "null", "volume": "80"])
        let firstNext = work["next"] as? String

        r = world.run(["list"])
        #expect(r.code == 0 && r.stdout.contains("ID  ") && r.stdout.contains("work") && r.stdout.contains("weekdays"), "\(r)")

        r = world.run(["skip", "work"])
        #expect(r.code == 0 && r.stdout.contains("skipping 'work'"), "\(r)")
        list = try world.listJSON()
        // The state says which day is skipped (issue 40), as "Tue 24 Nov skipped".
        let skipped = try #require(workIn(list))
        #expect(skipped["skip_next"] as? Bool == true && (skipped["state"] as? String)?.hasSuffix(" skipped") == true, "\(list)")
        #expect(workIn(list)?["next"] as? String != firstNext, "the next occurrence is the one after the skipped one")
        r = world.run(["skip", "work", "--undo"])
        #expect(r.code == 0, "\(r)")
        list = try world.listJSON()
        #expect(workIn(list)?["skip_next"] as? Bool == false && workIn(list)?["next"] as? String == firstNext)

        r = world.run(["remove", "work"])
        #expect(r.code == 0 && r.stdout.contains("removed 'work'"), "\(r)")
        list = try world.listJSON()
        #expect(list.map { $0["name"] as? String } == ["1915-weekends"])
    }

    @Test("every mistake is refused with one line and its code, and nothing is stored", arguments: [
        (["add", "06:30", "--days", "mon-xyz"], Int32(64), "unknown day"),
        (["add", "06:30", "--days", ""], 64, "days"),
        (["add", "06:30", "--name", "Bad Name"], 64, "--name"),
        (["add", "+5m", "--days", "daily"], 64, "--days"),
        (["add", "now"], 64, "standing alarm needs a time of day"),
        (["add", "2020-01-01T07:00"], 64, "past"),
        (["add", "06:30", "--volume", "0"], 64, "silent"),
        (["add", "06:30", "--snooze", "0"], 64, "snooze"),
        (["add", "06:30", "-s", "/nonexistent/alarm.wav"], 66, "nonexistent"),
        (["add", "06:30", "-D", "nosuchdevice"], 69, "nosuchdevice"),
        (["add", "2026-12-24T07:00", "--days", "daily"], 64, "--days"),
        (["remove", "nobody"], 64, "no standing alarm named 'nobody'"),
        (["skip", "nobody"], 64, "no standing alarm named 'nobody'"),
    ])
    func refusals(args: [String], code: Int32, says: String) throws {
        let world = try TestWorld()
        let r = world.run(args)
        #expect(r.code == code, "\(r)")
        #expect(r.stderrIsOneLine && r.stderr.contains(says), "\(r)")
        #expect(!FileManager.default.fileExists(atPath: world.alarmsFile), "a refused command stores nothing")
    }

    @Test("a name that is taken is refused, and the first alarm is kept as it was")
    func duplicateName() throws {
        let world = try TestWorld()
        _ = world.run(["add", "06:30", "--name", "work", "-D", "null"])
        let before = try String(contentsOfFile: world.alarmsFile, encoding: .utf8)
        let r = world.run(["add", "07:30", "--name", "work", "-D", "null"])
        #expect(r.code == 64 && r.stderr.contains("exists already"), "\(r)")
        #expect(try String(contentsOfFile: world.alarmsFile, encoding: .utf8) == before)
    }

    @Test("a corrupt alarms file: 78 naming the line, and the file is left exactly as it was")
    func corruptFile() throws {
        let world = try TestWorld()
        _ = world.run(["add", "06:30", "--name", "work", "-D", "null"])
        let broken = try String(contentsOfFile: world.alarmsFile, encoding: .utf8) + "\ntyme = \"07:00\"\n"
        try broken.write(toFile: world.alarmsFile, atomically: false, encoding: .utf8)
        for args in [["list"], ["add", "07:00", "-D", "null"], ["remove", "work"]] {
            let r = world.run(args)
            #expect(r.code == 78, "\(args): \(r)")
            #expect(r.stderr.contains("line"), "the line is named: \(r)")
            #expect(try String(contentsOfFile: world.alarmsFile, encoding: .utf8) == broken, "never emptied or rewritten")
        }
    }

    @Test("an occurrence the daemon recorded as missed: wake list and its JSON say missed at its time")
    func listsMissed() throws {
        let world = try TestWorld()
        let add = world.run(["add", "04:00", "--days", "daily", "--name", "early", "-D", "null"])
        #expect(add.code == 0, "\(add)")
        var record = AlarmRecord(name: "early")
        record.missed = TestWorld.monday - .seconds(3600)
        try world.store.updateHistory { $0["early"] = record }
        let list = try world.listJSON()
        #expect(list.first?["state"] as? String == "missed at today 04:00" && list.first?["missed"] is String, "\(list)")
        let table = world.run(["list"])
        #expect(table.code == 0 && table.stdout.contains("missed at today 04:00"), "\(table)")
    }
}
