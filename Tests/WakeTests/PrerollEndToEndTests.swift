import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 28's pre-roll, through the binary: a second before the deadline wake opens and
/// configures the device, so the ring starts within a millisecond of it, and holds it silent
/// until then. Seen by the benchmark's LD_PRELOAD probe (Benchmarks/alsa_probe.c), which stamps
/// each `snd_pcm_open` and the first frame written inside wake itself, so a loaded machine that
/// makes the test look late cannot make wake look late. The runner's side (when it prepares,
/// adopts, discards) and the output's (nothing written before the start) are tested in-process;
/// this checks that the one-off alarm wires them together.
@Suite("Pre-roll: the device is open before the deadline", .enabled(if: ALSAProbe.canBuild, "needs cc"))
struct PrerollEndToEndTests {
    @Test("a one-off's device is opened about a second before the deadline and first written at it")
    func deviceOpenBeforeTheDeadline() async throws {
        let dir = try TestDirectory("wake-preroll")
        let (probe, log) = try await ALSAProbe.build(in: dir)
        let wake = try DetachedWake(["+4s", "-D", "null", "--inhibit", "off", "--notify", "off", "--ring-for", "1s"],
                                    environment: ALSAProbe.environment(probe: probe, log: log), directory: dir)
        let r = await wake.wait(timeout: .seconds(30))
        #expect(r.exitCode == 4, "\(wake.report(r))")
        let armed = try #require(wake.events.first { $0.name == "armed" }, "\(wake.report(r))")
        let deadline = try #require(armed["deadline"].flatMap(Self.date), "\(armed)")
        let deadlineNs = Int64(deadline.timeIntervalSince1970 * 1e9)
        let lines = ALSAProbe.lines(log)
        // The arm-time check's open, then the pre-roll's.
        let opens = lines.filter { $0.count >= 3 && $0[1] == "open" }.compactMap { Int64($0[2]) }
        // The check writes a moment of silence to a clockless PCM: the ring's first frame is the last "first".
        let first = lines.last { $0.count >= 3 && $0[1] == "first" }.flatMap { Int64($0[2]) }
        try #require(opens.count == 2, "two opens (the check, the pre-roll): \(ChildProcess.read(log))")
        let lead = Double(deadlineNs - opens[1]) / 1e9
        #expect(lead > 0 && lead < 1.5, "the device was opened \(lead) s before the deadline \(deadline)")
        let late = Double((first ?? 0) - deadlineNs) / 1e9
        #expect(late >= 0 && late < 1, "the first frame \(late) s after the deadline")
    }

    /// The event log's time: ISO-8601 with an offset, with or without milliseconds.
    static func date(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        if let d = f.date(from: text) { return d }
        f.formatOptions.insert(.withFractionalSeconds)
        return f.date(from: text)
    }
}

/// The benchmark's LD_PRELOAD probe (Benchmarks/alsa_probe.c), built with cc: it logs each
/// `snd_pcm_open` and the first frame written, stamped inside the process (CLOCK_REALTIME, ns).
enum ALSAProbe {
    static let cc = "/usr/bin/cc"
    static var canBuild: Bool { access(cc, X_OK) == 0 }

    /// The shared object and the log it will write, in `dir`.
    static func build(in dir: TestDirectory) async throws -> (probe: String, log: String) {
        let probe = dir.file("alsa_probe.so"), log = dir.file("probe.log")
        let build = try await ChildProcess(cc, ["-shared", "-fPIC", "-O2", "-o", probe, packageRoot + "/Benchmarks/alsa_probe.c", "-ldl"],
                                           directory: dir).wait(timeout: .seconds(60))
        guard build.exitCode == 0 else { throw WakeTestError("cc alsa_probe.c: \(build)") }
        return (probe, log)
    }

    /// Preloads the probe. (Under `make asan` the sanitizer's runtime would refuse a library
    /// preloaded before it.)
    static func environment(probe: String, log: String) -> [String: String] {
        let asan = ProcessInfo.processInfo.environment["ASAN_OPTIONS"].map { $0 + ":" } ?? ""
        return ["LD_PRELOAD": probe, "ALSA_PROBE_LOG": log, "ASAN_OPTIONS": asan + "verify_asan_link_order=0"]
    }

    /// Each line of the log, split at spaces: pid, what, then its fields.
    static func lines(_ log: String) -> [[String]] {
        ChildProcess.read(log).split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
    }
}
