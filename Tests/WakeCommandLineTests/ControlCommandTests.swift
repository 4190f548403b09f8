import Testing

/// `wake stop`, `snooze` and `cancel` when no wake runs, through both of the command line's paths:
/// the plain words that skip the parser and the parsed ones. The world has no control directory,
/// so no running wake of the machine is asked. (New with issue 50: the fast paths in process; the
/// unknown-ID and empty-list cases were Tests/WakeTests/ControlTests.swift's nothingToReach.)
@Suite("Control commands: the command line")
struct ControlCommandTests {
    @Test("nothing running: exit 1 and one line, whichever path the words take", arguments: [
        (["stop"], "nothing is ringing or snoozed; see 'wake list'"),
        (["stop", "--", "work"], "no running alarm has the ID 'work'; see 'wake list'"),
        (["cancel", "123"], "no running alarm has the ID '123'; see 'wake list'"),
        (["snooze"], "nothing is ringing; see 'wake list'"),
    ])
    func nothingRunning(args: [String], says: String) throws {
        let r = try runWake(args)
        #expect(r.code == 1 && r.out.isEmpty && r.err == ["wake: " + says], "\(r)")
    }

    @Test("a bad ID or option: 64 and one line", arguments: [
        (["stop", "a b"], "invalid alarm ID 'a b'; give a PID or a standing alarm's name, as 'wake list' shows them"),
        (["stop", "-q"], "Unknown option '-q'; see 'wake stop --help'"),
        (["cancel"], "Missing expected argument '<id>'; see 'wake cancel --help'"),
        (["cancel", "../../etc"], "invalid alarm ID '../../etc'; give a PID or a standing alarm's name, as 'wake list' shows them"),
    ])
    func refused(args: [String], says: String) throws {
        let r = try runWake(args)
        #expect(r.code == 64 && r.out.isEmpty && r.err == ["wake: " + says], "\(r)")
    }

    @Test("wake list with nothing running and nothing stored: 0, no alarms")
    func listNothing() throws {
        let r = try runWake(["list"])
        #expect(r.code == 0 && r.err.isEmpty && r.stdout.contains("no alarms"), "\(r)")
    }

    // Was the refusals of Tests/WakeTests/ChosenSnoozeEndToEndTests.swift's spanAgainstAOneOff: a length is
    // checked before any wake is asked.
    @Test("wake snooze refuses a bad length before asking anyone: 64 and one line", arguments: [
        (["snooze", "0"], "snooze length '0' is zero"), (["snooze", "13h"], "longer than 12h"),
        (["snooze", "20m", "--until", "07:40"], "not both"), (["snooze", "123", "2x"], "invalid duration '2x'"),
    ])
    func snoozeLengthsRefused(args: [String], says: String) throws {
        let r = try runWake(args)
        #expect(r.code == 64 && r.out.isEmpty && r.stderrIsOneLine && r.stderr.contains(says), "\(r)")
    }
}
