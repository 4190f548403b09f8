import Foundation
import Testing
import WakeCore

/// `wake change`, `wake on`/`off` and `--group` through the command line, on Monday 2027-03-01 at 05:00 UTC.
@Suite("Standing alarms: change, on and off, groups, in process")
struct ChangeCommandTests {
    func alarm(_ world: TestWorld, _ name: String) throws -> [String: Any] {
        try #require(try world.listJSON().first { $0["name"] as? String == name }, "no '\(name)' in the list")
    }

    @Test("change moves the time, keeps options and skips (a skip of a day no longer rung is dropped and said), resets, renames")
    func change() throws {
        let world = try TestWorld()
        var r = world.run(["add", "06:30", "--days", "weekdays", "--name", "work", "-D", "null", "--volume", "80"])
        #expect(r.code == 0, "\(r)")
        r = world.run(["skip", "work", "--on", "2027-03-03,2027-03-05"])
        #expect(r.code == 0, "\(r)")
        r = world.run(["change", "work", "06:45", "--days", "mon-thu"])
        #expect(r.code == 0 && r.stdout.contains("changed 'work': 06:45 on "), "\(r)")
        #expect(r.stdout.contains("dropped the skip of 2027-03-05: 'work' no longer rings that day"), "\(r)")
        var work = try alarm(world, "work")
        #expect(work["time"] as? String == "06:45:00" && work["days"] as? [String] == ["mon", "tue", "wed", "thu"], "\(work)")
        #expect((work["skips"] as? [String])?.map { $0.prefix(10) } == ["2027-03-03"], "\(work)")
        #expect((work["options"] as? [String: String]) == ["device": "null", "volume": "80"], "\(work)")

        r = world.run(["change", "work", "--snooze", "5m", "--reset", "volume", "--group", "job"])
        #expect(r.code == 0, "\(r)")
        work = try alarm(world, "work")
        #expect((work["options"] as? [String: String]) == ["device": "null", "snooze": "5m", "group": "job"]
                    && work["group"] as? String == "job", "\(work)")
        #expect(work["time"] as? String == "06:45:00", "the time is kept")

        r = world.run(["add", "08:00", "--name", "late", "-D", "null"])
        #expect(r.code == 0, "\(r)")
        let before = try String(contentsOfFile: world.alarmsFile, encoding: .utf8)
        for (args, words) in [(["change", "nosuch", "07:00"], "no standing alarm named 'nosuch'"),
                              (["change", "work", "--name", "late"], "'late' exists already"),
                              (["change", "work", "--name", "Bad Name"], "--name: invalid name"),
                              (["change", "work", "--volume", "0"], "silent"),
                              (["change", "work", "--reset", "tyme"], "--reset: no option 'tyme'"),
                              (["change", "work", "--reset", "volume", "--volume", "50"], "contradict"),
                              (["change", "work", "--group", "Bad Name"], "--group: invalid name"),
                              (["change", "work"], "nothing to change in 'work'")] {
            let r = world.run(args)
            #expect(r.code == 64 && r.stderrIsOneLine && r.stderr.contains(words), "\(args): \(r)")
        }
        #expect(try String(contentsOfFile: world.alarmsFile, encoding: .utf8) == before, "a refusal changes nothing")

        r = world.run(["add", "2027-03-24T08:00", "--name", "dentist", "-D", "null"])
        #expect(r.code == 0, "\(r)")
        r = world.run(["change", "dentist", "9:30"])
        #expect(r.code == 0 && r.stdout.contains("changed 'dentist': 09:30 on 2027-03-24"), "a dated one-off keeps its date: \(r)")

