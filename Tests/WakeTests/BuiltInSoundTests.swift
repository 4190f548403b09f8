import Foundation
import Testing
@testable import WakeTestSupport

/// wake's own sound plays from the samples built into the binary (Sources/CWakeSound, written by
/// scripts/make-alarm-sound from the same synthesis as Resources/alarm.wav): what reaches the
/// device is that loop, sample for sample, seam after seam.
@Suite("The built-in sound")
struct BuiltInSoundTests {
    @Test("a ring with no --sound plays Resources/alarm.wav's samples, looped without a gap")
    func playsTheMasterLoop() async throws {
        let master = try readWAV(packageRoot + "/Resources/alarm.wav")
        #expect(master.channels == 1 && master.sampleRate == 44_100 && master.samples.count == 105_840)
        let dir = try TestDirectory()
        let capture = dir.file("capture.raw")
        // 3 s: the whole 2.4 s loop and its seam. Volume 100 and no fade (the defaults, said
        // anyway) pass the samples through unchanged.
        let r = try await WakeProcess.run(["now", "-D", "file:'\(capture)',raw", "--volume", "100", "--fade-in", "0",
                                           "--ring-for", "3s", "--inhibit", "off", "--mixer", "off"], timeout: .seconds(30))
        #expect(r.exitCode == 4, "\(r)")
        let heard = try readRaw(capture, channels: 1, rate: 44_100).samples
        #expect(heard.count > master.samples.count, "\(heard.count) samples reached the device in a 3 s ring")
        // Everything up to the last 30 ms (where the 10 ms stop fade-out is) is the loop repeated.
        let n = master.samples.count, compared = heard.count - 44_100 * 30 / 1000
        let first = (0..<compared).first { heard[$0] != master.samples[$0 % n] }
        #expect(first == nil, "sample \(first ?? 0) of \(heard.count) differs from the loop's sample \((first ?? 0) % n)")
    }
}
