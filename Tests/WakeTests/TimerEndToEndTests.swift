import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// The one end-to-end test of timers: the real daemon rings `wake timer` and starts a repeating
/// one's next round after a stop. Pause, resume, extend and the file run in process
/// (Tests/WakeCommandLineTests/TimerCommandTests.swift, Tests/WakeCoreTests/StandingTimerTests.swift).
@Suite("Timers: the daemon", .serialized)
struct TimerEndToEndTests {
    @Test("wake timer 3s tea --repeat: the daemon rings it; stopped, the next round starts and rings again")
    func daemonRingsAndRepeats() async throws {
        let home = try AlarmHome()
        let daemon = try home.daemon()
        try await daemon.waitForOutput(containing: "wake daemon running")
        var r = try await home.run(["timer", "3s", "tea", "--repeat", "-D", "null", "--ring-for", "5m"])
        #expect(r.exitCode == 0 && r.stdout.contains("added 'tea': a 3s timer that repeats"), "\(r)")
        let ringing = try await daemon.waitForEvent("ringing", timeout: .seconds(30))
        #expect(ringing["alarm"] == "tea", "\(ringing)")
        r = try await home.run(["stop", "tea"])
        #expect(r.exitCode == 0, "\(r)")
        let again = try await daemon.waitForEvent("ringing", occurrence: 2, timeout: .seconds(30))
        #expect(again["alarm"] == "tea", "the next round rang: \(again)")
        r = try await home.run(["remove", "tea"])
        #expect(r.exitCode == 0, "\(r)")
        daemon.send(SIGTERM)
        let end = await daemon.wait()
        #expect(end.exitCode == 0, "\(daemon.report(end))")
    }
}
