import WakeCore
import WakeSystem

/// What a ring should sound like.
public struct RingRequest {
    /// The sound opened and checked when the alarm was set.
    public var sound: SoundFile
    /// Whether `sound` is the user's file or wake's own (which decides the first fallback).
    public var soundKind: FallbackChain.Sound
    public var device: String
    public var volume: Int
    public var fadeIn: Duration
    /// Test and benchmark switch: write to clockless devices as fast as they take audio.
    public var unpaced: Bool
    /// The mixer guard (`--mixer`, `--min-volume`): off unless asked for.
    public var mixer: MixerPolicy
    /// A quiet `wake test`: the user's levels (the ALSA mixer, the sink wake's stream plays on)
    /// are only read, never raised, whatever `mixer` says; wake's own stream on a sound server
    /// is still unmuted and raised, as at every ring. A sink left muted or quiet is said, with
    /// what the guard does about it at the alarm.
    public var leavesUserLevels: Bool
    /// `--say on`: spoken between loops of the sound, in the same stream (nil: the loop is the
    /// sound alone, sample-exact).
    public var speech: RingSpeech?
    /// A folder or list as the sound (`soundKind` `.user`): its files in the order they are
    /// tried, the first being this ring's choice. Each is opened by the output worker when the
    /// ring starts (never on the loop), and one that fails gives way to the next, then to
    /// wake's built-in sound. Empty for a single file, which `sound` holds open.
    public var entries: [String]
    /// `--snooze-volume`: the volume of a ring after a snooze, its fade rising to it; nil: `volume`.
    public var snoozeVolume: Int?
    /// `--escalate`'s last round: wake's built-in sound plays in place of `sound` (the output
    /// opens its own copy, as for a fallback), on the same device.
    public var switchedToBuiltIn = false
    /// `--sink`: the sound server's sink `device` opens a stream on (`SinkChoice.pcm`); while the
    /// ring plays there, where the server moves the stream is followed and said.
    public var sink: String?
    /// What a sound server's volume control calls the ring's stream: the alarm ("Alarm 06:30
    /// (work)"), as the media widget titles it.
    public var streamName = RingRequest.defaultStreamName
    public static let defaultStreamName = "wake"
    /// `wake sleep`: the ring fades to silence at its end (nil: it keeps its volume to the end).
    public var fadeOut: FadeOut?

    public init(sound: SoundFile, soundKind: FallbackChain.Sound, device: String, volume: Int = Defaults.volume,
                fadeIn: Duration = Defaults.fadeIn, unpaced: Bool = false, mixer: MixerPolicy = .off, leavesUserLevels: Bool = false,
                speech: RingSpeech? = nil, entries: [String] = []) {
        self.sound = sound; self.soundKind = soundKind; self.device = device
        self.volume = volume; self.fadeIn = fadeIn; self.unpaced = unpaced; self.mixer = mixer
        self.leavesUserLevels = leavesUserLevels
        self.speech = speech
        self.entries = entries
    }

    /// The pre-alarm's quiet ring of this ring: `percent` of its volume, on the same device and
    /// under the same mixer policy, with `sound` (`--pre-alarm-sound`) or this ring's own (a
    /// folder's or list's files included); its fade no longer than `lead`. It speaks nothing:
    /// `--say` belongs to the alarm's own ring.
    public func preRing(percent: Int, lead: Duration, sound: SoundFile? = nil) -> RingRequest {
        var r = self
        if let sound { r.sound = sound; r.soundKind = .user; r.entries = [] }
        r.speech = nil
        r.volume = PreAlarm(lead: lead, percent: percent).volume(of: volume)
        r.fadeIn = min(fadeIn, lead)
        return r
    }

    /// The ring after a snooze: at `snoozeVolume`, if the alarm has one.
    public var afterSnooze: RingRequest {
        var r = self
        if let snoozeVolume { r.volume = snoozeVolume }
        return r
    }

    /// Round `round` of an unanswered occurrence under `rule` (`--escalate`): at the round's
    /// volume, and the last round with wake's built-in sound (switched to, not mixed in).
    public func round(_ round: Int, of rule: Unattended) -> RingRequest {
        guard rule.escalate, round > 1 else { return self }
        var r = self
        r.volume = max(volume, rule.volume(round: round, of: volume))
        if rule.switchesToBuiltIn(round: round) && soundKind == .user {
            r.soundKind = .builtIn
            r.entries = []
            r.switchedToBuiltIn = true
        }
        return r
    }

    /// Whether the sound is a folder's or list's files, opened at ring time.
    var playsEntries: Bool { soundKind == .user && !entries.isEmpty }

