import WakeCore
import WakeSystem

/// The sound as an endless stream: chunks read from the file, the end joined to the start with
/// nothing between (the seam is "read returned 0", not a frame count, which is only an estimate
/// for MP3), the gain applied. Used by one output worker at a time.
///
/// With speech (`--say on`), a seam may stop the sound for the spoken clip, already in the
/// sound's format, by the rule `SpeechCadence` keeps; the clip passes through the same gain, so
/// it follows the volume and the fade. Without it nothing comes between the loops.
final class LoopingSource {
    let sound: SoundFile
    let gain: GainRamp
    let chunkFrames = 16384
    let frameBytes: Int
    private let staging: UnsafeMutableRawPointer
    private var stagedFrames = 0
    private var stagedOffset = 0
    /// Frames produced since the ring started, at this sound's rate: where the fade-in stands.
    private var producedFrames: Int64 = 0
    /// `wake sleep`'s fade to silence, and the ring's audio so far in frames at this sound's rate
    /// (uncapped, unlike the fade-in's position): where that fade stands.
    /// Each applies (a key's fade on top of the span's own multiplies, never louder).
    private var fadeAway: [FadeOut]
    private let audioStart: Int64
    private var audioFrames: Int64 = 0
    /// Where the fade-in starts on this output: the level the ring had reached on the outputs
    /// before it (`CrescendoPosition`), 0 for a fresh ring.
    let fadeStart: Int64
    /// Position in the file of the next frame to reach the device, for the fade-out on stop.
    private(set) var nextWritePosition: Int64 = 0
    private(set) var seams: Int64 = 0
    /// The spoken clip in this sound's format, and when it comes.
    private let speech: SpeechFrames?
    private var cadence: SpeechCadence
    /// The clip's next frame to stage while it is being spoken.
    private var speechNext: Int?
    /// The staged frames that are speech, not the file (at most one run a chunk: the clip comes
    /// at most once in an interval far longer than a chunk), and the clip's frame at its start.
    private var stagedSpeech = 0..<0
    private var stagedSpeechFirst = 0
    /// Where in the clip the next frame to write stands, while the speech is being written.
    private var nextSpeechPosition: Int?

    init(sound: SoundFile, volume: Int, fadeIn: Duration, crescendo: CrescendoPosition = CrescendoPosition(), speech: SpeechFrames? = nil,
         fadeOut: FadeOut? = nil) {
        self.sound = sound
        fadeAway = fadeOut.map { [$0] } ?? []
        audioStart = min(crescendo.startFrame(rate: sound.sampleRate), Int64.max / 2)
        audioFrames = audioStart
        self.speech = speech.flatMap { $0.frames > 0 ? $0 : nil }
        cadence = SpeechCadence(rate: sound.sampleRate)
        gain = GainRamp(volumePercent: volume, fadeIn: fadeIn, sampleRate: sound.sampleRate)
        // Past the fade's end every frame is at the volume: the position need go no further,
        // and the frame count after it never nears overflow.
        fadeStart = min(crescendo.startFrame(rate: sound.sampleRate), gain.fadeInFrames, Int64.max / 2)
        frameBytes = sound.channels * (sound.width == .int16 ? 2 : 4)
        staging = UnsafeMutableRawPointer.allocate(byteCount: chunkFrames * frameBytes, alignment: 8)
    }

    deinit { staging.deallocate() }

    var format: PCM.SampleFormat { sound.width == .int16 ? .s16 : .s32 }

    /// Starts from the beginning of the sound, and the fade-in from where this output takes it up.
    func rewind() throws(SoundFile.ReadError) {
        try sound.rewind()
        (stagedFrames, stagedOffset, producedFrames, nextWritePosition, seams) = (0, 0, fadeStart, 0, 0)
        audioFrames = audioStart
        (cadence, speechNext, stagedSpeech, nextSpeechPosition) = (SpeechCadence(rate: sound.sampleRate), nil, 0..<0, nil)
    }

    /// The ring's own fade (the first) comes `span` later: louder again if it had begun.
    func shiftFade(by span: Duration) {
        if !fadeAway.isEmpty { fadeAway[0].after += span }
    }

    /// From the next frame read on, fades to silence over `span` (`wake sleep`'s key).
    func fadeFromNow(over span: Duration) {
        let rate = Int64(max(1, sound.sampleRate))
        let played = Duration.seconds(audioFrames / rate) + .nanoseconds((audioFrames % rate) * 1_000_000_000 / rate)
        fadeAway.append(FadeOut(after: played, over: span))
    }

