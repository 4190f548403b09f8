import WakeCore
import WakeSystem

/// How an alarm rings, checked: shared by a one-off alarm, `wake add` and the daemon, which
/// re-checks what it loads with the very same rules (`tolerating(stored:defaults:)`).
public struct RingSettings {
    public var soundPath: String?
    public var device: String
    public var volume: Int
    public var fadeIn: Duration
    public var engine: AlarmEngine.Settings
    /// The mixer guard: `--mixer auto` with `--min-volume`, or off.
    public var mixer: MixerPolicy
    /// `--message`: the note shown with the alarm, checked (`AlarmMessage`).
    public var message: String?
    /// Every option's text, keyed by long name without dashes (`sound` only when there is one):
    /// `wake add` stores those its command line gave.
    public var values: [String: String]

    /// Every ring option's text by long name without dashes (`volume`, `fade-in`, `sound`), as
    /// the command line or a file gave them; a key left out takes its built-in default.
    public init(values given: [String: String]) throws(ArmError) {
        func usage(_ m: String) -> ArmError { ArmError(message: m, status: ExitStatus.usage) }
        func duration(_ text: String, _ option: String) throws(ArmError) -> Duration {
            do { return try DurationText.parse(text) } catch { throw usage("--\(option): \(error.description)") }
        }
        let r = RingValues(given)
        soundPath = r.sound
        if let s = r.sound, s.isEmpty { throw usage("--sound: empty file name; give a sound file or leave the option out") }
        guard !r.device.isEmpty else { throw usage("--device: empty device name; try 'default', or see 'wake --list-devices'") }
        device = r.device
        guard let v = Int(r.volume), (0...100).contains(v), r.volume.allSatisfy(\.isNumber) else {
            throw usage("--volume: invalid value '\(r.volume.printable)'; give a whole number from 1 to 100")
        }
        // An alarm nobody can hear is refused now, not discovered at 07:00.
        guard v > 0 else { throw usage("--volume 0: the sound is silent; give a volume from 1 to 100") }
        volume = v
        fadeIn = try duration(r.fadeIn, "fade-in")
        let snooze = try duration(r.snooze, "snooze")
        guard snooze > .zero else { throw usage("--snooze: must be longer than zero, as 9m") }
        let ringFor = try duration(r.ringFor, "ring-for")
        let lateLimit = try duration(r.lateLimit, "late-limit")
        // Under a second, a ring may end before its first frame is heard and still count as
        // rung, and an alarm a moment late (a busy machine, a resume) is missed: both refused,
        // 0 keeping its meaning.
        if ringFor > .zero && ringFor < .seconds(1) {
            throw usage("--ring-for \(r.ringFor.printable) is shorter than a second: the alarm could end before it is heard; give 1s or more, or 0 to ring until stopped")
        }
        if lateLimit > .zero && lateLimit < .seconds(1) {
            throw usage("--late-limit \(r.lateLimit.printable) is shorter than a second: an alarm a moment late would be missed; give 1s or more, or 0 for no limit")
        }
        if ringFor > .zero && fadeIn > ringFor {
            throw usage("--fade-in \(r.fadeIn.printable) is longer than --ring-for \(r.ringFor.printable); shorten the fade or ring longer")
        }
        engine = AlarmEngine.Settings(lateLimit: lateLimit, snooze: snooze, ringFor: ringFor)
        guard let floor = Int(r.minVolume), (1...100).contains(floor), r.minVolume.allSatisfy(\.isNumber) else {
            throw usage("--min-volume: invalid value '\(r.minVolume.printable)'; give a whole number from 1 to 100 (percent)")
        }
        switch r.mixer {
        case "auto": mixer = .guardFloor(floor)
        case "off": mixer = .off
        default: throw usage("--mixer: invalid mode '\(r.mixer.printable)'; use auto (raise a muted or quiet output while ringing) or off")
        }
        var values = ["device": r.device, "volume": r.volume, "fade-in": r.fadeIn, "snooze": r.snooze, "ring-for": r.ringFor,
                      "late-limit": r.lateLimit, "min-volume": r.minVolume, "mixer": r.mixer]
        values["sound"] = r.sound
        if let m = given["message"] {
            if let why = AlarmMessage.problem(m) { throw usage("--message: \(why)") }
            message = m
            values["message"] = m
        }
        self.values = values
    }
}

