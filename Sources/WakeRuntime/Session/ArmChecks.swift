import WakeCore
import WakeEngine
import WakeSystem

/// The checks an alarm gets before it is trusted with a morning, written once for the three
/// ways an alarm is set: a one-off (`wake WHEN`), `wake add`, and the daemon loading a standing
/// alarm. The mode decides only what a failure does: a one-off and `wake add` refuse, with one
/// line and the failure's kind (a person is there to fix it); the daemon, which nobody watches,
/// says so and rings with what it can.
///
/// The daemon checks the sound when it loads an alarm, not the device: a probe blocks for up to
/// the stall limit behind a hung sound server, and the daemon's loop must not; at ring time the
/// fallback chain tries the device, the other devices and the bell, and says so.
public enum ArmChecks {
    public enum Mode: Sendable, Equatable {
        case oneOff
        case add
        /// The daemon loading the standing alarm called so.
        case daemon(alarm: String)

        /// What a signal during a check leaves: "set", "added".
        var nothing: String { self == .add ? "added" : "set" }
    }

    /// The sound an alarm rings.
    public struct Sound {
        public var file: SoundFile
        public var kind: FallbackChain.Sound
        /// The user's file when it decoded, even if it is not what rings (silent at this
        /// alarm's volume): the daemon keeps it open for its other alarms.
        public var decoded: SoundFile?
        /// Said in the daemon's mode when it rings something else than asked.
        public var warning: String?
        /// A folder or list as the sound: its files that passed the checks (the daemon's: that
        /// exist; a one-off's and `wake add`'s: that decode and are audible), in its order.
        /// `file` is then the first of them (the daemon's: wake's own, nothing is decoded).
        public var entries: [String] = []
        /// One warning per entry refused: said, and the alarm rings the others.
        public var warnings: [String] = []
        /// The folder or list as read, for the dry run.
        public var collection: SoundCollection?
        /// Entries refused by the decode and audibility checks.
        public var refused: [String] = []
    }

    /// The sound: `path` (or wake's own) decoded end to end, and audible at `volume`. `opened`
    /// is the file already decoded for `path` (the daemon's). `interrupt` is asked while a long
    /// file decodes: a signal ends the check.
    /// `progress`: told once, when checking a folder's or list's files has taken over 2 s, what is going on.
    public static func sound(_ path: String?, volume: Int, mode: Mode, opened: SoundFile? = nil, interrupt: @escaping () -> Int32?,
                             progress: ((String) -> Void)? = nil,
                             builtIn: () throws(SoundFile.OpenError) -> SoundFile) throws(WakeFailure) -> Sound {
        var warning: String?
        var decoded: SoundFile?
        if let path {
            do {
                if let collection = try SoundCollection.read(path) {
                    return try list(collection, volume: volume, mode: mode, interrupt: interrupt, progress: progress, builtIn: builtIn)
                }
            } catch let error as FileOpenError {
                let problem = "cannot read the sound list \(error.description)"
                guard case .daemon(let alarm) = mode else { throw WakeFailure(.soundUnusable, problem + "; choose another list with --sound") }
                warning = "alarm '\(alarm.printable)': \(problem); it will ring wake's built-in sound"
                return try ringBuiltIn(builtIn, decoded: nil, warning: warning, mode: mode)
            } catch let error as WakeFailure {
                throw error
            } catch {
                throw WakeFailure(.soundUnusable, "\(error)")
            }
            switch try fileCheck(path, volume: volume, opened: opened, interrupt: interrupt, mode: mode, during: "reading the sound file") {
            case .usable(let file):
                return Sound(file: file, kind: .user, decoded: file)
            case .silent(let file, let why):
                decoded = file
                let problem = localized("cannot use sound file '{file}': {reason}", file.path.printable, why)
                guard case .daemon(let alarm) = mode else {
                    throw WakeFailure(.soundUnusable, problem + "; raise the volume or choose another file with --sound")
                }
                warning = "alarm '\(alarm.printable)': \(problem); it will ring wake's built-in sound"
            case .unreadable(let error):
                guard case .daemon(let alarm) = mode else {
                    throw WakeFailure(.soundUnusable, error.description + (error.libraryMissing ? "" : "; choose another file with --sound"))
                }
                // An alarm is never dropped for its sound.
                warning = "alarm '\(alarm.printable)': \(error.description); it will ring wake's built-in sound"
            }
        }
        return try ringBuiltIn(builtIn, decoded: decoded, warning: warning, mode: mode)
    }

    /// What one file is: decoded end to end (or `opened`, decoded already) and audible at
    /// `volume`, or why not. Silent at the volume asked for (a quiet file at a low volume) counts
    /// as unusable too. A signal during the decode ends the check (thrown).
    enum FileCheck {
        case usable(SoundFile)
        /// `why` names the volume once (Audibility's reason names it already where it is to blame).
        case silent(SoundFile, why: String)
        case unreadable(SoundFile.OpenError)
    }

