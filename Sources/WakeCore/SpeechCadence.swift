/// `--say on`: what is spoken, and when, decided here; the samples come from espeak-ng when the
/// alarm is set, and the loop only copies them.

/// A spoken text's samples: mono, signed 16-bit, at `rate` Hz (espeak-ng's 22,050).
public struct SpeechClip: Sendable, Hashable {
    public let samples: [Int16]
    public let rate: Int
    /// The text that was spoken, for the dry run.
    public let text: String

    public init(samples: [Int16], rate: Int, text: String) {
        self.samples = samples
        self.rate = rate
        self.text = text
    }

    public var duration: Duration {
        rate > 0 ? .milliseconds(Int64(samples.count) * 1000 / Int64(rate)) : .zero
    }

    /// The samples at `rate` Hz, for a sound of that rate.
    public func resampled(to target: Int) -> [Int16] { Resample.linear(samples, from: rate, to: target) }

    /// What an alarm says: its message, or the time of the occurrence it rings for
    /// (`It is 6:30`, the hour without a leading zero, as one says it).
    public static func text(message: String?, hour: Int, minute: Int) -> String {
        if let message, message.contains(where: { !$0.isWhitespace }) { return message }
        let m = max(0, min(59, minute))
        return "It is \(max(0, min(23, hour))):\(m < 10 ? "0" : "")\(m)"
    }

    /// `text(message:hour:minute:)` for the occurrence at `instant` in `zone`.
    public static func text(message: String?, at instant: Instant, zone: TimeZoneRules) -> String {
        let local = zone.localTime(at: instant)
        return text(message: message, hour: local.hour, minute: local.minute)
    }
}

/// When a looping sound stops for speech: at the first seam (after the first loop), then at the
/// first seam once `interval` frames of sound have played since the speech. A sound longer than
/// the interval speaks at every seam; a short one every few loops.
public struct SpeechCadence: Sendable, Equatable {
    /// Frames of sound between speeches, at the sound's rate.
    public let interval: Int64
    public private(set) var soundSinceSpeech: Int64 = 0
    public private(set) var hasSpoken = false

    public init(interval: Duration = Defaults.speechInterval, rate: Int) {
        let seconds = max(0, interval.components.seconds)
        let (frames, overflow) = seconds.multipliedReportingOverflow(by: Int64(max(0, rate)))
        self.interval = overflow ? Int64.max : frames
    }

    /// `frames` frames of the sound were played.
    public mutating func played(_ frames: Int) {
        let (sum, overflow) = soundSinceSpeech.addingReportingOverflow(Int64(max(0, frames)))
        soundSinceSpeech = overflow ? Int64.max : sum
    }

    /// The sound reached its end: whether the speech comes now (and if so, counting starts again).
    /// Never when no sound played since the start or the last speech: a file that yields nothing
    /// (truncated in the night) is a failure for the fallback chain, not a loop to speak after.
    public mutating func speaksAtSeam() -> Bool {
        guard soundSinceSpeech > 0, !hasSpoken || soundSinceSpeech >= interval else { return false }
        hasSpoken = true
        soundSinceSpeech = 0
        return true
    }
}