        r = world.run(["change", "work", "--name", "early"])
        #expect(r.code == 0 && r.stdout.contains("changed 'work', now 'early'"), "\(r)")
        let early = try alarm(world, "early")
        #expect((early["skips"] as? [String])?.count == 1, "the record follows the rename: \(early)")
        #expect(try world.listJSON().contains { $0["name"] as? String == "work" } == false)
    }

    @Test("off: kept, shown as off, passed over by next; on again; --group switches, pauses and removes a group")
    func switchesAndGroups() throws {
        let world = try TestWorld()
        for args in [["add", "06:30", "--days", "weekdays", "--name", "work", "--group", "job"],
                     ["add", "07:00", "--days", "daily", "--name", "gym", "--group", "job"],
                     ["add", "08:00", "--name", "dentist"]] {
            let r = world.run(args + ["-D", "null"])
            #expect(r.code == 0, "\(r)")
        }
        var r = world.run(["off", "work"])
        #expect(r.code == 0 && r.stdout.contains("switched 'work' off"), "\(r)")
        var work = try alarm(world, "work")
        #expect(work["enabled"] as? Bool == false && work["state"] as? String == "off" && work["next"] is NSNull, "\(work)")
        r = world.run(["next", "--json"])
        let next = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r)")
        #expect(next["id"] as? String == "gym", "an off alarm is passed over: \(next)")
        r = world.run(["list"])
        #expect(r.stdout.split(separator: "\n").contains { $0.hasPrefix("work") && $0.contains("off") }, "\(r)")
        r = world.run(["on", "work"])
        #expect(r.code == 0 && r.stdout.contains("switched 'work' on"), "\(r)")
        work = try alarm(world, "work")
        #expect(work["enabled"] as? Bool == true && work["state"] as? String == "waiting", "\(work)")

        r = world.run(["off", "--group", "job"])
        #expect(r.code == 0 && r.stdout.contains("group 'job': gym, work"), "\(r)")
        #expect(try world.listJSON().filter { $0["enabled"] as? Bool == false }.map { $0["name"] as? String } == ["gym", "work"])
        r = world.run(["on", "--group", "nope"])
        #expect(r.code == 64 && r.stderrIsOneLine && r.stderr.contains("no alarm is in the group 'nope'; the groups are job"), "\(r)")
        r = world.run(["pause", "--until", "2027-03-10", "--group", "job"])
        #expect(r.code == 0 && r.stdout.contains("group 'job'"), "\(r)")
        #expect(try alarm(world, "dentist")["paused_until"] is NSNull, "only the group is paused")
        r = world.run(["skip", "--group", "job"])
        #expect(r.code == 0 && r.stdout.contains("group 'job'"), "\(r)")
        r = world.run(["remove", "--group", "job"])
        #expect(r.code == 0 && r.stdout.contains("removed 'gym'") && r.stdout.contains("removed 'work'"), "\(r)")
        #expect(try world.listJSON().map { $0["name"] as? String } == ["dentist"])
        r = world.run(["add", "06:30", "--group", "Bad Name", "-D", "null"])
        #expect(r.code == 64 && r.stderr.contains("--group: invalid name"), "\(r)")
    }
}

extension ChangeCommandTests {
    @Test("change keeps the day rules: an odd-week alarm moved is still odd-week, and every 3 days still counts from its date")
    func changeKeepsDayRules() throws {
        let world = try TestWorld()
        #expect(world.run(["add", "06:30", "--days", "weekdays", "--weeks", "odd", "--name", "shift", "-D", "null"]).code == 0)
        #expect(world.run(["add", "07:00", "--every", "3d", "--from", "2027-03-02", "--name", "third", "-D", "null"]).code == 0)
        var r = world.run(["change", "shift", "06:45"])
        #expect(r.code == 0 && r.stdout.contains("in odd weeks"), "\(r)")
        r = world.run(["change", "third", "07:15"])
        #expect(r.code == 0, "\(r)")
        let third = try alarm(world, "third")
        let kept = third["options"] as? [String: String]
        #expect(kept?["from"] == "2027-03-02" && kept?["every"] == "3d", "\(third)")
        #expect((try alarm(world, "shift")["options"] as? [String: String])?["weeks"] == "odd")
        r = world.run(["change", "shift", "--weeks", "even"])
        #expect(r.code == 0 && r.stdout.contains("in even weeks"), "a rule changed: \(r)")
        r = world.run(["change", "shift", "--weeks", "odd", "--reset", "weeks"])
        #expect(r.code == 64 && r.stderr.contains("--reset weeks and --weeks contradict"), "\(r)")
        r = world.run(["change", "shift", "--reset", "weeks"])
        let shift = try alarm(world, "shift")
        #expect(r.code == 0 && (shift["options"] as? [String: String])?["weeks"] == nil, "\(r)")
    }
}