    static func fileCheck(_ path: String, volume: Int, opened: SoundFile? = nil, interrupt: @escaping () -> Int32?, mode: Mode,
                          during: String) throws(WakeFailure) -> FileCheck {
        let file: SoundFile
        do throws(SoundFile.OpenError) {
            if let opened { file = opened } else { file = try SoundFile(path: path, interrupted: interrupt) }
        } catch {
            if let signal = error.signal { throw WakeFailure.interrupted(by: signal, during: during, nothing: mode.nothing) }
            return .unreadable(error)
        }
        guard let why = file.silenceReason(volume: volume) else { return .usable(file) }
        return .silent(file, why: why.contains("--volume") ? why : why + " at --volume \(volume)")
    }

    private static func ringBuiltIn(_ builtIn: () throws(SoundFile.OpenError) -> SoundFile, decoded: SoundFile?, warning: String?,
                                    mode: Mode) throws(WakeFailure) -> Sound {
        do {
            let file = try builtIn()
            return Sound(file: file, kind: .builtIn, decoded: decoded, warning: warning)
        } catch {
            if let signal = error.signal { throw WakeFailure.interrupted(by: signal, during: "reading the sound file", nothing: mode.nothing) }
            // A missing libsndfile already names the package to reinstall; no file is to blame.
            throw WakeFailure(.soundUnusable, error.description + (error.libraryMissing ? "" : "; reinstall wake"))
        }
    }

    /// A folder or list as the sound. A one-off and `wake add` decode every file and check that
    /// it is audible (each then closed, the first kept for the device check): one warning per
    /// file refused, and refused only when none is left. The daemon only lists them (its reload
    /// must stay fast): a file that fails at ring time gives way to the next, then to wake's own
    /// sound. A folder or list with nothing in it is refused, or in the daemon rings wake's own sound.
    private static func list(_ collection: SoundCollection, volume: Int, mode: Mode, interrupt: @escaping () -> Int32?,
                             progress: ((String) -> Void)?, builtIn: () throws(SoundFile.OpenError) -> SoundFile) throws(WakeFailure) -> Sound {
        let what = "sound \(collection.described)"
        let problems = (collection.problems.map { $0 + "; it is left out" } + SoundList.missingLines(collection.missing))
            .map { "\(what): \($0)" }
        guard case .daemon(let alarm) = mode else {
            var warnings = problems.map { "warning: " + $0 }
            var good: [String] = []
            var refused: [String] = []
            var reasons: [String] = []
            var first: SoundFile?
            let started = SystemClock.monotonic
            var said = false
            for (done, entry) in collection.entries.enumerated() {
                if !said, let progress, SystemClock.monotonic - started > .seconds(2) {
                    said = true
                    progress("checking the \(collection.entries.count) files of the \(collection.described) (\(done) done); Ctrl-C ends it")
                }
                switch try fileCheck(entry, volume: volume, interrupt: interrupt, mode: mode, during: "reading the sound files") {
                case .usable(let file):
                    good.append(entry)
                    if first == nil { first = file }
                case .silent(_, let why):
                    warnings.append("warning: \(what): cannot use sound file '\(entry.printable)': \(why); it is left out")
                    refused.append(entry)
                    reasons.append("'\(entry.printable)': \(why)")
                case .unreadable(let error):
                    if error.libraryMissing { throw WakeFailure(.soundUnusable, error.description) }
                    warnings.append("warning: \(what): \(error.description); it is left out")
                    refused.append(entry)
                    reasons.append("'\(entry.printable)': \(error.reason)")
                }
            }
            guard let first else {
                let reason = collection.entries.isEmpty ? collection.emptyReason
                    : "no file of the \(collection.described) can be used (" + reasons.joined(separator: "; ") + ")"
                throw WakeFailure(.soundUnusable, reason + "; choose another folder, list or file with --sound")
            }
            return Sound(file: first, kind: .user, decoded: nil, warning: nil, entries: good, warnings: warnings, collection: collection,
                         refused: refused)
        }
        let named = "alarm '\(alarm.printable)': "
        let warnings = problems.map { named + $0 }
        guard !collection.entries.isEmpty else {
            var sound = try ringBuiltIn(builtIn, decoded: nil, warning: named + collection.emptyReason + "; it will ring wake's built-in sound",
                                        mode: mode)
            sound.warnings = warnings
            sound.collection = collection
            return sound
        }
        var sound = try ringBuiltIn(builtIn, decoded: nil, warning: nil, mode: mode)
        sound.kind = .user
        sound.entries = collection.entries
        sound.warnings = warnings
        sound.collection = collection
        return sound
    }

