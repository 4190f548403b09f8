import Glibc
import Testing
@testable import WakeTestSupport

/// D. Ringing and stopping, driven by signals and synchronised on the `--events` log.

let signalNames: [Int32: String] = [SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGHUP: "SIGHUP", SIGUSR1: "SIGUSR1"]

@Suite("D. Ringing and stopping")
struct RingingSignalTests {
    @Test("a stop signal while ringing: exit 0 and a stopped event naming it", arguments: [SIGTERM, SIGINT, SIGHUP])
    func stopWhileRinging(signal: Int32) async throws {
        let wake = try WakeProcess(["now", "-D", "null"])
        try await wake.waitForEvent("ringing")
        wake.send(signal)
        let r = await wake.wait()
        #expect(r.exitCode == 0, "\(r)")
        let stopped = wake.events.first { $0.name == "stopped" }
        #expect(stopped?["signal"] == signalNames[signal], "events:\n\(wake.eventLogText)")
    }

    @Test("+1s rings, then SIGTERM stops it with 0")
    func ringAfterOneSecond() async throws {
        let wake = try WakeProcess(["+1s", "-D", "null"])
        try await wake.waitForEvent("armed")
        try await wake.waitForEvent("ringing")
        wake.send(SIGTERM)
        let r = await wake.wait()
        #expect(r.exitCode == 0, "\(r)")
        #expect(wake.events.contains { $0.name == "stopped" && $0["signal"] == "SIGTERM" }, "\(wake.eventLogText)")
    }

    @Test("SIGUSR1 while ringing snoozes; SIGTERM while snoozed: exit 0")
    func snoozeThenStop() async throws {
        let wake = try WakeProcess(["now", "-D", "null"])
        try await wake.waitForEvent("ringing")
        wake.send(SIGUSR1)
        try await wake.waitForEvent("snoozed")
        wake.send(SIGTERM)
        let r = await wake.wait()
        #expect(r.exitCode == 0, "\(r)")
        #expect(wake.events.filter { $0.name == "ringing" }.count == 1, "\(wake.eventLogText)")
    }

    @Test("a snooze ends in a second ringing, which SIGTERM stops with 0")
    func snoozeRingsAgain() async throws {
        let wake = try WakeProcess(["now", "-D", "null", "--snooze", "1s"])
        try await wake.waitForEvent("ringing")
        wake.send(SIGUSR1)
        try await wake.waitForEvent("snoozed")
        try await wake.waitForEvent("ringing", occurrence: 2)
        wake.send(SIGTERM)
        let r = await wake.wait()
        #expect(r.exitCode == 0, "\(r)")
        let names = wake.events.map(\.name)
        #expect(names.filter { $0 == "ringing" }.count == 2, "\(wake.eventLogText)")
        #expect(names.last == "stopped", "\(wake.eventLogText)")
    }

    @Test("--ring-for 2s unstopped: exit 4 and a timed_out event")
    func ringsOut() async throws {
        let wake = try WakeProcess(["now", "-D", "null", "--ring-for", "2s"])
        let r = await wake.wait()
        #expect(r.exitCode == 4, "\(r)")
        #expect(wake.events.contains { $0.name == "ringing" }, "\(wake.eventLogText)")
        #expect(wake.events.last?.name == "timed_out", "\(wake.eventLogText)")
    }

    @Test("a signal while waiting cancels: 128 + the signal's number", arguments: [
        (SIGTERM, Int32(143)), (SIGINT, Int32(130)), (SIGHUP, Int32(129)),
    ])
    func cancelWhileWaiting(signal: Int32, expected: Int32) async throws {
        let wake = try WakeProcess(["+1h", "-D", "null"])
        try await wake.waitForEvent("armed")
        wake.send(signal)
        let r = await wake.wait()
        #expect(r.exitCode == expected, "\(r)")
        let cancelled = wake.events.first { $0.name == "cancelled" }
        #expect(cancelled != nil, "\(wake.eventLogText)")
        #expect(cancelled?["signal"] == signalNames[signal], "\(wake.eventLogText)")
        #expect(!wake.events.contains { $0.name == "ringing" }, "\(wake.eventLogText)")
    }

    @Test("waiting with stdout not a terminal prints one line when armed, and no status line")
    func armedLineOnly() async throws {
        let wake = try WakeProcess(["+1h", "-D", "null"])
        try await wake.waitForEvent("armed")
        // Give a status line (redrawn once a second on a terminal) the chance to appear wrongly.
        try await Task.sleep(for: .milliseconds(1500))
        let whileWaiting = wake.child.currentStdout
        wake.send(SIGTERM)
        let r = await wake.wait()
        #expect(r.exitCode == 143, "\(r)")
        // The armed line, and under it, on a machine the RTC cannot wake (issue 23), its note.
        let lines = ProcessResult.lines(whileWaiting).filter { !$0.hasPrefix("note: a closed lid or a suspend will delay this alarm") }
        #expect(lines.count == 1, "stdout while waiting: \(whileWaiting.debugDescription)")
        #expect(lines.first?.contains("alarm set for") == true, "\(r)")
        #expect(!r.stdout.contains("\r") && !r.stdout.contains("\u{1B}"), "no terminal control on a file: \(r.stdout.debugDescription)")
    }
}
