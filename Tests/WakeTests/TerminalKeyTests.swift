import Foundation
import Testing
@testable import WakeTestSupport

/// E. Keys through a pseudo-terminal (WakeTestSupport/pty_driver.py), and the terminal's settings
/// given back exactly as they were.

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