/// The ring options' texts with the built-in defaults filled in.
private struct RingValues {
    public var sound: String?
    public var device: String
    public var volume: String
    public var fadeIn: String
    public var snooze: String
    public var ringFor: String
    public var lateLimit: String
    public var minVolume: String
    public var mixer: String

    public init(_ v: [String: String]) {
        sound = v["sound"]
        device = v["device"] ?? Defaults.device
        volume = v["volume"] ?? String(Defaults.volume)
        fadeIn = v["fade-in"] ?? DurationText.format(Defaults.fadeIn)
        snooze = v["snooze"] ?? DurationText.format(Defaults.snooze)
        ringFor = v["ring-for"] ?? DurationText.format(Defaults.ringFor)
        lateLimit = v["late-limit"] ?? DurationText.format(Defaults.lateLimit)
        minVolume = v["min-volume"] ?? String(Defaults.minVolume)
        mixer = v["mixer"] ?? "auto"
    }
}

/// What the command line asked for, checked: every value is known good before the alarm is armed.
public struct AlarmOptions {
    public var whenText: String
    public var spec: WakeSpec
    public var dryRun: Bool
    public var quiet: Bool
    public var ring: RingSettings
    public var eventsPath: String?
    public var unpaced: Bool
    public var inhibit: InhibitMode
    /// `--wake-system` (require), `--no-wake-system` (off), or neither (auto: the RTC wherever it works).
    public var wakeSystem: WakeSystemSupport.Mode
    public var notify: NotifyMode
    /// The config file read, and the options the command line gave: where each setting came from.
    public var config = ConfigDefaults()
    public var given: Set<String> = []

    /// ` (from the command line)`, ` (from PATH line 3)`, or nothing for built-in defaults.
    public func source(_ keys: [String]) -> String {
        let sources = keys.compactMap { config.source(of: $0, given: given) }
        return sources.isEmpty ? "" : " (" + Array(Set(sources)).sorted().joined(separator: "; ") + ")"
    }

    public enum InhibitMode: String, CaseIterable { case auto, require, off }
    public enum NotifyMode: String, CaseIterable { case auto, require, off }

    /// Checks what the command line gave: WHEN as its words (`7:30 pm` may come as two).
    public init(when words: [String], dryRun: Bool, quiet: Bool, ring: RingSettings, events: String?, unpaced: Bool,
                inhibit: String, wakeSystem: Bool, noWakeSystem: Bool = false, notify: String) throws(ArmError) {
        func usage(_ m: String) -> ArmError { ArmError(message: m, status: ExitStatus.usage) }
        guard !words.isEmpty else {
            throw usage("missing WHEN: say when to ring, as 'wake 07:00'; \(WakeSpec.acceptedForms)")
        }
        whenText = words.joined(separator: " ")
        do { spec = try WakeSpec(parsing: words) } catch { throw usage(error.description) }
        self.dryRun = dryRun
        self.quiet = quiet
        self.ring = ring
        if let e = events, e.isEmpty { throw usage("--events: empty path; give a file, or '-' for stdout") }
        eventsPath = events
        self.unpaced = unpaced
        self.inhibit = try AlarmOptions.inhibitMode(inhibit)
        self.wakeSystem = try WakeSystemPlan.mode(wakeSystem: wakeSystem, noWakeSystem: noWakeSystem)
        self.notify = try AlarmOptions.notifyMode(notify)
    }

    public static func inhibitMode(_ text: String) throws(ArmError) -> InhibitMode { try mode(text, option: "inhibit") }

    public static func notifyMode(_ text: String) throws(ArmError) -> NotifyMode { try mode(text, option: "notify") }

    /// `auto`, `require` or `off`, as `--OPTION` takes it.
    public static func mode<Mode: RawRepresentable & CaseIterable>(_ text: String, option: String) throws(ArmError) -> Mode where Mode.RawValue == String {
        guard let mode = Mode(rawValue: text) else {
            let names = Mode.allCases.map(\.rawValue)
            throw ArmError(message: "--\(option): invalid mode '\(text.printable)'; use \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")",
                           status: ExitStatus.usage)
        }
        return mode
    }
}
