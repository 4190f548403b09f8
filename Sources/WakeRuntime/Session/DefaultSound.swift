import CWakeSound
import Glibc
import WakeSystem

/// wake's own alarm sound, found wherever the binary is copied.
public enum DefaultSound {
    static func open() throws(SoundFile.OpenError) -> SoundFile {
        let embedded = UnsafeRawBufferPointer(start: wake_alarm_sound_bytes(), count: Int(wake_alarm_sound_length))
        if let sound = try? SoundFile(bytes: embedded, name: "(built-in alarm)") { return sound }
        let wav = SynthesisedTone.wav()
        let result = wav.withUnsafeBytes { b in Result { () throws(SoundFile.OpenError) in try SoundFile(bytes: b, name: "(built-in tone)") } }
        return try result.get()
    }
}

/// The last resort when the embedded sound cannot be decoded: a beeping tone made in code.
public enum SynthesisedTone {
    static func wav(rate: Int = 44_100) -> [UInt8] {
        var samples: [Int16] = []
        let beep = rate / 8, gap = rate / 8
        for cycle in 0..<4 {
            for i in 0..<beep {
                let t = Double(i) / Double(rate)
                let env = min(1, Double(i) / 200, Double(beep - i) / 200)
                let f = cycle % 2 == 0 ? 1760.0 : 2093.0
                samples.append(Int16(env * 0.6 * 32767 * sin(2 * .pi * f * t)))
            }
            samples += [Int16](repeating: 0, count: gap)
        }
        samples += [Int16](repeating: 0, count: rate / 2)
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        let data = samples.flatMap { le16(Int(UInt16(bitPattern: $0))) }
        return Array("RIFF".utf8) + le32(36 + data.count) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(1)
            + le32(rate) + le32(rate * 2) + le16(2) + le16(16) + Array("data".utf8) + le32(data.count) + data
    }
}
