import WakeCore
import WakeSystem

/// What a ring says between loops of its sound (`--say on`): the text, the clip espeak-ng made
/// of it, and its frames in each sound format a ring may play it with (the alarm's own sound,
/// and the built-in one the fallback chain may move to), each converted once. `prepare`
/// converts ahead of the ring, so a ring, even one that falls back, only looks its frames up.
///
/// A one-off makes its clip when it is set. The daemon arms each occurrence with the text only
/// and makes the clip shortly before the ring (`fill`), then drops it after (`drop`): a daemon
/// waiting for many spoken alarms holds no clip. A ring that starts while the clip is not made
/// plays its sound alone. Used on the thread that arms and starts rings (the loop), as the
/// request that holds it is.
public final class RingSpeech {
    public let text: String
    /// The spoken clip; nil until it is made, and again once it is dropped.
    public private(set) var clip: SpeechClip?
    private var converted: [SpeechFrames.Format: SpeechFrames] = [:]

    public init(_ clip: SpeechClip) {
        text = clip.text
        self.clip = clip
    }

    /// Speech still to be made (`fill`).
    public init(text: String) { self.text = text }

    /// Takes `made`'s clip and the frames it has converted (made by `ArmChecks.speech`).
    public func fill(from made: RingSpeech) {
        clip = made.clip
        converted = made.converted
    }

    /// Lets the clip and its frames go (a ring under way keeps the frames it was given).
    public func drop() {
        clip = nil
        converted = [:]
    }

    /// Converts the clip now for the format of each of `sounds`.
    public func prepare(for sounds: [SoundFile]) {
        for sound in sounds { _ = frames(for: sound) }
    }

    /// The clip in `sound`'s rate, channels and sample width; nil while there is no clip.
    func frames(for sound: SoundFile) -> SpeechFrames? {
        guard let clip else { return nil }
        let format = SpeechFrames.Format(rate: sound.sampleRate, channels: sound.channels, width: sound.width)
        if let done = converted[format] { return done }
        let frames = SpeechFrames(clip, format: format)
        converted[format] = frames
        return frames
    }
}

/// A clip's frames, interleaved in a sound's own format: what `LoopingSource` copies between
/// two loops of the sound. Immutable, so the output worker reads it as it is.
struct SpeechFrames: Sendable {
    struct Format: Hashable, Sendable {
        var rate: Int
        var channels: Int
        var width: SoundFile.SampleWidth
    }

    let frames: Int
    private let int16: [Int16]
    private let int32: [Int32]

    init(_ clip: SpeechClip, format: Format) {
        let mono = clip.resampled(to: format.rate)
        let channels = max(1, format.channels)
        frames = mono.count
        switch format.width {
        case .int16:
            var out = [Int16](repeating: 0, count: mono.count * channels)
            for (i, s) in mono.enumerated() { for c in 0..<channels { out[i * channels + c] = s } }
            (int16, int32) = (out, [])
        case .int32:
            var out = [Int32](repeating: 0, count: mono.count * channels)
            for (i, s) in mono.enumerated() { for c in 0..<channels { out[i * channels + c] = Int32(s) << 16 } }
            (int16, int32) = ([], out)
        }
    }

    /// Copies `count` frames from frame `first` to `destination` (`frameBytes` to a frame).
    func copy(from first: Int, count: Int, to destination: UnsafeMutableRawPointer, frameBytes: Int) {
        guard count > 0, first >= 0, first + count <= frames else { return }
        func copy(_ raw: UnsafeRawBufferPointer) {
            guard let base = raw.baseAddress, (first + count) * frameBytes <= raw.count else { return }
            destination.copyMemory(from: base + first * frameBytes, byteCount: count * frameBytes)
        }
        if int32.isEmpty { int16.withUnsafeBytes(copy) } else { int32.withUnsafeBytes(copy) }
    }
}
