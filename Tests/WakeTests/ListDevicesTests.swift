import Testing
@testable import WakeTestSupport

@Suite("Device list")
struct ListDevicesTests {
    /// `wake --list-devices` lists PCM names as `aplay -L` does: the name on its own line, its
    /// description indented below. ALSA's `null` PCM exists on every machine, sound card or not.
    @Test("--list-devices names the null PCM with its description, and exits 0")
    func listsNull() async throws {
        let r = try await WakeProcess.run(["--list-devices"])
        #expect(r.exitCode == 0, "\(r)")
        let lines = r.stdoutLines
        let i = try #require(lines.firstIndex(of: "null"), "no 'null' line in: \(r.stdout)")
        #expect(i + 1 < lines.count && lines[i + 1].hasPrefix("    "), "no indented description after 'null': \(r.stdout)")
        #expect(r.stderr.isEmpty, "\(r)")
    }
}