    /// Frames read and not yet written.
    var pending: (pointer: UnsafeRawPointer, frames: Int) {
        (UnsafeRawPointer(staging + stagedOffset * frameBytes), stagedFrames - stagedOffset)
    }

    func consumed(_ frames: Int) {
        // Spoken frames are not the file's: the fade-out on a stop starts where the file stands.
        let written = stagedOffset..<(stagedOffset + frames)
        let fromFile = frames - (stagedSpeech.isEmpty ? 0 : written.clamped(to: stagedSpeech).count)
        stagedOffset += frames
        if sound.frames > 0 { nextWritePosition = (nextWritePosition + Int64(fromFile)) % sound.frames }
        guard speech != nil else { return }
        if stagedSpeech.contains(stagedOffset) {
            nextSpeechPosition = stagedSpeechFirst + (stagedOffset - stagedSpeech.lowerBound)
        } else if stagedOffset >= stagedFrames, let next = speechNext {
            nextSpeechPosition = next  // the chunk ended inside the clip: the next one goes on with it
        } else {
            nextSpeechPosition = nil
        }
    }

    /// The loudest sample of the next `frames` pending frames (those a write just took), as a
    /// fraction of full scale: the output's peak meter, after the gain. One pass over what was
    /// written, on the worker, as the gain's own pass is.
    func peak(ofPending frames: Int) -> Double {
        let count = max(0, min(frames, stagedFrames - stagedOffset)) * sound.channels
        guard count > 0 else { return 0 }
        let start = staging + stagedOffset * frameBytes
        switch sound.width {
        case .int16:
            let samples = UnsafeBufferPointer(start: start.assumingMemoryBound(to: Int16.self), count: count)
            var loudest: UInt16 = 0
            for s in samples where s.magnitude > loudest { loudest = s.magnitude }
            return Double(loudest) / 32768
        case .int32:
            let samples = UnsafeBufferPointer(start: start.assumingMemoryBound(to: Int32.self), count: count)
            var loudest: UInt32 = 0
            for s in samples where s.magnitude > loudest { loudest = s.magnitude }
            return Double(loudest) / 2_147_483_648
        }
    }

    /// Reads the next chunk, looping at the end, and applies the gain.
    func fill() throws(SoundFile.ReadError) {
        stagedFrames = 0
        stagedOffset = 0
        stagedSpeech = 0..<0
        var emptyReads = 0
        while stagedFrames < chunkFrames {
            if let speech, let first = speechNext {
                let n = min(speech.frames - first, chunkFrames - stagedFrames)
                speech.copy(from: first, count: n, to: staging + stagedFrames * frameBytes, frameBytes: frameBytes)
                (stagedSpeech, stagedSpeechFirst) = (stagedFrames..<(stagedFrames + n), first)
                applyGain(from: stagedFrames, count: n)
                stagedFrames += n
                speechNext = first + n < speech.frames ? first + n : nil
                continue
            }
            let n = try read(at: stagedFrames, frames: chunkFrames - stagedFrames)
            if n == 0 {
                emptyReads += 1
                if emptyReads > 1 { throw .decode("the sound file yields no frames any more (was it truncated or replaced?)") }
                try sound.rewind()
                seams += 1
                if speech != nil, cadence.speaksAtSeam() { speechNext = 0 }
                continue
            }
            emptyReads = 0
            if speech != nil { cadence.played(n) }
            applyGain(from: stagedFrames, count: n)
            stagedFrames += n
        }
    }

    /// Up to `frames` frames of what comes `rewound` frames before the next frame to write (what
    /// the device took back), fading from the volume to silence: what a stop plays so it does
    /// not click. Inside the speech, the speech goes on fading; otherwise the file does.
    func fadeOut(rewound: Int64, frames: Int) -> (pointer: UnsafeRawPointer, frames: Int) {
        let total = sound.frames
        guard total > 0 else { return (UnsafeRawPointer(staging), 0) }
        // `wake sleep`'s fade: the stop's own fade starts from where that one had come, not
        // from the volume (a sound faded to nothing must not come back for its last moment).
        let written = audioFrames - Int64(stagedFrames - stagedOffset) - rewound
        let level = fadeAway.reduce(1.0) { $0 * $1.factor(atFrame: max(0, written), rate: sound.sampleRate) }
        let out = stopFade(rewound: rewound, frames: frames)
        switch sound.width {
        case .int16: GainRamp.attenuate(UnsafeMutablePointer(mutating: out.pointer.assumingMemoryBound(to: Int16.self)), frames: out.frames,
                                        channels: sound.channels, by: level)
        case .int32: GainRamp.attenuate(UnsafeMutablePointer(mutating: out.pointer.assumingMemoryBound(to: Int32.self)), frames: out.frames,
                                        channels: sound.channels, by: level)
        }
        return out
    }

