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
    }

    /// The sound: `path` (or wake's own) decoded end to end, and audible at `volume`. `opened`
    /// is the file already decoded for `path` (the daemon's). `interrupt` is asked while a long
    /// file decodes: a signal ends the check.
    public static func sound(_ path: String?, volume: Int, mode: Mode, opened: SoundFile? = nil, interrupt: @escaping () -> Int32?,
                             builtIn: () throws(SoundFile.OpenError) -> SoundFile) throws(WakeFailure) -> Sound {
        var warning: String?
        var decoded: SoundFile?
        if let path {
            do {
                let file = try opened ?? SoundFile(path: path, interrupted: interrupt)
                decoded = file
                // Silent at the volume asked for (a quiet file at a low volume) is refused too.
                guard let why = file.silenceReason(volume: volume) else { return Sound(file: file, kind: .user, decoded: file) }
                // The volume is said once: Audibility's reason names it already where it is to blame.
                let problem = "cannot use sound file '\(file.path.printable)': \(why)" + (why.contains("--volume") ? "" : " at --volume \(volume)")
                guard case .daemon(let alarm) = mode else {
                    throw WakeFailure(.soundUnusable, problem + "; raise the volume or choose another file with --sound")
                }
                warning = "alarm '\(alarm.printable)': \(problem); it will ring wake's built-in sound"
            } catch let error as SoundFile.OpenError {
                if let signal = error.signal { throw WakeFailure.interrupted(by: signal, during: "reading the sound file", nothing: mode.nothing) }
                guard case .daemon(let alarm) = mode else {
                    throw WakeFailure(.soundUnusable, error.description + (error.libraryMissing ? "" : "; choose another file with --sound"))
                }
                // An alarm is never dropped for its sound.
                warning = "alarm '\(alarm.printable)': \(error.description); it will ring wake's built-in sound"
            } catch let error as WakeFailure {
                throw error
            } catch {
                throw WakeFailure(.soundUnusable, "\(error)")
            }
        }
        do {
            let file = try builtIn()
            return Sound(file: file, kind: .builtIn, decoded: decoded, warning: warning)
        } catch {
            if let signal = error.signal { throw WakeFailure.interrupted(by: signal, during: "reading the sound file", nothing: mode.nothing) }
            // A missing libsndfile already names the package to reinstall; no file is to blame.
            throw WakeFailure(.soundUnusable, error.description + (error.libraryMissing ? "" : "; reinstall wake"))
        }
    }

    /// `--say on`: `text` spoken now by espeak-ng, converted for each of `sounds` (the alarm's,
    /// and the built-in one it may fall back to), so the ring only copies samples. Without
    /// espeak-ng (or its data) a one-off and `wake add` are refused with the packages to install;
    /// the daemon says so (`warning`) and rings without speech.
    public static func speech(_ text: String, mode: Mode, sounds: [SoundFile]) throws(WakeFailure) -> (speech: RingSpeech?, warning: String?) {
        do {
            let speech = RingSpeech(try Speech.synthesize(text))
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
        do throws(SoundFile.OpenError) {
            let file: SoundFile
            if let opened { file = opened } else { file = try SoundFile(path: path, interrupted: interrupt) }
            guard let why = file.silenceReason(volume: volume) else { return (file, nil) }
            problem = "cannot use --pre-alarm-sound '\(file.path.printable)': \(why) at the pre-alarm's volume (\(volume) %)"
        } catch {
            if let signal = error.signal { throw WakeFailure.interrupted(by: signal, during: "reading the pre-alarm's sound file", nothing: mode.nothing) }
            problem = "--pre-alarm-sound: " + error.description
        }
        guard case .daemon(let alarm) = mode else {
            throw WakeFailure(.soundUnusable, problem + "; choose another file, or leave --pre-alarm-sound out to use the alarm's own sound")
        }
        return (nil, "alarm '\(alarm.printable)': \(problem); its pre-alarm rings the alarm's own sound")
    }
}
