import Foundation
import Glibc

/// Fixtures for the WakeSystemTests suites: sox-made sounds, FIFOs, hand-made WAVs, and children of
/// this test bundle for tests that must change process-wide state (the environment, stdio).

/// `sox -D -n -r RATE -c CH [encoding...] PATH synth...`: dither off, so silence stays exact.
func soxSound(_ dir: TestDirectory, _ name: String, rate: Int = 44_100, channels: Int = 1,
              encoding: [String] = ["-b", "16"], _ effects: [String]) async throws -> String {
    let path = dir.file(name)
    try await runTool(soxPath, ["-q", "-D", "-n", "-r", "\(rate)", "-c", "\(channels)"] + encoding + [path] + effects, directory: dir)
    return path
}

func makeFifo(_ dir: TestDirectory, _ name: String) throws -> String {
    let p = dir.file(name)
    guard mkfifo(p, 0o600) == 0 else { throw WakeTestError("mkfifo \(p): errno \(errno)") }
    return p
}

/// A 16-bit PCM WAV holding exactly `samples`.
func wav16(_ samples: [Int16], channels: Int = 1, rate: Int = 44_100) -> [UInt8] {
    func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    let data = samples.flatMap { le16(Int(UInt16(bitPattern: $0))) }
    return Array("RIFF".utf8) + le32(36 + data.count) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(channels)
        + le32(rate) + le32(rate * channels * 2) + le16(channels * 2) + le16(16) + Array("data".utf8) + le32(data.count) + data
}

/// Where the package's own files are (Resources/alarm.flac).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // Tests/WakeTestSupport
    .deletingLastPathComponent().deletingLastPathComponent().path

/// Tests that change process-wide state run in a child of this test bundle: the parent runs
/// `SystemChildren` with `WAKE_SYSTEM_CHILD=<name>` and the child runs only that one's body.
enum SystemChild {
    static var current: String? { ProcessInfo.processInfo.environment["WAKE_SYSTEM_CHILD"] }

    static func run(_ name: String, environment: [String: String] = [:], unset: [String] = []) async throws -> ProcessResult {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        var env = environment
        env["WAKE_SYSTEM_CHILD"] = name
        let p = try ChildProcess(bundle, ["--testing-library", "swift-testing", "--filter", "SystemChildren"],
                                 environment: env, unset: unset)
        return await p.wait(timeout: .seconds(60))
    }
}
