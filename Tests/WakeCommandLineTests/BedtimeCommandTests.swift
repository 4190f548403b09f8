import Foundation
import Testing
import WakeCore

/// Issue 56, `--bedtime` (an alarm's own bedtime reminder, over config.toml's `sleep-target`)
/// through `wake add` and `wake change`, in process; the reminder itself: WakeRuntimeTests.
@Suite("Standing alarms: --bedtime, in process")
struct BedtimeCommandTests {
    func options(_ world: TestWorld, _ name: String) throws -> [String: String] {
        let alarm = try #require(try world.listJSON().first { $0["name"] as? String == name }, "no '\(name)'")
        return alarm["options"] as? [String: String] ?? [:]
    }

    @Test("stored as given; changed; reset; 0 or over 16h refused with its line and exit 64, nothing written")
    func storedChangedReset() throws {
        let world = try TestWorld()
        var r = world.run(["add", "06:30", "--days", "weekdays", "--name", "work", "-D", "null", "--bedtime", "8h"])
        #expect(r.code == 0, "\(r)")
        #expect(try options(world, "work")["bedtime"] == "8h")
        r = world.run(["change", "work", "--bedtime", "7h30m"])
        #expect(try r.code == 0 && options(world, "work")["bedtime"] == "7h30m", "\(r)")
        r = world.run(["change", "work", "--volume", "70"])
        #expect(try r.code == 0 && options(world, "work")["bedtime"] == "7h30m", "kept by a change of something else: \(r)")
        let before = try String(contentsOfFile: world.alarmsFile, encoding: .utf8)
        for (args, words) in [(["change", "work", "--bedtime", "0"], "--bedtime: must be longer than zero, as 8h"),
                              (["change", "work", "--bedtime", "17h"], "--bedtime 17h is longer than 16h"),
                              (["add", "07:00", "--name", "gym", "-D", "null", "--bedtime", "0"], "--bedtime: must be longer than zero"),
                              (["change", "work", "--reset", "bedtime", "--bedtime", "8h"], "contradict")] {
            let r = world.run(args)
            #expect(r.code == 64 && r.stderrIsOneLine && r.stderr.contains(words), "\(args): \(r)")
        }
        #expect(try String(contentsOfFile: world.alarmsFile, encoding: .utf8) == before, "a refusal changes nothing")
        r = world.run(["change", "work", "--reset", "bedtime"])
        #expect(try r.code == 0 && options(world, "work")["bedtime"] == nil, "\(r)")
    }
}
