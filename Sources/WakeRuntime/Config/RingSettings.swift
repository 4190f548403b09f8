import WakeCore
import WakeEngine
import WakeSystem

/// How an alarm rings, checked: shared by a one-off alarm, `wake add`, `wake test` and the
/// daemon, which re-checks what it loads with the very same rules (`tolerating(stored:defaults:)`).
///
/// It holds each ring option's checked value under its name, as the option table
/// (`AlarmOption`) parsed it, and no field of its own per option: a new row in the table is
/// held, stored, shown (`lines`) and handed to `wake test` with no edit here. The properties
/// below are what several callers make of those values (the engine's settings, the mixer
/// policy), read from the same store.
public struct RingSettings {
    /// The options whose text is not the built-in default's, checked, and their texts; the rest
    /// are `builtIn`'s. Only these are held: the daemon keeps the settings of every set of
    /// options its alarms have, and a full table of a few dozen values each came to kilobytes an
    /// alarm, most of it the same defaults again.
    private let own: [String: AlarmOption.Value]
    private let ownTexts: [String: String]

    /// Every ring option's built-in value, checked once, and its text.
    private static let builtIn: (checked: [String: AlarmOption.Value], texts: [String: String]) = {
        var checked: [String: AlarmOption.Value] = [:], texts: [String: String] = [:]
        for option in AlarmOption.all(.ring) {
            guard let text = option.defaultText, case .success(let value) = option.parse(text) else { continue }
            (checked[option.name], texts[option.name]) = (value, text)
        }
        return (checked, texts)
    }()

    /// Every ring option's checked value by long name; one unset without a default is absent.
    public var checked: [String: AlarmOption.Value] { Self.builtIn.checked.merging(own) { $1 } }
    /// Every option's text, keyed by long name without dashes (`sound` only when there is one):
    /// `wake add` stores those its command line gave.
    public var values: [String: String] { Self.builtIn.texts.merging(ownTexts) { $1 } }

    /// Every ring option's text by long name without dashes (`volume`, `fade-in`, `sound`), as
    /// the command line or a file gave them; a key left out takes its built-in default. Each is
    /// checked by its description (`AlarmOption`), then the fade against the ring.
    public init(values given: [String: String]) throws(WakeFailure) {
        var texts: [String: String] = [:]
        var parsed: [String: AlarmOption.Value] = [:]
        for option in AlarmOption.all(.ring) {
            guard let text = given[option.name], text != option.defaultText else { continue }
            switch option.parse(text) {
            case .success(let value): parsed[option.name] = value
            case .failure(let problem): throw WakeFailure(.usage, problem.message)
            }
            texts[option.name] = text
        }
        own = parsed
        ownTexts = texts
        let (fade, ring) = (AlarmOption.fadeIn, AlarmOption.ringFor)
        // The ring's length alone, not the whole `engine`, which reads every option again.
        let ringFor = duration(ring) ?? .zero
        if ringFor > .zero && fadeIn > ringFor {
            let values = self.values
            throw WakeFailure(.usage, "\(fade.flag) \((values[fade.name] ?? "").printable) is longer than "
                           + "\(ring.flag) \((values[ring.name] ?? "").printable); shorten the fade or ring longer")
        }
        if let problem = Self.longSnoozeProblem(given) { throw WakeFailure(.usage, problem) }
    }

    /// An option's checked value; nil when it is unset and has no default.
    public subscript(option: AlarmOption) -> AlarmOption.Value? { own[option.name] ?? Self.builtIn.checked[option.name] }
    public func text(_ option: AlarmOption) -> String? { self[option]?.text }
    public func number(_ option: AlarmOption) -> Int? { self[option]?.number }
    public func duration(_ option: AlarmOption) -> Duration? { self[option]?.duration }

    /// Each ring option and its value in words, in the table's order: the dry run's and
    /// `wake test`'s lines for options with no line of their own.
    public var lines: [(option: AlarmOption, text: String)] {
        AlarmOption.all(.ring).map { ($0, $0.describe(self[$0])) }
    }

    public var soundPath: String? { text(.sound) }
    /// The ALSA PCM the ring opens: the sink's (`--sink`, through ALSA's pulse PCM) when the alarm
    /// chose one, else `--device`.
    public var device: String {
        // `all`: checked on the default sink; the ring's combined sink exists only while it rings.
        if sink == SinkChoice.all { return "pulse" }
        if let sink, let pcm = SinkChoice.pcm(sink) { return pcm }
        return pcmDevice
    }
    /// `--device` as given (or its default), whatever `--sink` says.
    public var pcmDevice: String { text(.device) ?? Defaults.device }
    /// `--sink`: the sound server's sink the alarm rings on, by name once checked (`ArmChecks.sink`).
    public var sink: String? { text(.sink) }

    /// These settings with `--sink` given as `name`: the name of the sink the given description
    /// or name was found to be (what `wake add` stores, and what the ring opens).
    public func choosingSink(_ name: String) -> RingSettings {
        var texts = ownTexts, parsed = own
        texts[AlarmOption.sink.name] = name
        parsed[AlarmOption.sink.name] = .text(name)
        return RingSettings(own: parsed, texts: texts)
    }

