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
    /// `--mpris`: whether the ringing alarm is a media player on the session bus, and what its
    /// Stop and Next do.
    public var mpris: MediaPlayerMode
    /// `--message`: the note shown with the alarm, checked (`AlarmMessage`).
    public var message: String?
    /// `--say on`: the message, or the time, spoken between loops of the sound (espeak-ng).
    public var say: Bool
    /// `--pre-alarm-sound`: the pre-alarm's own sound; nil for the alarm's.
    public var preAlarmSoundPath: String?
    /// Every option's text, keyed by long name without dashes (`sound` only when there is one):
    /// `wake add` stores those its command line gave.
    public var values: [String: String]

    /// Every ring option's text by long name without dashes (`volume`, `fade-in`, `sound`), as
    /// the command line or a file gave them; a key left out takes its built-in default. Each is
    /// checked by its description (`AlarmOption`), then the fade against the ring.
    public init(values given: [String: String]) throws(WakeFailure) {
        var texts: [String: String] = [:]
        var parsed: [String: AlarmOption.Value] = [:]
        for option in AlarmOption.all(.ring) {
            guard let text = given[option.name] ?? option.defaultText else { continue }
            switch option.parse(text) {
            case .success(let value): parsed[option.name] = value
            case .failure(let problem): throw WakeFailure(.usage, problem.message)
            }
            texts[option.name] = text
        }
        func duration(_ o: AlarmOption) -> Duration { parsed[o.name]?.duration ?? .zero }
        func number(_ o: AlarmOption) -> Int { parsed[o.name]?.number ?? 0 }
        soundPath = parsed[AlarmOption.sound.name]?.text
        device = parsed[AlarmOption.device.name]?.text ?? Defaults.device
        volume = number(.volume)
        fadeIn = duration(.fadeIn)
        let ringFor = duration(.ringFor)
        if ringFor > .zero && fadeIn > ringFor {
            throw WakeFailure(.usage, "--\(AlarmOption.fadeIn.name) \((texts[AlarmOption.fadeIn.name] ?? "").printable) is longer than --\(AlarmOption.ringFor.name) \((texts[AlarmOption.ringFor.name] ?? "").printable); "
                           + "shorten the fade or ring longer")
        }
        if let problem = Self.longSnoozeProblem(given) { throw WakeFailure(.usage, problem) }
        let snoozeLimit = number(.snoozeLimit)
        // Checked by its description above: a text that does not parse here never reaches this line.
        let preAlarm = parsed[AlarmOption.preAlarm.name]?.text.flatMap { text in
            if case .success(let pre) = PreAlarm.parse(text) { return pre } else { return nil }
        }
        engine = AlarmEngine.Settings(lateLimit: duration(.lateLimit), snooze: duration(.snooze), ringFor: ringFor,
                                      snoozeLimit: snoozeLimit > 0 ? snoozeLimit : nil, snoozeLong: parsed[AlarmOption.snoozeLong.name]?.duration,
                                      challenge: parsed[AlarmOption.challenge.name]?.text == "math",
                                      preAlarm: preAlarm)
        preAlarmSoundPath = parsed[AlarmOption.preAlarmSound.name]?.text
        mixer = parsed[AlarmOption.mixer.name]?.text == "off" ? .off : .guardFloor(number(.minVolume))
        message = parsed[AlarmOption.message.name]?.text
        mpris = MediaPlayerMode(rawValue: parsed[AlarmOption.mpris.name]?.text ?? "") ?? .on
        say = parsed[AlarmOption.say.name]?.text == "on"
        values = texts
    }
}

extension RingSettings {
    /// A long snooze shorter than the snooze (`--snooze-long 5m` with `--snooze 10m`), which each
    /// value alone does not show: the line that says so, or nil. `values` as `init(values:)`
    /// takes them (a key left out is its built-in default). The daemon and the config file's
    /// tolerant read set the long snooze aside on it; everyone else refuses.
    public static func longSnoozeProblem(_ values: [String: String]) -> String? {
        func duration(_ o: AlarmOption) -> (text: String, value: Duration)? {
            guard let text = values[o.name] ?? o.defaultText, case .success(let v) = o.parse(text), let d = v.duration else { return nil }
            return (text, d)
        }
        guard let long = duration(.snoozeLong), let snooze = duration(.snooze), long.value < snooze.value else { return nil }
        return "\(AlarmOption.snoozeLong.flag) \(long.text.printable) is shorter than \(AlarmOption.snooze.flag) \(snooze.text.printable); "
            + "give a long snooze at least as long, or leave it out (it is then twice the snooze, at most 12h)"
    }

    /// The ring options a front end gave (`values`, by long name; `given`: the flags it gave,
    /// `--volume`), with config.toml's values under those it did not give, checked: the command
    /// line's `wake add` and the D-Bus API's Add read their options through this one path.
    public init(layering values: [String: String], under config: ConfigDefaults, given: Set<String>) throws(WakeFailure) {
        var layered = values
        for option in AlarmOption.all(.ring) {
            layered[option.name] = config.layered(option, over: layered[option.name], given: given)
        }
        try self.init(values: layered)
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
                inhibit: String, wakeSystem: Bool, noWakeSystem: Bool = false, notify: String) throws(WakeFailure) {
        func usage(_ m: String) -> WakeFailure { WakeFailure(.usage, m) }
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

    public static func inhibitMode(_ text: String) throws(WakeFailure) -> InhibitMode { try mode(text, option: "inhibit") }

    public static func notifyMode(_ text: String) throws(WakeFailure) -> NotifyMode { try mode(text, option: "notify") }

    /// `auto`, `require` or `off`, as `--OPTION` takes it.
    public static func mode<Mode: RawRepresentable & CaseIterable>(_ text: String, option: String) throws(WakeFailure) -> Mode where Mode.RawValue == String {
        guard let mode = Mode(rawValue: text) else {
            let names = Mode.allCases.map(\.rawValue)
            throw WakeFailure(.usage, "--\(option): invalid mode '\(text.printable)'; use \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")")
        }
        return mode
    }
}
