import Foundation
import Testing

/// `--ring-for` and `--late-limit` under a second (issue 37 item 16), through the command line:
/// refused wherever they are given; 0 keeps its meaning. (In process since issue 50; were
/// Tests/WakeTests/ShortDurationTests.swift's refused, the dry-run half of accepted and the
/// one-off's half of daemonSetsAside; the ring of a second and the daemon stay end to end.)
@Suite("Durations under a second: the command line")
struct DurationCommandTests {
    @Test("a one-off and wake add: 64, one line naming the value, nothing stored", arguments: [
        (["now", "--ring-for", "1ms"], "--ring-for 1ms is shorter than a second"),
        (["now", "--ring-for", "999ms"], "--ring-for 999ms is shorter than a second"),
        (["now", "--late-limit", "1ms"], "--late-limit 1ms is shorter than a second"),
        (["add", "06:30", "--ring-for", "500ms"], "--ring-for 500ms is shorter than a second"),
        (["add", "06:30", "--late-limit", "10ms"], "--late-limit 10ms is shorter than a second"),
    ])
    func refused(args: [String], says: String) throws {
        let world = try TestWorld()
        let r = world.run(args + ["-D", "null"])
        #expect(r.code == 64 && r.stderrIsOneLine && r.stderr.contains(says) && r.stderr.contains("or 0"), "\(r)")
        #expect(r.out.isEmpty, "\(r)")
        #expect(!FileManager.default.fileExists(atPath: world.alarmsFile), "nothing stored")
    }

    @Test("0 is still taken: ring until stopped, no late limit")
    func zeroTaken() throws {
        let zero = try runWake(["07:00", "-D", "null", "--ring-for", "0", "--late-limit", "0", "--dry-run", "--inhibit", "off"])
        #expect(zero.code == 0 && zero.stdout.contains("ring for: until stopped") && zero.stdout.contains("late limit: none"), "\(zero)")
    }

    @Test("in config.toml: a one-off is refused at once, naming the file's line")
    func configRefusedForOneOff() throws {
        let world = try TestWorld()
        try world.writeConfig("ring-for = \"1ms\"\nlate-limit = \"500ms\"\n")
        let oneOff = world.run(["07:00", "-D", "null", "--dry-run"])
        #expect(oneOff.code == 78 && oneOff.stderrIsOneLine && oneOff.stderr.contains("line 1, ring-for"), "\(oneOff)")
    }
}
