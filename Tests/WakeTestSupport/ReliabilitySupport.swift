import Foundation
import Glibc

/// Helpers for the reliability suites (R1-R6): the stress switches, fault rules, small WAV
/// writers and /proc readers. wake without a terminal (`DetachedWake`, with stdin/stdout/stderr
/// open on files, closed, or a pipe nobody reads) and on a pseudo-terminal (`runOnPty`, with
/// stop states, termios snapshots, signal storms and BEL counting) come from WakeProcess.swift.

/// Long tests run only under `make stress` (WAKE_STRESS=1).
enum Stress {
    static let enabled = ProcessInfo.processInfo.environment["WAKE_STRESS"] != nil
    /// Tests that step the machine's real-time clock: root only, and only when asked for, since
    /// every process on the machine sees the step (WAKE_CLOCK_STEP=1).
    static let clockStepAllowed = getuid() == 0 && ProcessInfo.processInfo.environment["WAKE_CLOCK_STEP"] != nil
    /// Under `make asan` (which sets ASAN_OPTIONS): what a count-driven run looks for (a leaked
    /// descriptor, a bad access) shows in its first cycles, and each costs ten times as much.
    static let sanitized = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] != nil
}

/// Fault rules for a debug build (see Sources/WakeSystem/FaultInjector.swift).
func faults(_ rules: String) -> [String: String] { ["WAKE_TEST_FAULTS": rules] }

// MARK: - Sounds

/// A 16-bit PCM WAV file holding exactly `samples` (interleaved).
func writeWAV(in dir: TestDirectory, name: String, samples: [Int16], channels: Int = 1, rate: Int = 44_100) throws -> String {
    func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    let data = samples.flatMap { le16(Int(UInt16(bitPattern: $0))) }
    let header = Array("RIFF".utf8) + le32(36 + data.count) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(channels)
        + le32(rate) + le32(rate * channels * 2) + le16(channels * 2) + le16(16) + Array("data".utf8) + le32(data.count)
    return try dir.write(name, header + data)
}

/// `frames` distinct, non-zero, non-repeating-looking mono samples (a seam slip always shows).
func distinctSamples(_ frames: Int) -> [Int16] {
    (0..<frames).map { Int16(truncatingIfNeeded: ($0 * 4099 + 1237) % 30_011 - 15_000) | 1 }
}

// MARK: - /proc

/// A `kB` field of /proc/PID/status (VmHWM, VmRSS), or nil once the process is gone.
func procStatusKB(_ pid: pid_t, _ field: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }
    return nil
}

/// Where each of a process's descriptors points (`/proc/PID/fd`), e.g. `anon_inode:[timerfd]`.
func openDescriptors(_ pid: String = "self") -> [Int32: String] {
    let dir = "/proc/\(pid)/fd"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [:] }
    var out: [Int32: String] = [:]
    for n in names {
        guard let fd = Int32(n) else { continue }
        var buf = [CChar](repeating: 0, count: 4096)
        let len = readlink(dir + "/" + n, &buf, buf.count - 1)
        if len >= 0 { out[fd] = String(decoding: buf[0..<len].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }
    return out
}

/// Raw bytes of a file, without copying it into a String.
func fileBytes(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { [UInt8]($0) } }

extension ProcessResult {
    /// stderr has no raw control characters except line ends: safe to show on a terminal.
    var stderrIsPrintable: Bool { !stderr.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F } }
}
