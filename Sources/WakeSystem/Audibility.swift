import Glibc

/// The one rule for whether a sound can wake anyone.
///
/// A sound is audible when both hold:
/// - looped, it repeats at most `highestLoopRate` (20,000) times a second: a loop shorter than
///   that (one frame; two at 44.1 kHz) repeats above the range of human hearing. Short loops
///   above that (a 13-frame loop at 44.1 kHz is a 3.4 kHz tone) are audible, and allowed;
/// - its waveform reaches above `thresholdDBFS` (-60 dBFS, 0.001 of full scale): the peak of
///   |sample - mean| in any one channel over the whole file, times the volume. Measuring from
///   the channel's mean, not from zero, means a constant level (DC offset), which no speaker
///   turns into sound, counts as silent however large it is.
///
/// Anything else is refused when the alarm is set, with a reason starting "the sound is silent".
public enum Audibility {
    public static let highestLoopRate = 20_000
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
        // frames / rate < 1 / highestLoopRate, without dividing.
        let (scaled, overflow) = frames.multipliedReportingOverflow(by: Int64(highestLoopRate))
        if !overflow && scaled < rate {
            return prefix + "it is \(frames) frame\(frames == 1 ? "" : "s") long (\(describe(micros: lengthMicros))); "
                + "looped, it repeats above \(highestLoopRate / 1000) kHz, out of hearing"
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