    /// `--say on`: `text` spoken now by espeak-ng, converted for each of `sounds` (the alarm's,
    /// and the built-in one it may fall back to), so the ring only copies samples. Without
    /// espeak-ng (or its data) a one-off and `wake add` are refused with the packages to install;
    /// the daemon says so (`warning`) and rings without speech. `synthesize`: espeak-ng, or a
    /// test's stand-in.
    public static func speech(_ text: String, mode: Mode, sounds: [SoundFile],
                              synthesize: (String) throws(Speech.Failure) -> SpeechClip = Speech.synthesize)
        throws(WakeFailure) -> (speech: RingSpeech?, warning: String?) {
        do {
            let speech = RingSpeech(try synthesize(text))
            speech.prepare(for: sounds)
            return (speech, nil)
        } catch {
            let problem = "cannot speak (--say on): \(error.reason)"
            guard case .daemon(let alarm) = mode else {
                throw WakeFailure(.unavailable, problem + "; install it: \(Speech.aptLine), or give --say off")
            }
            return (nil, "alarm '\(alarm.printable)': \(problem); it rings without speech (install it: \(Speech.aptLine), then restart the daemon)")
        }
    }
}

extension ArmChecks {
    /// `--pre-alarm-sound`, decoded end to end and audible at the pre-alarm's `volume`, as the
    /// alarm's own sound is. A one-off and `wake add` refuse one that is not; the daemon says so
    /// (the returned warning) and its pre-alarm rings the alarm's own sound (no file).
    public static func preAlarmSound(_ path: String?, volume: Int, mode: Mode, opened: SoundFile? = nil,
                                     interrupt: @escaping () -> Int32?) throws(WakeFailure) -> (file: SoundFile?, warning: String?) {
        guard let path else { return (nil, nil) }
        let problem: String
        switch try fileCheck(path, volume: volume, opened: opened, interrupt: interrupt, mode: mode, during: "reading the pre-alarm's sound file") {
        case .usable(let file):
            return (file, nil)
        case .silent(let file, let why):
            // The volume to blame is the pre-alarm's, not --volume.
            let volumeText = "the pre-alarm's volume (\(volume) %)"
            problem = "cannot use --pre-alarm-sound '\(file.path.printable)': " + why.replacing("--volume \(volume)", with: volumeText)
        case .unreadable(let error):
            problem = "--pre-alarm-sound: " + error.description
        }
        guard case .daemon(let alarm) = mode else {
            throw WakeFailure(.soundUnusable, problem + "; choose another file, or leave --pre-alarm-sound out to use the alarm's own sound")
        }
        return (nil, "alarm '\(alarm.printable)': \(problem); its pre-alarm rings the alarm's own sound")
    }
}

extension ArmChecks {
    /// `--sink`: the sink its text names (by name or description) among the sound server's, and
    /// the settings with it given by name (what `wake add` stores and the ring opens). A one-off
    /// and `wake add` refuse a sink the server does not have (with the ones it has), a server
    /// that cannot be asked, and `--sink` beside another `--device`; the daemon's mode (the
    /// doctor's look) says so and rings where it can: on the sink by that name if it comes back,
    /// else on the server's default sink. `list`: the server's sinks (a test's stand-in).
    public static func sink(_ settings: RingSettings, mode: Mode,
                            list: () throws(SoundServerStream.Failure) -> [SinkChoice.Listed] = SoundServerStream.sinks)
        throws(WakeFailure) -> (settings: RingSettings, sink: SinkChoice.Listed?, warning: String?) {
        guard let text = settings.sink else { return (settings, nil, nil) }
        let daemonAlarm: String? = if case .daemon(let alarm) = mode { alarm } else { nil }
        if daemonAlarm == nil, settings.pcmDevice != Defaults.device {
            throw WakeFailure(.usage, "--sink '\(text.printable)' and --device '\(settings.pcmDevice.printable)' both say where to ring "
                + "(--sink rings on a sound server's sink); leave one of them out")
        }
        let sinks: [SinkChoice.Listed]
        do { sinks = try list() } catch {
            let problem = "--sink '\(text.printable)': \(error.description)"
            guard let alarm = daemonAlarm else {
                throw WakeFailure(.unavailable, problem + "; start the sound server (PulseAudio or PipeWire), or leave --sink out")
            }
            return (settings, nil, "alarm '\(alarm.printable)': \(problem); at ring time it tries the sink, then the default device")
        }
        // `all`: every sink there is at ring time, combined by the server; it must have one now.
        if text == SinkChoice.all {
            guard sinks.isEmpty else { return (settings, nil, nil) }
            let problem = "--sink all: the sound server has no sink"
            guard let alarm = daemonAlarm else { throw WakeFailure(.unavailable, problem + "; connect an output, or leave --sink out") }
            return (settings, nil, "alarm '\(alarm.printable)': \(problem); it rings on the default device")
        }
        guard let found = SinkChoice.resolve(text, among: sinks) else {
            let problem = SinkChoice.missing(text, among: sinks)
            guard let alarm = daemonAlarm else { throw WakeFailure(.unavailable, problem) }
            return (settings, nil, "alarm '\(alarm.printable)': \(problem.replacing("; give one of them by name or description", with: ""))"
                + "; it rings on the server's default sink until that sink is back")
        }
        return (settings.choosingSink(found.name), found, nil)
    }
}
