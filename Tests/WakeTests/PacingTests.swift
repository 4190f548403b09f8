import Testing
@testable import WakeTestSupport

/// G. A clockless device (`null`) is paced by wake: ringing for 3 s takes about 3 s of wall
/// time, not the instant it would take to write the audio as fast as the device accepts it.
@Suite("G. Pacing")
struct PacingTests {
    @Test("--ring-for 3s on the null device lasts at least ~2.5 s")
    func ringsInRealTime() async throws {
        let r = try await WakeProcess.run(["now", "-D", "null", "--ring-for", "3s"], timeout: .seconds(30))
        #expect(r.exitCode == 4, "\(r)")
        #expect(r.elapsed >= .milliseconds(2500), "rang for only \(r.elapsed)")
    }
}