extension ChangeCommandTests {
    @Test("a timer or a one-off at an instant: not moved (64, saying what does), its ring options and name changed; no copies")
    func timersAreNotChanged() throws {
        let world = try TestWorld()
        #expect(world.run(["timer", "4m", "tea", "-D", "null"]).code == 0)
        #expect(world.run(["timer", "4m", "egg", "-D", "null"]).code == 0, "a second timer of the same length")
        #expect(world.run(["add", "+25m", "--name", "nap", "-D", "null"]).code == 0)
        var r = world.run(["change", "tea", "06:30"])
        #expect(r.code == 64 && r.stderr.contains("'tea' is a timer, which wake change cannot move: 'wake extend tea 5m'"), "\(r)")
        r = world.run(["change", "nap", "--days", "weekdays"])
        #expect(r.code == 64 && r.stderr.contains("'nap' is a one-off at an instant"), "\(r)")
        // Their ring options, name and group do change; the instant, the span and the round stay.
        let before = try world.store.load()
        r = world.run(["change", "nap", "--volume", "50", "--name", "siesta"])
        #expect(r.code == 0 && r.stdout.contains("changed 'nap', now 'siesta': 05:25 once; next 05:25 today, in 25m 0s"), "\(r)")
        r = world.run(["pause", "tea"])
        #expect(r.code == 0, "\(r)")
        r = world.run(["change", "tea", "--snooze", "2m", "--group", "kitchen"])
        #expect(r.code == 0 && r.stdout.contains("changed 'tea': a 4m timer; paused with 4m left; 'wake resume tea' starts it"), "\(r)")
        let after = try world.store.load()
        let (nap, siesta) = (try #require(before.first { $0.name == "nap" }), try #require(after.first { $0.name == "siesta" }))
        #expect(siesta.at == nap.at && siesta.created == nap.created && siesta.options["volume"] == "50", "\(siesta)")
        let tea = try #require(after.first { $0.name == "tea" })
        #expect(tea.timer?.remaining == .seconds(240) && tea.at == nil && tea.group == "kitchen" && tea.options["snooze"] == "2m", "\(tea)")
    }
}

extension ChangeCommandTests {
    @Test("an alarm switched off is changed and stays off; a copy of it refused says it is off; skip --group checks each member first")
    func offAlarmsAndGroupSkips() throws {
        let world = try TestWorld()
        #expect(world.run(["add", "06:30", "--days", "weekdays", "--name", "work", "--group", "job", "-D", "null"]).code == 0)
        #expect(world.run(["off", "work"]).code == 0)
        var r = world.run(["change", "work", "06:45"])
        #expect(r.code == 0 && r.stdout.contains("changed 'work': 06:45 on weekdays; off; 'wake on work' to ring it again"), "\(r)")
        let work = try alarm(world, "work")
        #expect(work["time"] as? String == "06:45:00" && work["enabled"] as? Bool == false, "\(work)")
        r = world.run(["add", "06:45", "--days", "weekdays", "-D", "null"])
        #expect(r.code == 64 && r.stderrIsOneLine
                    && r.stderr.contains("is already alarm 'work' (switched off: 'wake on work' rings it again); use --force"), "\(r)")

        // Sunday is none of 'work's days: the group's skip of it changes nobody, the timer passed over.
        #expect(world.run(["on", "work"]).code == 0)
        #expect(world.run(["add", "09:00", "--days", "daily", "--name", "gym", "--group", "job", "-D", "null"]).code == 0)
        #expect(world.run(["timer", "4m", "tea", "-D", "null"]).code == 0)
        // (A timer takes no --group; one put in a group by hand is passed over.)
        try world.store.update { alarms in
            for i in alarms.indices where alarms[i].name == "tea" { alarms[i].options[AlarmOption.group.name] = "job" }
        }
        let before = try? String(contentsOfFile: world.historyFile, encoding: .utf8)
        r = world.run(["skip", "--group", "job", "--on", "2027-03-07"])
        #expect(r.code == 64 && r.stderr.contains("'work' does not ring that day"), "\(r)")
        #expect((try? String(contentsOfFile: world.historyFile, encoding: .utf8)) == before, "nothing skipped")
        r = world.run(["skip", "--group", "job"])
        #expect(r.code == 0 && r.stdout.contains("'tea' is a timer, passed over") && r.stdout.contains("skipping 'gym'")
                    && r.stdout.contains("skipping 'work'"), "\(r)")
    }
}