    private init(own: [String: AlarmOption.Value], texts: [String: String]) {
        self.own = own
        ownTexts = texts
    }
    public var volume: Int { number(.volume) ?? Defaults.volume }
    public var fadeIn: Duration { duration(.fadeIn) ?? .zero }
    /// The mixer guard: `--mixer auto` with `--min-volume`, or off.
    public var mixer: MixerPolicy { text(.mixer) == "off" ? .off : .guardFloor(number(.minVolume) ?? Defaults.minVolume) }
    /// `--mpris`: whether the ringing alarm is a media player on the session bus, and what its
    /// Stop and Next do.
    public var mpris: MediaPlayerMode { MediaPlayerMode(rawValue: text(.mpris) ?? "") ?? .on }
    /// `--message`: the note shown with the alarm, checked (`AlarmMessage`).
    public var message: String? { text(.message) }
    /// `--say on`: the message, or the time, spoken between loops of the sound (espeak-ng).
    public var say: Bool { text(.say) == "on" }
    /// `--hook`s (checked by the table, so each parses) and `--hook-timeout`: what `HookDispatcher` asks.
    public var hooks: (commands: [HookCommand], timeout: Duration) {
        let commands = text(.hook).map { AlarmOption.list($0).compactMap { try? HookCommand.parse($0).get() } } ?? []
        return (commands, duration(.hookTimeout) ?? Defaults.hookTimeout)
    }
    /// `--light`: the screen's sunrise and flash; nil for none (checked by the table, so it parses).
    public var light: LightPlan? { text(.light).flatMap { try? LightPlan.parse($0).get() } }
    /// `--pre-alarm-sound`: the pre-alarm's own sound; nil for the alarm's.
    public var preAlarmSoundPath: String? { text(.preAlarmSound) }

    /// The engine's late limit and snooze limit alone: `wake list` asks for them per alarm, and
    /// building the whole `engine` for each was a tenth of its rows' cost.
    public var lateLimit: Duration { duration(.lateLimit) ?? .zero }
    public var snoozeLimit: Int? { number(.snoozeLimit).flatMap { $0 > 0 ? $0 : nil } }

    /// A one-off's engine: its waits, snoozes, limits and pre-alarm.
    public var engine: AlarmEngine.Settings { engine(standing: false) }

    /// What a ring nobody answers leads to; unset, `--unattended` is a one-off's or a standing
    /// alarm's default (`standing`: the daemon's).
    public func unattended(standing: Bool) -> Unattended {
        let unset = standing ? Unattended.standingMode : Unattended.oneOffMode
        let mode = text(.unattended).flatMap(Unattended.Mode.init(rawValue:)) ?? unset
        return Unattended(mode: mode, rounds: number(.unattendedRounds) ?? Unattended.defaultRounds, escalate: text(.escalate) == "on")
    }

    /// The alarm's engine; `standing`: the daemon's, whose unset `--unattended` snoozes.
    public func engine(standing: Bool) -> AlarmEngine.Settings {
        // Checked by its description: a text that does not parse never reaches the store.
        let preAlarm = text(.preAlarm).flatMap { text in
            if case .success(let pre) = PreAlarm.parse(text) { return pre } else { return nil }
        }
        return AlarmEngine.Settings(lateLimit: lateLimit, snooze: duration(.snooze) ?? Defaults.snooze,
                                    ringFor: duration(.ringFor) ?? .zero, snoozeLimit: snoozeLimit,
                                    snoozeLong: duration(.snoozeLong), challenge: text(.challenge) == "math", preAlarm: preAlarm,
                                    unattended: unattended(standing: standing), checkUp: duration(.checkUp) ?? .zero)
    }

    /// What the output plays for this alarm: the sound checked at arm time (`sound`, `kind`,
    /// a list's `entries`), on the alarm's device, at its volume and fade, under its mixer
    /// policy; after a snooze at `--snooze-volume`. Every ring (a one-off, the daemon's,
    /// `wake test`'s) is made here, so an option the output acts on reaches all of them.
    public func request(sound: SoundFile, kind: FallbackChain.Sound, unpaced: Bool = false, speech: RingSpeech? = nil,
                        entries: [String] = []) -> RingRequest {
        var r = RingRequest(sound: sound, soundKind: kind, device: device, volume: volume, fadeIn: fadeIn, unpaced: unpaced, mixer: mixer,
                            speech: speech, entries: entries)
        r.snoozeVolume = number(.snoozeVolume)
        if let sink, let pcm = SinkChoice.pcm(choice: sink) {
            r.sink = sink
            r.device = pcm
        }
        return r
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
        // Where to ring is one choice: a --device or --sink given here outweighs the other from config.toml.
        let (device, sink) = (AlarmOption.device, AlarmOption.sink)
        if given.contains(device.flag), !given.contains(sink.flag) { layered[sink.name] = nil }
        if given.contains(sink.flag), !given.contains(device.flag) { layered[device.name] = nil }
        try self.init(values: layered)
    }
}