    private func stopFade(rewound: Int64, frames: Int) -> (pointer: UnsafeRawPointer, frames: Int) {
        let total = sound.frames
        var back = rewound
        if let position = nextSpeechPosition, let speech {
            if rewound <= Int64(position) { return fadeOutSpeech(speech, from: position - Int(rewound), frames: frames) }
            back = rewound - Int64(position)  // taken back past the clip's start: the file before the seam
        }
        return fadeOut(from: ((nextWritePosition - back) % total + total) % total, frames: frames)
    }

    private func fadeOutSpeech(_ speech: SpeechFrames, from position: Int, frames: Int) -> (pointer: UnsafeRawPointer, frames: Int) {
        (stagedFrames, stagedOffset, stagedSpeech) = (0, 0, 0..<0)
        let got = max(0, min(chunkFrames, frames, speech.frames - position))
        speech.copy(from: position, count: got, to: staging, frameBytes: frameBytes)
        switch sound.width {
        case .int16: gain.applyFadeOut(to: staging.assumingMemoryBound(to: Int16.self), frames: got, channels: sound.channels)
        case .int32: gain.applyFadeOut(to: staging.assumingMemoryBound(to: Int32.self), frames: got, channels: sound.channels)
        }
        return (UnsafeRawPointer(staging), got)
    }

    /// Up to `frames` frames from the file position `from`, fading from the volume to silence.
    private func fadeOut(from position: Int64, frames: Int) -> (pointer: UnsafeRawPointer, frames: Int) {
        stagedFrames = 0
        stagedOffset = 0
        stagedSpeech = 0..<0
        guard (try? sound.seek(to: position)) != nil else { return (UnsafeRawPointer(staging), 0) }
        var got = 0, emptyReads = 0
        let want = min(chunkFrames, frames)
        while got < want && emptyReads < 2 {
            let n = (try? read(at: got, frames: want - got)) ?? 0
            if n == 0 {
                emptyReads += 1
                if (try? sound.rewind()) == nil { break }
                continue
            }
            emptyReads = 0
            got += n
        }
        switch sound.width {
        case .int16: gain.applyFadeOut(to: staging.assumingMemoryBound(to: Int16.self), frames: got, channels: sound.channels)
        case .int32: gain.applyFadeOut(to: staging.assumingMemoryBound(to: Int32.self), frames: got, channels: sound.channels)
        }
        return (UnsafeRawPointer(staging), got)
    }

    private func applyGain(from start: Int, count: Int) {
        defer {
            producedFrames += Int64(count)
            audioFrames = min(audioFrames + Int64(count), Int64.max / 2)
        }
        let first = producedFrames
        let rate = sound.sampleRate, audio = audioFrames
        switch sound.width {
        case .int16:
            let p = staging.assumingMemoryBound(to: Int16.self) + start * sound.channels
            gain.apply(to: p, frames: count, channels: sound.channels, firstIndex: first)
            for f in fadeAway { f.apply(to: p, frames: count, channels: sound.channels, firstIndex: audio, rate: rate) }
        case .int32:
            let p = staging.assumingMemoryBound(to: Int32.self) + start * sound.channels
            gain.apply(to: p, frames: count, channels: sound.channels, firstIndex: first)
            for f in fadeAway { f.apply(to: p, frames: count, channels: sound.channels, firstIndex: audio, rate: rate) }
        }
    }

    private func read(at offset: Int, frames: Int) throws(SoundFile.ReadError) -> Int {
        let dest = staging + offset * frameBytes
        switch sound.width {
        case .int16: return try sound.read(into: dest.assumingMemoryBound(to: Int16.self), frames: frames)
        case .int32: return try sound.read(into: dest.assumingMemoryBound(to: Int32.self), frames: frames)
        }
    }
}
