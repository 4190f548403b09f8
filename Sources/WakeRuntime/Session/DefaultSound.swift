import CWakeSound
import Glibc
import WakeSystem

/// wake's own alarm sound, found wherever the binary is copied.
///
/// Its samples are part of the binary (Sources/CWakeSound, written by scripts/make-alarm-sound)
/// and play from memory: the sound most alarms ring with needs no libsndfile, no codec library
/// and no decode, so it rings where libsndfile is missing or broken, and wake opens none of them
/// for it (ALSA's pulse plugin hook, where configured, still brings libsndfile in with libpulse).
public enum DefaultSound {
    static func open() throws(SoundFile.OpenError) -> SoundFile {
        let embedded = UnsafeBufferPointer(start: wake_alarm_sample_data(), count: Int(wake_alarm_sample_count))
        if let sound = try? SoundFile(samples: embedded, sampleRate: Int(wake_alarm_sample_rate), channels: 1, name: "(built-in alarm)") {
            return sound
        }
        // Only a build that embedded silence gets here.
        return try SoundFile(samples: SynthesisedTone.samples, sampleRate: SynthesisedTone.rate, channels: 1, name: "(built-in tone)")
    }
}

/// The last resort should the embedded sound be unusable: a beeping tone made in code, once.
public enum SynthesisedTone {
    static let rate = 44_100

    /// Mono 16-bit samples, kept for the life of the process (a SoundFile plays them in place).
    nonisolated(unsafe) static let samples: UnsafeBufferPointer<Int16> = {
        let tone = make()
        let storage = UnsafeMutableBufferPointer<Int16>.allocate(capacity: tone.count)
        _ = storage.initialize(from: tone)
        return UnsafeBufferPointer(storage)
    }()

    static func make() -> [Int16] {
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
        return samples
    }
}
