import Foundation
import Testing
import WakeCore

/// `wake add +25m`, `wake timer` and its pause, resume and extend, in process on the fake clock
/// (Monday 2027-03-01 05:00:17 UTC: the seconds of a span are kept).
@Suite("Timers: the commands, in process")
struct TimerCommandTests {
    static let start = TestWorld.monday + .seconds(17)

    @Test("wake add +25m and 'in 20 minutes' store their instant, seconds kept; list shows them")
    func addSpan() throws {
        let world = try TestWorld(now: Self.start)
        var r = world.run(["add", "+25m", "-D", "null"])
        #expect(r.code == 0 && r.stdout.contains("added '052517': 05:25:17 once"), "\(r)")
        r = world.run(["add", "in", "20", "minutes", "--message", "tea", "--name", "tea", "-D", "null"])
        #expect(r.code == 0, "\(r)")
        let alarms = try world.store.load()
        #expect(alarms.first { $0.name == "052517" }?.at == Self.start + .seconds(25 * 60))
        #expect(alarms.first { $0.name == "tea" }?.at == Self.start + .seconds(20 * 60))
        #expect(try String(contentsOfFile: world.alarmsFile, encoding: .utf8).contains("at = \"2027-03-01T05:25:17Z\""))
        let list = try world.listJSON()
        #expect(list.first { $0["name"] as? String == "tea" }?["next"] as? String == "2027-03-01T05:20:17+00:00", "\(list)")
    }

    @Test("wake timer: named timer, timer-2; pause holds the span left, resume starts it again, extend adds to it")
    func timerHabits() throws {
        var world = try TestWorld(now: Self.start)
        var r = world.run(["timer", "4m", "-D", "null"])
        #expect(r.code == 0 && r.stdout.contains("added 'timer': a 4m timer"), "\(r)")
        r = world.run(["timer", "90s", "-D", "null", "--repeat"])
        #expect(r.code == 0 && r.stdout.contains("added 'timer-2': a 1m30s timer that repeats"), "\(r)")
        world.now = Self.start + .seconds(60)
        r = world.run(["pause", "timer"])
        #expect(r.code == 0 && r.stdout.contains("paused 'timer' with 3m left"), "\(r)")
        var list = try world.listJSON()
        let paused = try #require(list.first { $0["name"] as? String == "timer" })
        #expect(paused["state"] as? String == "paused, 4m timer, 3m left" && paused["next"] is NSNull, "\(paused)")
        #expect((paused["timer"] as? [String: Any])?["remaining_seconds"] as? Int == 180, "\(paused)")
        r = world.run(["list"])
        #expect(r.stdout.split(separator: "\n").contains { $0.hasPrefix("timer ") && $0.contains(" -  ") && !$0.contains("05:04") },
                "a paused timer has no time to ring at: \(r)")
        r = world.run(["next"])
        #expect(r.stdout.contains("timer-2"), "a paused timer is not next: \(r)")
        world.now = Self.start + .seconds(600)
        r = world.run(["extend", "timer", "30s"])
        #expect(r.code == 0 && r.stdout.contains("3m30s left"), "\(r)")
        r = world.run(["resume", "timer"])
        #expect(r.code == 0 && r.stdout.contains("resumed 'timer': rings at 05:13:47"), "\(r)")
        list = try world.listJSON()
        let running = try #require(list.first { $0["name"] as? String == "timer" })
        #expect(running["state"] as? String == "4m30s timer, 3m30s left" && running["next"] as? String == "2027-03-01T05:13:47+00:00",
                "\(running)")
        r = world.run(["list"])
        #expect(r.code == 0 && r.stdout.contains("4m30s timer, 3m30s left"), "\(r)")
        world.now = Self.start + .seconds(700)
        #expect(world.run(["remove", "timer-2"]).code == 0, "its 90s are over: with no daemon it would be next, 'now'")
        r = world.run(["next", "--json"])
        #expect(r.code == 0 && r.stdout.contains("\"id\":\"timer\"") && r.stdout.contains("\"in_s\":110"), "the time left: \(r)")
    }

    @Test("refusals: one line, exit 64", arguments: [
        (["timer", "0"], "not from 1s"),
        (["timer", "soon"], "SPAN"),
        (["timer", "4m", "Bad Name"], "--name"),
        (["extend", "nobody", "2m"], "no standing alarms to extend"),
        (["pause"], "pause: say until when, as 'wake pause --until mon'"),
    ])
    func refusals(args: [String], says: String) throws {
        let world = try TestWorld(now: Self.start)
        let r = world.run(args)
        #expect(r.code == 64 && r.stderrIsOneLine && r.stderr.contains(says), "\(r)")
    }

    @Test("pause, resume and extend on an alarm that is no timer say so")
    func notATimer() throws {
        let world = try TestWorld(now: Self.start)
        _ = world.run(["add", "06:30", "--name", "work", "-D", "null"])
        var r = world.run(["pause", "work"])
        #expect(r.code == 64 && r.stderr.contains("'work' is no timer"), "\(r)")
        r = world.run(["extend", "work", "2m"])
        #expect(r.code == 64 && r.stderr.contains("'work' is no timer"), "\(r)")
    }
}

extension TimerCommandTests {
    @Test("a bare resume and one of a timer with an alarm start the paused timers; extend past a year is refused; off shows off")
    func resumeAll() throws {
        var world = try TestWorld(now: Self.start)
        #expect(world.run(["timer", "4m", "tea", "-D", "null"]).code == 0)
        #expect(world.run(["timer", "10m", "egg", "-D", "null"]).code == 0)
        #expect(world.run(["add", "06:30", "--days", "daily", "--name", "work", "-D", "null"]).code == 0)
        world.now = Self.start + .milliseconds(60_250)  // a real clock's fraction: held to the second
        var r = world.run(["pause", "tea", "egg"])
        #expect(r.code == 0 && r.stdout.contains("paused 'tea' with 3m left"), "\(r)")
        #expect(world.run(["pause", "work", "--until", "wed"]).code == 0)
        func state(_ name: String) throws -> String? {
            try world.listJSON().first { $0["name"] as? String == name }?["state"] as? String
        }
        r = world.run(["resume"])
        #expect(r.code == 0 && r.stdout.contains("resumed 'tea': rings at 05:04:17") && r.stdout.contains("resumed 'egg'")
                    && r.stdout.contains("'work' resumed"), "\(r)")
        #expect(try state("tea") == "4m timer, 3m left", "the bare resume starts the timer")
        #expect(world.run(["pause", "tea"]).code == 0)
        #expect(world.run(["pause", "work", "--until", "wed"]).code == 0)
        r = world.run(["resume", "tea", "work"])
        #expect(r.code == 0 && r.stdout.contains("resumed 'tea'") && r.stdout.contains("'work' resumed"), "\(r)")

        r = world.run(["extend", "tea", "366d"])
        #expect(r.code == 64 && r.stderrIsOneLine && r.stderr.contains("would run longer than 366d"), "\(r)")
        #expect(world.run(["pause", "tea"]).code == 0)
        #expect(world.run(["off", "tea"]).code == 0)
        #expect(try state("tea") == "off", "a paused timer switched off shows off")
    }
}
