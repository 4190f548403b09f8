import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `--message`: a note on an alarm, shown wherever the alarm is (issue 26), escaped, limited.
@Suite("Alarm messages")
struct MessageTests {
    static let hostile = "Dentist \u{1B}[31mat 9\u{7}"
    static let escaped = "Dentist \\x1b[31mat 9\\x07"

    @Test("a one-off: in the armed and ringing lines and their events, escaped")
    func oneOff() async throws {
        let home = try AlarmHome()
        let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "1s", "--inhibit", "off", "--notify", "off", "--message", Self.hostile],
                                    environment: home.environment, directory: home.dir)
        let r = await wake.wait()
        #expect(r.exitCode == 4, "\(wake.report(r))")
        let armed = r.stdoutLines.first { $0.hasPrefix("alarm set for") } ?? ""
        #expect(armed.hasSuffix("): " + Self.escaped), "\(r)")
        #expect(r.stdout.contains("RINGING: alarm for ") && r.stdout.contains(": \(Self.escaped)."), "\(r)")
        #expect(!r.stdout.contains("\u{1B}") && !r.stdout.contains("\u{7}"), "nothing raw reaches the terminal: \(r)")
        #expect(wake.events.first { $0.name == "armed" }?["message"] == Self.hostile, "\(wake.eventLogText)")
        #expect(wake.events.first { $0.name == "ringing" }?["message"] == Self.hostile, "\(wake.eventLogText)")
        #expect(wake.events.first { $0.name == "stopped" || $0.name == "timed_out" }?["message"] == nil)
    }

    @Test("a running one-off: wake list shows its message (table and JSON)")
    func listsARunningOneOff() async throws {
        let home = try AlarmHome()
        let wake = try DetachedWake(["+1h", "-D", "null", "--inhibit", "off", "--notify", "off", "--message=-5 degrees: gloves"],
                                    environment: home.environment, directory: home.dir)
        try await wake.waitForEvent("armed")
        let list = try await home.listJSON()
        #expect(list.count == 1 && list.first?["message"] as? String == "-5 degrees: gloves", "\(list)")
        let table = try await home.run(["list"])
        #expect(table.stdoutLines.first?.hasSuffix("MESSAGE") == true && table.stdout.contains("-5 degrees: gloves"), "\(table)")
        wake.send(SIGTERM)
        _ = await wake.wait()
    }

    @Test("a standing alarm: stored in alarms.toml, listed, and rung by the daemon with it")
    func standing() async throws {
        let home = try AlarmHome()
        var r = try await home.run(["add", "06:30", "--days", "weekdays", "--name", "work", "-D", "null", "--message", "Stand-up <9>"])
        #expect(r.exitCode == 0, "\(r)")
        let file = ChildProcess.read(home.alarmsFile)
        #expect(file.contains("message = \"Stand-up <9>\"\n"), "\(file)")
        r = try await home.run(["add", "07:00", "--name", "plain", "-D", "null"])
        let list = try await home.listJSON()
        #expect(list.map { $0["message"] as? String } == [nil, "Stand-up <9>"], "\(list)")
        #expect(list.first?.keys.contains("message") == true, "null, not missing")
        r = try await home.run(["list"])
        let work = r.stdoutLines.first { $0.hasPrefix("work ") } ?? ""
        #expect(work.hasSuffix("built-in  Stand-up <9>"), "\(r)")

        let daemon = try home.daemon(["--notify", "off"])
        try await daemon.waitForOutput(containing: "wake daemon running")
        r = try await home.run(["add", AlarmHome.soon(3), "--name", "soon", "-D", "null", "--ring-for", "1s", "--message", "Tea"])
        #expect(r.exitCode == 0, "\(r)")
        let ringing = try await daemon.waitForEvent("ringing", timeout: .seconds(20))
        #expect(ringing["alarm"] == "soon" && ringing["message"] == "Tea", "\(ringing)")
        try await daemon.waitForOutput(containing: "RINGING: alarm 'soon' for")
        #expect(daemon.child.currentStdout.contains(": Tea."), "\(daemon.child.currentStdout)")
        daemon.send(SIGTERM)
        _ = await daemon.wait()
    }

    @Test("on a terminal: the status line carries the message, escaped")
    func statusLine() async throws {
        let (o, _) = try await runOnPty(["+1h", "-D", "null", "--inhibit", "off", "--message", "Tea\u{1B}[2J"],
                                        steps: ["winsize:100", "wait:armed", "sleep:1.2", "key:q"])
        #expect(o.exit == 130, "\(o)")
        let lines = StatusLineFitTests.redraws(o.output)
        #expect(lines.contains { $0.hasPrefix("alarm (Tea\\x1b[2J) ") }, "\(lines)")
        #expect(!o.output.contains("\u{1B}[2J"), "\(o)")
    }
}
