import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `--unattended snooze` through a real daemon on a file PCM, once (the rounds and levels are
/// tested in process, UnattendedRunnerTests): a standing alarm nobody answers rings, snoozes
/// by nobody, rings its last round and then stops, each step said.
@Suite("Unattended rings: the daemon", .serialized)
struct UnattendedEndToEndTests {
    @Test("two rounds of a second with a 2s snooze: unanswered, snoozed by nobody, rung again, timed out")
    func daemonRounds() async throws {
        let home = try AlarmHome()
        let capture = home.dir.file("capture.raw")
        let daemon = try home.daemon()
        defer { daemon.send(SIGKILL) }
        try await daemon.waitForOutput(containing: "wake daemon running")
        let r = try await home.run(["add", AlarmHome.soon(4), "--name", "soon", "-D", "file:'\(capture)',raw", "--ring-for", "1s",
                                    "--snooze", "2s", "--unattended-rounds", "2", "--escalate", "on", "--volume", "30"])
        #expect(r.exitCode == 0, "\(r)")
        let unanswered = try await daemon.waitForEvent("unanswered", timeout: .seconds(20))
        #expect(unanswered["round"] == "2" && unanswered["rounds"] == "2" && unanswered["mode"] == "snooze", "\(unanswered)")
        let snoozed = try await daemon.waitForEvent("snoozed")
        #expect(snoozed["by"] == "unattended", "\(snoozed)")
        try await daemon.waitForEvent("ringing", occurrence: 2, timeout: .seconds(10))
        try await daemon.waitForEvent("timed_out", timeout: .seconds(10))
        #expect(daemon.count("unanswered") == 1, "\(daemon.eventLogText)")
        _ = try await daemon.waitForOutput(containing: "'soon' rang 1 s unanswered; again at ", timeout: .seconds(5))
        let size = (try? FileManager.default.attributesOfItem(atPath: capture)[.size] as? Int) ?? 0
        #expect(size > 44_100, "both rounds reached the device: \(size) bytes")
        daemon.send(SIGTERM)
        #expect(await daemon.wait().exitCode == 0)
    }
}
