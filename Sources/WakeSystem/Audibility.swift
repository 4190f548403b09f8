import Glibc

/// The one rule for whether a sound can wake anyone.
///
/// A sound is audible when both hold:
/// - it lasts at least `minimumDuration` (50 ms): one frame, looped, is a click train at best;
/// - its waveform reaches above `thresholdDBFS` (-60 dBFS, 0.001 of full scale): the peak of
///   |sample - mean| in any one channel over the whole file, times the volume. Measuring from
///   the channel's mean, not from zero, means a constant level (DC offset), which no speaker
///   turns into sound, counts as silent however large it is.
///
/// Anything else is refused when the alarm is set, with a reason starting "the sound is silent".
public enum Audibility {
    public static let minimumDuration: Duration = .milliseconds(50)
    public static let thresholdDBFS: Double = -60
    static let threshold = 0.001  // 10^(-60/20)

    /// The level in dBFS of a linear peak (1.0 is full scale); -infinity for 0.
    public static func dBFS(_ linear: Double) -> Double {
        linear > 0 ? 20 * log10(linear) : -.infinity
    }

    /// Why a sound with these measurements is silent at `volume` percent, or nil when it is audible.
    /// - `allZero`: every sample is exactly 0. `peak`: the largest |sample - channel mean|, linear.
    public static func silenceReason(frames: Int64, sampleRate: Int, allZero: Bool, peak: Double, volume: Int = 100) -> String? {
        let prefix = "the sound is silent: "
        let rate = Int64(max(1, sampleRate))
        let micros = frames.multipliedReportingOverflow(by: 1_000_000)
        let lengthMicros = micros.overflow ? Int64.max : (micros.partialValue + rate / 2) / rate
        if lengthMicros < minimumDuration.inMicroseconds {
            return prefix + "it is \(frames) frame\(frames == 1 ? "" : "s") long (\(describe(micros: lengthMicros))); "
                + "an alarm needs at least \(minimumDuration.inMicroseconds / 1000) ms"
        }
        if allZero { return prefix + "every sample is 0" }
        if peak <= 0 { return prefix + "it is a constant level with no waveform" }
        if volume <= 0 { return prefix + "--volume 0 scales every sample to 0" }
        let level = peak * Double(min(volume, 100)) / 100
        if level <= threshold {
            let at = volume >= 100 ? "" : " at --volume \(volume)"
            return prefix + "its waveform peaks at \(format(dBFS(level))) dBFS\(at); an alarm needs more than \(format(thresholdDBFS)) dBFS"
        }
        return nil
    }

    /// `-70.0`, `-inf`.
    public static func format(_ db: Double) -> String {
        guard db.isFinite else { return db < 0 ? "-inf" : "inf" }
        let tenths = (db * 10).rounded()
        let sign = tenths < 0 ? "-" : ""
        let a = Int64(min(abs(tenths), 1e15))
        return "\(sign)\(a / 10).\(a % 10)"
    }

    private static func describe(micros: Int64) -> String {
        micros < 1000 ? "\(micros) µs" : "\(micros / 1000).\((micros % 1000) / 100) ms"
    }
}

extension Duration {
    var inMicroseconds: Int64 {
        let (s, a) = components
        return s * 1_000_000 + a / 1_000_000_000_000
    }
}
