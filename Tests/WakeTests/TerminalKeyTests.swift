import Foundation
import Testing

/// E. Keys through a pseudo-terminal (Support/pty_driver.py), and the terminal's settings
/// given back exactly as they were.

struct PtyOutcome: Decodable, CustomStringConvertible {
    var exit: Int?
    var signal: Int?
    var timed_out: Bool
    var restored: Bool
    var cbreak_during: Bool?
    var output: String
    var error: String?
    var events: String?

    var description: String {
        "exit \(exit.map(String.init) ?? "-") signal \(signal.map(String.init) ?? "-") timed_out \(timed_out) restored \(restored) cbreak_during \(cbreak_during.map(String.init) ?? "-") error \(error ?? "-")\n--- terminal ---\n\(output)\n--- events ---\n\(events ?? "")"
    }
}

/// Runs wake on a pty through the driver, with `--events` and the given steps.
func runOnPty(_ arguments: [String], steps: [String]) async throws -> (PtyOutcome, [WakeEvent]) {
    let dir = try TestDirectory()
    let events = dir.file("events.jsonl")
    let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/pty_driver.py").path
    let args = [driver, "--events", events, "--timeout", "20"] + steps.flatMap { ["--step", $0] }
        + ["--", WakeBinary.path] + arguments + ["--events", events]
    let p = try ChildProcess("/usr/bin/python3", args, directory: dir)
    let r = await p.wait(timeout: .seconds(30))
    guard r.exitCode == 0, let line = r.stdoutLines.last else { throw WakeTestError("pty driver failed: \(r)") }
    var outcome = try JSONDecoder().decode(PtyOutcome.self, from: Data(line.utf8))
    outcome.events = ChildProcess.read(events)
    return (outcome, WakeEvent.read(events))
}

@Suite("E. Keys on a terminal")
struct TerminalKeyTests {
    @Test("ringing, key x: exit 0, terminal restored")
    func stopWithKey() async throws {
        let (o, events) = try await runOnPty(["now", "-D", "null"], steps: ["wait:ringing", "mode", "key:x"])
        #expect(o.error == nil, "\(o)")
        #expect(o.exit == 0, "\(o)")
        #expect(o.cbreak_during == true, "keys should arrive without Enter or echo while ringing: \(o)")
        #expect(o.restored, "\(o)")
        #expect(events.contains { $0.name == "stopped" && $0["key"] == "x" }, "\(o)")
    }

    @Test("ringing, key s snoozes, then x stops: exit 0, restored")
    func snoozeThenStopWithKeys() async throws {
        let (o, events) = try await runOnPty(["now", "-D", "null"], steps: ["wait:ringing", "key:s", "wait:snoozed", "key:x"])
        #expect(o.error == nil, "\(o)")
        #expect(o.exit == 0, "\(o)")
        #expect(o.restored, "\(o)")
        #expect(events.contains { $0.name == "snoozed" }, "\(o)")
        #expect(events.last?.name == "stopped", "\(o)")
    }

    @Test("waiting, key q cancels: exit 130, restored")
    func cancelWithQ() async throws {
        let (o, events) = try await runOnPty(["+1h", "-D", "null"], steps: ["wait:armed", "mode", "key:q"])
        #expect(o.error == nil, "\(o)")
        #expect(o.exit == 130, "\(o)")
        #expect(o.cbreak_during == true, "\(o)")
        #expect(o.restored, "\(o)")
        #expect(events.contains { $0.name == "cancelled" }, "\(o)")
        #expect(!events.contains { $0.name == "ringing" }, "\(o)")
    }

    @Test("ringing, SIGTERM: exit 0, restored")
    func signalOnTerminal() async throws {
        let (o, events) = try await runOnPty(["now", "-D", "null"], steps: ["wait:ringing", "mode", "signal:TERM"])
        #expect(o.error == nil, "\(o)")
        #expect(o.exit == 0, "\(o)")
        #expect(o.restored, "\(o)")
        #expect(events.contains { $0.name == "stopped" && $0["signal"] == "SIGTERM" }, "\(o)")
    }
}
