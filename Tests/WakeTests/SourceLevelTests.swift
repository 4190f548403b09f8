import Foundation
import Testing
@testable import WakeTestSupport

/// Sources that are not 16-bit integers ring as S32 at the level they were recorded at:
/// neither truncated to near-silence (libsndfile's plain float-to-int read) nor normalised to
/// their peak (its SFC_SET_SCALE_FLOAT_INT_READ).
@Suite("Source levels")
struct SourceLevelTests {
    /// The largest absolute sample in a raw S32_LE capture, as a fraction of full scale.
    static func peak(ofS32 path: String) throws -> Double {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var peak: Int64 = 0
        data.withUnsafeBytes { raw in
            for v in raw.bindMemory(to: Int32.self) { peak = max(peak, abs(Int64(Int32(littleEndian: v)))) }
        }
        return Double(peak) / 2_147_483_648
    }

    @Test("a float WAV and an Ogg Vorbis file ring at their own peak level", arguments: [
        ("float.wav", ["-e", "floating-point", "-b", "32"]),
        ("vorbis.ogg", []),
    ])
    func keepsLevel(name: String, encoding: [String]) async throws {
        let dir = try TestDirectory()
        let source = dir.file(name)
        // A sine at half scale: its recorded peak is 0.5 whatever the encoding.
        try await runTool(soxPath, ["-q", "-n", "-r", "44100", "-c", "1"] + encoding + [source, "synth", "1", "sine", "440", "vol", "0.5"],
                          directory: dir)
        let capture = dir.file("capture.raw")
        let r = try await WakeProcess.run(["now", "-s", source, "-D", "file:'\(capture)',raw", "--ring-for", "1s", "--inhibit", "off"],
                                          timeout: .seconds(30))
        #expect(r.exitCode == 4, "\(r)")
        let peak = try Self.peak(ofS32: capture)
        #expect(abs(peak - 0.5) < 0.03, "peak \(peak) of \(name), recorded at 0.5")
    }
}
