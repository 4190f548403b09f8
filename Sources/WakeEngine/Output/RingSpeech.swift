import WakeCore
import WakeSystem

/// What a ring says between loops of its sound (`--say on`): the clip espeak-ng made when the
/// alarm was set, and its frames in each sound format a ring may play it with (the alarm's own
/// sound, and the built-in one the fallback chain may move to), each converted once. `prepare`
/// converts at arm time, so a ring, even one that falls back, only looks its frames up. Used on
/// the thread that arms and starts rings (the loop), as the request that holds it is.
public final class RingSpeech {
    public let clip: SpeechClip
    private var converted: [SpeechFrames.Format: SpeechFrames] = [:]

    public init(_ clip: SpeechClip) { self.clip = clip }

    /// Converts the clip now for the format of each of `sounds`.
    public func prepare(for sounds: [SoundFile]) {
        for sound in sounds { _ = frames(for: sound) }
    }

    /// The clip in `sound`'s rate, channels and sample width.
    func frames(for sound: SoundFile) -> SpeechFrames {
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
