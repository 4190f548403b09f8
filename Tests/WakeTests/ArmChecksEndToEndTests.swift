import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 38's example: a sound silent at the chosen volume, said by a daemon that loads such an
/// alarm, which rings wake's own sound. The one-off's and wake add's refusal run in process
/// (Tests/WakeCommandLineTests/ArmChecksCommandTests.swift).
@Suite("Arm checks end to end: one rule for the one-off, wake add and the daemon")
struct ArmChecksEndToEndTests {
    static func quietSound(in dir: TestDirectory) async throws -> String {
        // 22,050 Hz: the built-in sound is 44,100, so the device line tells which one rings.
        try await makeSound(in: dir, name: "quiet.wav", rate: 22050, channels: 1, seconds: "2", synth: ["sine", "440", "vol", "-50dB"])
    }

    @Test("the daemon loading such an alarm says so and rings wake's own sound")
    func daemonRingsTheBuiltIn() async throws {
        let home = try AlarmHome()
        let quiet = try await Self.quietSound(in: home.dir)
        try home.writeConfigFile("""
            [alarms.quiet]
            time = "\(AlarmHome.soon(4))"
            days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
            sound = "\(quiet)"
            device = "null"
            volume = "5"
            ring-for = "2s"
            created = "2026-01-01T00:00:00Z"

            """)
        let daemon = try home.daemon(["--notify", "off"])
        let device = try await daemon.waitForEvent("device", timeout: .seconds(30))
        #expect(device["format"]?.contains("44100 Hz") == true, "rang the quiet file: \(device)")
        try await daemon.waitForEvent("ringing")
        daemon.send(SIGTERM)
        let end = await daemon.wait()
        #expect(end.stderr.contains("alarm 'quiet': cannot use sound file") && end.stderr.contains("it will ring wake's built-in sound"),
                "\(end.stderr)")
    }
}
