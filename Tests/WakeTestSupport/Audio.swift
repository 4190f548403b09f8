import Foundation

/// Test sounds made with sox, and the raw sample data of WAV files and captures.

let soxPath = "/usr/bin/sox"

/// PCM audio: 16-bit samples, interleaved.
struct PCMData {
    var channels: Int
    var sampleRate: Int
    var samples: [Int16]

    var frameCount: Int { samples.count / channels }
    func frame(_ i: Int) -> ArraySlice<Int16> { samples[(i * channels)..<((i + 1) * channels)] }
}

/// Makes a 16-bit sound file with sox: `sox -n -r RATE -b 16 -c CH FILE synth SECONDS <synth...>`.
func makeSound(in dir: TestDirectory, name: String, rate: Int, channels: Int, seconds: String = "1.2345",
               synth: [String]? = nil) async throws -> String {
    let path = dir.file(name)
    // Distinct content per channel (a channel swap or frame slip shows), noise so no two
    // positions in the loop look alike, and some headroom so nothing clips.
    let voices = synth ?? (channels == 1 ? ["whitenoise"] : ["sine", "440", "whitenoise"])
    try await runTool(soxPath, ["-q", "-V1", "-n", "-r", "\(rate)", "-b", "16", "-c", "\(channels)", path,
                                "synth", seconds] + voices + ["vol", "0.6"], directory: dir)
    return path
}

enum WAVError: Error, CustomStringConvertible {
    case bad(String)
    var description: String { switch self { case .bad(let m): return "WAV: \(m)" } }
}

private func le16(_ b: [UInt8], _ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 }
private func le32(_ b: [UInt8], _ at: Int) -> Int { le16(b, at) | le16(b, at + 2) << 16 }

/// Samples as signed 16-bit little-endian.
func int16Samples(_ bytes: ArraySlice<UInt8>) -> [Int16] {
    let b = Array(bytes)
    var out = [Int16](repeating: 0, count: b.count / 2)
    for i in 0..<out.count { out[i] = Int16(bitPattern: UInt16(b[2 * i]) | UInt16(b[2 * i + 1]) << 8) }
    return out
}

/// Reads a 16-bit PCM WAV file's `fmt ` and `data` chunks directly (not through libsndfile).
func readWAV(_ path: String) throws -> PCMData {
    guard let d = FileManager.default.contents(atPath: path) else { throw WAVError.bad("cannot read \(path)") }
    let b = [UInt8](d)
    guard b.count >= 12, b[0..<4] == [0x52, 0x49, 0x46, 0x46][...], b[8..<12] == [0x57, 0x41, 0x56, 0x45][...] else {
        throw WAVError.bad("not RIFF/WAVE")
    }
    var pos = 12
    var channels = 0, rate = 0, bits = 0
    while pos + 8 <= b.count {
        let id = String(decoding: b[pos..<pos + 4], as: UTF8.self)
        let size = le32(b, pos + 4)
        let body = pos + 8
        if id == "fmt " {
            channels = le16(b, body + 2)
            rate = le32(b, body + 4)
            bits = le16(b, body + 14)
        } else if id == "data" {
            guard channels > 0, bits == 16 else { throw WAVError.bad("expected 16-bit PCM, got \(bits) bits, \(channels) ch") }
            let end = min(b.count, body + size)
            return PCMData(channels: channels, sampleRate: rate, samples: int16Samples(b[body..<end]))
        }
        pos = body + size + (size & 1)
    }
    throw WAVError.bad("no data chunk")
}

/// Decodes any file sox reads to 16-bit signed little-endian samples.
func decodeWithSox(_ path: String, channels: Int, rate: Int, in dir: TestDirectory) async throws -> PCMData {
    let out = dir.file("decoded-\(UUID().uuidString.prefix(8)).raw")
    try await runTool(soxPath, ["-q", path, "-t", "raw", "-e", "signed", "-b", "16", "-L", out], directory: dir)
    return try readRaw(out, channels: channels, rate: rate)
}

/// A raw S16_LE capture (what ALSA's `file:'PATH',raw` PCM writes).
func readRaw(_ path: String, channels: Int, rate: Int) throws -> PCMData {
    guard let d = FileManager.default.contents(atPath: path) else { throw WAVError.bad("no capture at \(path)") }
    return PCMData(channels: channels, sampleRate: rate, samples: int16Samples(ArraySlice([UInt8](d))))
}

/// Which of `candidates` (Hz) is the loudest tone in `samples` (mono, or the first channel of
/// interleaved ones), by the Goertzel filter's power at each; nil when nothing is heard
/// (the strongest has under a hundredth of the signal's power).
func dominantTone(_ data: PCMData, candidates: [Double]) -> Double? {
    let x = stride(from: 0, to: data.samples.count, by: max(1, data.channels)).map { Double(data.samples[$0]) }
    guard !x.isEmpty else { return nil }
    let total = x.reduce(0) { $0 + $1 * $1 }
    guard total > 0 else { return nil }
    var best: (tone: Double, power: Double)?
    for f in candidates {
        let coefficient = 2 * cos(2 * Double.pi * f / Double(data.sampleRate))
        var (s1, s2) = (0.0, 0.0)
        for v in x {
            let s = v + coefficient * s1 - s2
            s2 = s1
            s1 = s
        }
        // |X(f)|^2 scaled to the fraction of the signal's energy in that bin (2/N for a sine).
        let power = (s1 * s1 + s2 * s2 - coefficient * s1 * s2) * 2 / Double(x.count) / total
        if power > (best?.power ?? 0) { best = (f, power) }
    }
    guard let best, best.power > 0.01 else { return nil }
    return best.tone
}
