import Testing
import WakeCore

/// B. Bad input: exit 64, exactly one line on stderr, nothing on stdout. `--dry-run` is added
/// so that a token accepted by mistake ends the run at once instead of arming an alarm.
/// (In process since issue 50; was Tests/WakeTests/BadInputTests.swift.)
@Suite("B. Bad input")
struct BadInputTests {
    static let badTimes = [
        "25:00", "7:60", "07:00:60", "13pm", "0am", "abc", "", "+0m", "+5x", "+99999999999999999999h",
        "2026-02-30T07:00", " 07:00",
    ]

    @Test("a bad WHEN: 64, one stderr line quoting it and listing the accepted forms", arguments: badTimes)
    func badWhen(token: String) throws {
        let r = try runWake([token, "--dry-run", "-D", "null"])
        #expect(r.code == 64, "\(r)")
        #expect(r.out.isEmpty, "\(r)")
        #expect(r.stderrIsOneLine, "\(r)")
        #expect(r.stderr.contains("'\(token)'"), "the message should quote the token: \(r)")
        #expect(r.stderr.contains("accepted forms"), "\(r)")
        // The accepted forms are listed, not just mentioned.
        for form in ["07:00", "7am", "+8h", "now"] {
            #expect(r.stderr.contains(form), "missing accepted form \(form): \(r)")
        }
    }

    @Test("-5m (looks like an option): still 64 and one line")
    func negativeSpan() throws {
        let r = try runWake(["-5m", "--dry-run", "-D", "null"])
        #expect(r.code == 64, "\(r)")
        #expect(r.out.isEmpty, "\(r)")
        #expect(r.stderrIsOneLine, "\(r)")
    }

    static let badOptions: [[String]] = [
        ["07:00", "--bogus"],
        ["07:00", "--volume", "101"],
        ["07:00", "--volume", "abc"],
        ["07:00", "--snooze", "0"],
        ["07:00", "--fade-in", "5m", "--ring-for", "1m"],
        ["07:00", "--snooze", "10m", "--snooze-long", "5m"],
        ["07:00", "--snooze-long", "1m"],  // under the built-in snooze
        ["07:00", "--volume", "50", "--volume", "60"],
        [],  // missing WHEN
    ]

    @Test("bad options and a missing WHEN: 64 and one line", arguments: badOptions)
    func badOption(arguments: [String]) throws {
        let r = try runWake(arguments + ["--dry-run", "-D", "null"])
        #expect(r.code == 64, "\(r)")
        #expect(r.out.isEmpty, "\(r)")
        #expect(r.stderrIsOneLine, "\(r)")
    }

    @Test("missing WHEN without any other argument: 64")
    func missingWhenAlone() throws {
        let r = try runWake([])
        #expect(r.code == 64, "\(r)")
        #expect(r.out.isEmpty, "\(r)")
        #expect(r.stderrIsOneLine, "\(r)")
    }
}