    /// Whether a device pre-rolled for `self` can play `other`: the same file, device and settings.
    func isSameRing(as other: RingRequest) -> Bool {
        sound === other.sound && soundKind == other.soundKind && device == other.device && volume == other.volume
            && fadeIn == other.fadeIn && unpaced == other.unpaced && mixer == other.mixer && leavesUserLevels == other.leavesUserLevels
            && speech === other.speech
            && entries == other.entries && switchedToBuiltIn == other.switchedToBuiltIn && sink == other.sink && fadeOut == other.fadeOut
    }
}

/// What the sound path reports, in the order it happens.
public enum OutputEvent: Hashable, Sendable {
    case opened(device: String, format: String, paced: Bool)
    /// The first audio reached a device (or the bell rang): the alarm is audible from here.
    case audible
    /// An underrun or a resume was recovered; `count` of them since the last report.
    case recovered(what: String, count: Int)
    /// `to` is a device name, `built-in sound on DEVICE`, or `bell`.
    case fallback(from: String, to: String, reason: String)
    /// Every device failed: the terminal bell rings instead.
    case bell
    /// Not even the bell is possible.
    case failed(reason: String)
    /// The sound stopped: frames written and loop seams passed during this ring.
    case stopped(frames: Int64, seams: Int64)
    /// The mixer behind the device was unmuted and raised to the floor (`from` and `to` levels).
    case mixerRaised(mixer: String, from: MixerReading, to: MixerReading)
    /// The levels were put back; `keptChanges`: a channel changed during the ring was left as set.
    case mixerRestored(mixer: String, to: MixerReading, keptChanges: Bool)
    /// The mixer could not be read, raised or put back; the ring goes on.
    case mixerProblem(String)
    /// `--sink`: the sound server moved the ring's stream from the chosen sink `chosen` to `to`
    /// (`chosenGone`: that sink is gone), or back to it (`to` is `chosen`); the sound goes on.
    case sinkMoved(chosen: String, to: String, description: String, chosenGone: Bool)
    /// On the bell, a device worked again: the sound is back on it.
    case backFromBell(device: String)
    /// Every device failed and there is no bell: wake is silent, and tries the devices again
    /// every `retry` while the ring lasts. `reason`: each step's failure.
    case silent(reason: String, retry: Duration)
    /// While silent: a device step failed for a reason not reported before in this silence
    /// (each step's failure is said once; the count comes with `stillSilent` and `backFromSilent`).
    case silentStep(device: String, reason: String)
    /// While silent: `tries` device attempts have failed since the silence began.
    case stillSilent(tries: Int, for: Duration)
    /// While silent, a device worked again after `tries` failed attempts: sound is back on it.
    case backFromSilent(device: String, tries: Int, silentFor: Duration)
    /// A folder or list as the sound: `path` is the file this ring plays.
    case soundChosen(path: String)
    /// A folder or list as the sound: the file `path` failed (`reason`: missing, broken) and
    /// `next` is tried instead.
    case entryFailed(path: String, next: String, reason: String)
    /// A folder or list as the sound: none of its files plays (each failed, as the `entryFailed`
    /// and `fallback` before it say), so wake's built-in sound rings instead.
    case builtInChosen
}

/// The sound path as the runner sees it: start, stop, and events back. Never blocks.
public protocol SoundOutput: AnyObject {
    var onEvent: ((OutputEvent) -> Void)? { get set }
    func start(_ request: RingRequest)
    func stop()
    /// After the process was stopped (Ctrl-Z, then fg): the time it stood still is neither a
    /// stall nor audio owed.
    func resume()
    /// At exit: lets a stopping device finish its fade and close, for at most `limit`.
    func finish(within limit: Duration)
    /// The pre-roll, shortly before a deadline: opens the device `request` will ring on and
    /// decodes its first audio, so that a `start` with the same request only has to write.
    func prepare(_ request: RingRequest)
    /// The pre-rolled device is not needed (the alarm was cancelled or moved): closed again.
    func discardPrepared()
    /// What sounds now fades to silence over `span`, from the level it has (`wake sleep`'s key).
    func fadeNow(over span: Duration)
    /// The ring's own fade to silence (`RingRequest.fadeOut`) comes `span` later.
    func shiftFadeOut(by span: Duration)
}

extension SoundOutput {
    public func prepare(_ request: RingRequest) {}
    public func discardPrepared() {}
    public func fadeNow(over span: Duration) {}
    public func shiftFadeOut(by span: Duration) {}
}
