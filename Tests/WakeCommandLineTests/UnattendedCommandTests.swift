import Foundation
import Testing
@testable import WakeTestSupport

/// `--unattended`, `--unattended-rounds`, `--escalate` and `--check-up` through the command line: each bad
/// value refused at arm time with one line and 64 (a one-off and `wake add`), the dry run's
/// lines, config.toml's key for every alarm, and `wake add` storing them.
@Suite("Unattended rings: the command line")
struct UnattendedCommandTests {
    static let refusals: [(arguments: [String], message: String)] = [
        (["--unattended", "loud"], "--unattended: invalid mode 'loud'; use stop (end, exit 4), snooze (snooze and ring again) or ring"),
        (["--unattended", ""], "--unattended: invalid mode ''"),
        (["--unattended-rounds", "0"], "--unattended-rounds: invalid value '0'; give a whole number from 1 to 10"),
        (["--unattended-rounds", "11"], "--unattended-rounds: invalid value '11'; give a whole number from 1 to 10"),
        (["--unattended-rounds", "two"], "--unattended-rounds: invalid value 'two'"),
        (["--escalate", "yes"], "--escalate: invalid mode 'yes'; use on (louder each unanswered round) or off"),
        (["--check-up", "500ms"], "--check-up 500ms is shorter than a second; give 1s or more, or 0 for none"),
        (["--check-up", "soon"], "--check-up: "),
    ]

    @Test("each bad value: 64, one line naming it, for a one-off and for wake add")
    func refused() throws {
        let world = try TestWorld()
        for (arguments, message) in Self.refusals {
            for head in [["07:00", "--dry-run"], ["add", "06:30", "--days", "weekdays"]] {
                let r = world.run(head + ["-D", "null"] + arguments)
                #expect(r.code == 64 && r.stderrIsOneLine && r.stderr.contains(message) && r.out.isEmpty, "\(head + arguments): \(r)")
            }
        }
    }

    @Test("the dry run says what an unanswered ring leads to: a one-off stops unless told; config.toml sets it for every alarm")
    func dryRun() throws {
        let world = try TestWorld()
        var r = world.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off"])
        #expect(r.code == 0 && r.stdout.contains("unattended: stop (unanswered for 10m, it stops: exit 4)\n"), "\(r)")
        #expect(r.stdout.contains("escalate: off\n"), "\(r)")
        #expect(r.stdout.contains("check up: none\n"), "\(r)")
        r = world.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off", "--check-up", "5m"])
        #expect(r.code == 0 && r.stdout.contains("check up: 5m after you stop it (a short quiet ring; unanswered within 1m, "
                                                 + "the alarm rings again) (from the command line)"), "\(r)")
        r = world.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off", "--unattended", "snooze", "--escalate", "on",
                       "--volume", "40", "-s", packageRoot + "/Resources/alarm.flac"])
        #expect(r.code == 0 && r.stdout.contains("unattended: snooze, 3 rounds (unanswered for 10m: a 9m snooze, then it rings again; "
                                                 + "unanswered 3 times, it stops: exit 4) (from the command line)"), "\(r)")
        #expect(r.stdout.contains("escalate: on (round 2 at 70 %, round 3 at 100 % with wake's built-in sound) (from the command line)"),
                "\(r)")
        try world.writeConfig("unattended = \"ring\"\n")
        r = world.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off"])
        #expect(r.code == 0 && r.stdout.contains("unattended: ring (unanswered for 10m, it rings on until 30m past its time, then it "
                                                 + "stops: "
                                                 + "exit 4) (from \(world.configFile) line 1)"), "\(r)")
        try world.writeConfig("unattended = \"loud\"\n")
        r = world.run(["07:00", "--dry-run", "-D", "null"])
        #expect(r.code == 78 && r.stderr.contains("unattended"), "\(r)")
    }

    @Test("wake add stores what it is given, and nothing when it is not (the daemon's default then snoozes)")
    func stored() throws {
        let world = try TestWorld()
        var r = world.run(["add", "06:30", "--days", "weekdays", "--name", "work", "-D", "null", "--unattended", "ring",
                           "--escalate", "on"])
        #expect(r.code == 0, "\(r)")
        r = world.run(["add", "07:30", "--days", "weekends", "--name", "lie-in", "-D", "null"])
        #expect(r.code == 0, "\(r)")
        let stored = try String(contentsOfFile: world.alarmsFile, encoding: .utf8)
        #expect(stored.contains("\nunattended = \"ring\"\n") && stored.contains("\nescalate = \"on\"\n"), "\(stored)")
        #expect(stored.components(separatedBy: "\nunattended = ").count == 2, "only the alarm given it stores it: \(stored)")
    }
}
