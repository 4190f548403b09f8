import Foundation
import Testing
@testable import WakeTestSupport

/// Job control as a person at an interactive shell does it: `&`, `fg`, Ctrl-Z, on a real bash on
/// a pseudo-terminal.
@Suite("Terminal: job control")
struct TerminalJobControlTests {
    /// Runs an interactive bash on the pty driver, typing `lines`; steps may wait for wake's events.
    func onBash(_ steps: [String], timeout: Double = 30) async throws -> (PtyRun, [WakeEvent]) {
        let dir = try TestDirectory("wake-bash")
        let events = dir.file("events.jsonl")
        let driver = ptyDriverPath
        let args = [driver, "--events", events, "--timeout", "\(timeout)"]
            + steps.map { $0.replacingOccurrences(of: "EVENTS", with: events).replacingOccurrences(of: "WAKE", with: WakeBinary.path) }
                .flatMap { ["--step", $0] }
            + ["--", "/bin/bash", "--norc", "--noprofile", "-i"]
        let p = try ChildProcess("/usr/bin/python3", args, environment: ["PS1": "$ ", "TERM": "dumb"], directory: dir)
        let r = await p.wait(timeout: .seconds(Int64(timeout) + 15))
        guard r.exitCode == 0, let line = r.stdoutLines.last else { throw WakeTestError("pty driver failed: \(r)") }
        var outcome = try JSONDecoder().decode(PtyRun.self, from: Data(line.utf8))
        outcome.events = ChildProcess.read(events)
        return (outcome, WakeEvent.read(events))
    }

    @Test("`wake +1h &` then `fg`: keys work at once, no Enter needed (q cancels)")
    func backgroundThenForeground() async throws {
        let (o, events) = try await onBash([
            "key:WAKE +1h -D null --inhibit off --events EVENTS &\n", "wait:armed", "sleep:1",
            "key:fg\n", "sleep:2", "key:q", "sleep:1.5", "key:exit\n",
        ])
        #expect(events.last?.name == "cancelled" && events.last?["key"] == "q", "q typed after fg must reach wake without Enter: \(o)")
        #expect(!o.output.contains("q cancels"), "a background job gets no key hint: \(o.output)")
    }

    @Test("""
        Ctrl-Z while a challenged alarm rings: refused and said, the process never stops, it rings on; \
        stopped from outside and continued, the ringing line is shown again
        """)
    func ctrlZRefusedUnderChallenge() async throws {
        let (o, events) = try await runOnPty(
            ["now", "-D", "null", "--ring-for", "0", "--inhibit", "off", "--challenge", "math"],
            steps: ["wait:ringing", "cbreak", "ctrl:Z", "wait:ctrl_z", "snapshot:after", "signal:STOP", "state:T", "signal:CONT",
                    "cbreak", "sleep:1", "solve"])
        #expect(o.exit == 0, "\(o)")
        #expect(o.snapshots["after"]?.state != "T" && o.snapshots["after"]?.cbreak == true, "Ctrl-Z did not stop it: \(o)")
        #expect(o.output.contains("Ctrl-Z does not pause a ringing alarm under --challenge; solve the sum ("), "\(o.output)")
        #expect(events.first { $0.name == "ctrl_z" }?["result"] == "refused", "\(o)")
        #expect(!events.contains { $0.name == "snoozed" }, "\(o)")
        #expect(o.output.components(separatedBy: "RINGING").count - 1 == 2, "the ringing line again after a stop and continue: \(o.output)")
        #expect(events.last?.name == "stopped" && events.last?["by"] == "answer", "\(o)")
    }
}

@Suite("Terminal: the status line")
struct StatusLineFitTests {
    /// Each redraw of the status line, as the terminal received it.
    static func redraws(_ output: String) -> [String] {
        output.components(separatedBy: "\r\u{1B}[K").dropFirst().map { $0.components(separatedBy: "\r").first ?? $0 }
            .map { $0.components(separatedBy: "\n").first ?? $0 }.filter { !$0.isEmpty }
    }

    @Test("a 30-column terminal: every redraw fits in 29 columns, and a resize is followed", arguments: [30, 12])
    func narrow(columns: Int) async throws {
        let (o, _) = try await runOnPty(
            ["+1h", "-D", "null", "--inhibit", "off"],
            steps: ["winsize:\(columns)", "wait:armed", "sleep:2.2", "winsize:100", "sleep:1.2", "key:q"])
        #expect(o.exit == 130, "\(o)")
        let lines = Self.redraws(o.output).filter { !$0.contains("\n") && !$0.hasPrefix("cancelled") }
        // Redraws fit the narrow width until the resize; from the first wide one on (the resize
        // followed), the full form is drawn.
        let firstWide = lines.firstIndex { $0.count > columns - 1 } ?? lines.endIndex
        #expect(firstWide >= 2, "at least two redraws fitted \(columns - 1) columns before the resize: \(lines)")
        #expect(firstWide < lines.endIndex, "after widening to 100 columns the full line is drawn: \(lines)")
        #expect(lines[firstWide...].allSatisfy { $0.count > columns - 1 && $0.contains("now") }, "\(lines)")
    }
}
