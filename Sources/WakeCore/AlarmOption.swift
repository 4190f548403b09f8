/// One option of an alarm, described once: its name, what values it takes, its default, its
/// help, and where it may be given. The command line's declarations, the config file's keys,
/// alarms.toml's keys and the checks of every value are read from here (and the manual and the
/// completions are checked against it by tests), so an option added here is known everywhere.
public struct AlarmOption: Sendable, Hashable {
    /// Where an option may be given.
    public struct Scope: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// How an alarm rings: `wake WHEN` and `wake add` take it.
        public static let ring = Scope(rawValue: 1)
        /// A key of a standing alarm in alarms.toml (what `wake add` stores).
        public static let stored = Scope(rawValue: 2)
        /// A key of config.toml, under the command line.
        public static let config = Scope(rawValue: 4)
        /// `wake WHEN`'s, for the process rather than the ring (`--inhibit`).
        public static let oneOff = Scope(rawValue: 8)
        /// `wake daemon`'s.
        public static let daemon = Scope(rawValue: 16)
        /// `wake add`'s, for which days a standing alarm rings (`--skip-days`): a one-off names
        /// its own moment and has no days to pass over.
        public static let schedule = Scope(rawValue: 32)
    }

    /// What a value is, and so how it is checked.
    public enum Kind: Sendable, Hashable {
        /// A file name: not empty.
        case file
        /// An ALSA PCM name: not empty.
        case device
        /// A sound server's sink, by name or description (`SinkChoice`): not empty, one line.
        case sink
        /// A whole number of percent, 1 to 100 (0 is refused: an alarm nobody hears).
        case percent
        /// A duration (`DurationText`). `minimum`: the least a non-zero value may be; `zero`:
        /// what 0 means, or nil when 0 is refused; `maximum`: the most it may be, if anything
        /// (`SnoozeLength.longest` for a snooze).
        case duration(minimum: Duration, zero: String?, maximum: Duration? = nil)
        /// One word of a list.
        case choice([String])
        /// A note for the alarm (`AlarmMessage`).
        case message
        /// A whole number in a range.
        case count(ClosedRange<Int>)
        /// One or more file names: repeatable on the command line, an array in either file, and
        /// one text with the names on lines of their own (`listSeparator`) in between.
        case files
        /// `--pre-alarm`'s `DURATION[,PERCENT]` (`PreAlarm`); 0 for none.
        case preAlarm
        /// One or more `EVENT=COMMAND` (`HookCommand`): repeatable as `files` is, held the same way.
        case hooks
        /// A number of days in a range, as `3d` (`--every`).
        case days(ClosedRange<Int>)
        /// A local date, `2026-12-07`, or a day word as WHEN takes it (`tomorrow`, `mon`, `dec 24`).
        case date
        /// A name as an alarm's (`StandingAlarm.isValidName`): `--group`.
        case name
        /// `--light`'s `sunrise[:SPAN]`, `flash`, both, or `off` (`LightPlan`).
        case light

        /// Whether the option is given once per value (repeatable, an array in the files).
        public var isList: Bool { self == .files || self == .hooks }
    }

    /// What joins the names of a `files` option in its one text: a newline, which no name given
    /// to it may hold.
    public static let listSeparator: Character = "\n"

    /// The names in a `files` option's text.
    public static func list(_ text: String) -> [String] {
        text.split(separator: listSeparator, omittingEmptySubsequences: true).map(String.init)
    }

    /// A value, checked.
    public enum Value: Sendable, Hashable {
        case text(String)
        case number(Int)
        case duration(Duration)

        public var text: String? { if case .text(let t) = self { return t } else { return nil } }
        public var number: Int? { if case .number(let n) = self { return n } else { return nil } }
        public var duration: Duration? { if case .duration(let d) = self { return d } else { return nil } }
    }

    /// The long name without dashes (`ring-for`): also the key in both files.
    public let name: String
    /// The short option (`-s`), if any.
    public let short: Character?
    public let kind: Kind
    /// The built-in value as text, or nil when unset means "none" (`--sound`: the built-in sound).
    public let defaultText: String?
    /// What an option without a default text does when unset (`the alarm's --volume`), for the
    /// dry run, `wake test` and the generated reference; nil: none.
    public let unset: String?
    /// One line for `--help`.
    public let help: String
    /// `wake daemon --help`'s line, where the daemon does something else with it.
    public let daemonHelp: String?
    public let scope: Scope
    /// Finishes a problem with this option's own advice (`--volume 0`), given the value's text and
    /// the generic problem; nil keeps the generic one.
    private let explain: (@Sendable (String) -> String?)?

    init(_ name: String, short: Character? = nil, _ kind: Kind, default defaultText: String?, unset: String? = nil, scope: Scope,
         help: String, daemonHelp: String? = nil, explain: (@Sendable (String) -> String?)? = nil) {
        self.name = name
        self.unset = unset
        self.daemonHelp = daemonHelp
        self.short = short
        self.kind = kind
        self.defaultText = defaultText
        self.help = help
        self.scope = scope
        self.explain = explain
    }

    public static func == (a: AlarmOption, b: AlarmOption) -> Bool { a.name == b.name }
    public func hash(into h: inout Hasher) { h.combine(name) }

    /// `--ring-for`
    public var flag: String { "--" + name }

    /// The words a choice takes (none for other kinds): for the completions.
    public var words: [String] { if case .choice(let w) = kind { return w } else { return [] } }

    /// What a value must be, for a message about one that is not one at all (`-5` taken for an
    /// option): `a whole number from 1 to 100`.
    public var expects: String {
        switch kind {
        case .file: return "a file name"
        case .files: return "one or more file names"
        case .device: return "a device name, as 'default'"
        case .sink: return "a sink's name or description, as 'pactl list sinks' shows it"
        case .percent: return "a whole number from 1 to 100"
        case .count(let range): return "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .duration(_, _, let maximum?): return "a duration up to \(DurationText.format(maximum)), as 9m"
        case .duration: return "a duration from zero up, as 9m"
        case .choice(let words): return words.count > 1 ? "\(words.dropLast().joined(separator: ", ")) or \(words.last ?? "")" : words.joined()
        case .message: return "a note of at most \(AlarmMessage.limit) characters"
        case .preAlarm: return "a duration and an optional percent, as 10m or 10m,25"
        case .hooks: return "an event and a command, as ringing=\"playerctl pause\""
        case .days(let range): return "a number of days from \(range.lowerBound) to \(range.upperBound), as 3d"
        case .date: return "a date, as 2026-12-07, tomorrow, mon or dec 24"
        case .name: return "a name of a-z, 0-9, _ and -, as 'school'"
        case .light: return "sunrise, sunrise:SPAN, flash or sunrise:SPAN,flash, as sunrise:20m"
        }
    }

    /// The value `text` stands for, or the one line saying why it cannot, starting with the option.
    public func parse(_ text: String) -> Result<Value, Problem> {
        // An option config.toml alone takes is named as its key: there is no flag to give.
        let said = scope == [.config] ? name : flag
        func fail(_ reason: String) -> Result<Value, Problem> { .failure(Problem(option: name, message: "\(said)\(reason)")) }
        if let special = explain?(text) { return fail(special) }
        switch kind {
        case .file:
            return text.isEmpty ? fail(": empty file name; give a sound file or leave the option out") : .success(.text(text))
        case .files:
            let names = text.split(separator: Self.listSeparator, omittingEmptySubsequences: false)
            if names.contains(where: \.isEmpty) { return fail(": empty file name; give a file or leave the option out") }
            return .success(.text(text))
        case .device:
            return text.isEmpty ? fail(": empty device name; try 'default', or see 'wake --list-devices'") : .success(.text(text))
        case .sink:
            if let why = SinkChoice.problem(text) { return fail(": \(why)") }
            return .success(.text(text))
        case .percent:
            guard let v = Int(text), (1...100).contains(v), text.allSatisfy(\.isNumber) else {
                return fail(": invalid value '\(text.printable)'; give a whole number from 1 to 100")
            }
            return .success(.number(v))
        case .count(let range):
            guard let v = Int(text), range.contains(v), text.allSatisfy(\.isNumber) else {
                return fail(": invalid value '\(text.printable)'; give a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return .success(.number(v))
        case .duration(let minimum, let zero, let maximum):
            let d: Duration
            do { d = try DurationText.parse(text) } catch { return fail(": \(error.description)") }
            if d == .zero {
                return zero == nil ? fail(": must be longer than zero, as \(defaultText ?? "9m")") : .success(.duration(d))
            }
            if d < minimum {
                let span = Formatting.span(minimum)
                return fail(" \(text.printable) is shorter than \(span == "1s" ? "a second" : span)\(zero.map { "; give \(span) or more, or 0 \($0)" } ?? "; give \(span) or more")")
            }
            // A longer one is more likely a slip (`90h` for `90s`) than a wish.
            if let maximum, d > maximum {
                let most = DurationText.format(maximum)
                return fail(" \(text.printable) is longer than \(most), the longest it may be; give \(most) or less")
            }
            return .success(.duration(d))
        case .choice(let words):
            guard words.contains(text) else {
                return fail(": invalid mode '\(text.printable)'; use \(words.dropLast().joined(separator: ", ")) or \(words.last ?? "")")
            }
            return .success(.text(text))
        case .message:
            if let why = AlarmMessage.problem(text) { return fail(": \(why)") }
            return .success(.text(text))
        case .preAlarm:
            switch PreAlarm.parse(text) {
            case .success: return .success(.text(text))
            case .failure(let e): return fail(": \(e.reason)")
            }
        case .hooks:
            for one in text.split(separator: Self.listSeparator, omittingEmptySubsequences: false) {
                if case .failure(let why) = HookCommand.parse(String(one)) { return fail(": \(why.reason)") }
            }
            return .success(.text(text))
        case .days(let range):
            let digits = text.hasSuffix("d") ? text.dropLast() : ""
            guard !digits.isEmpty, digits.allSatisfy(\.isWholeNumberDigit), let n = Int(digits), range.contains(n) else {
                return fail(": invalid value '\(text.printable)'; give \(expects)")
            }
            return .success(.number(n))
        case .date:
            // Which date a day word names depends on the day it is read: `wake add` stores the date.
            guard NamedDay.date(of: text, today: CivilDate(year: 2026, month: 1, day: 1)) != nil else {
                return fail(": invalid date '\(text.printable)'; give \(expects)")
            }
            return .success(.text(text))
        case .name:
            guard StandingAlarm.isValidName(text) else {
                return fail(": invalid name '\(text.printable)'; \(AlarmBook.nameRule)")
            }
            return .success(.text(text))
        case .light:
            if case .failure(let why) = LightPlan.parse(text) { return fail(": \(why.reason)") }
            return .success(.text(text))
        }
    }

    /// Why a value was refused: the option, and the one line to show.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        public var option: String
        public var message: String
        public var description: String { message }
    }
}

extension AlarmOption {
    public static let sound = AlarmOption("sound", short: "s", .file, default: nil, unset: "wake's own alarm sound",
                                          scope: [.ring, .stored, .config],
                                          help: "Sound to ring: a file (WAV, FLAC, Ogg, Opus, MP3), a folder of them or an M3U/M3U8 list (shuffled, one file a ring). Default: wake's own alarm sound.")
    public static let device = AlarmOption("device", short: "D", .device, default: Defaults.device, scope: [.ring, .stored, .config],
                                           help: "ALSA PCM to ring on, as aplay -D takes it.")
    /// A sound server's sink (PulseAudio, or PipeWire through pipewire-pulse): the ring opens
    /// ALSA's pulse PCM on it, and the server moves the stream to a sink that exists when it goes.
    public static let sink = AlarmOption("sink", .sink, default: nil, unset: "the sound server's default sink",
                                         scope: [.ring, .stored, .config],
                                         help: "Ring on this sink of the sound server (PulseAudio, PipeWire), by its name or description "
                                             + "(wake --list-devices lists them), or on every sink at once (all); if it goes away, "
                                             + "the alarm rings on where the server moves it.")
    public static let volume = AlarmOption("volume", .percent, default: String(Defaults.volume), scope: [.ring, .stored, .config],
                                           help: "Software volume, 1 to 100.") { text in
        // An alarm nobody can hear is refused now, not discovered at 07:00.
        text == "0" ? " 0: the sound is silent; give a volume from 1 to 100" : nil
    }
    public static let fadeIn = AlarmOption("fade-in", .duration(minimum: .zero, zero: "for none"), default: DurationText.format(Defaults.fadeIn),
                                           scope: [.ring, .stored, .config],
                                           help: "Rise from -40 dB to the volume, evenly in decibels, over this long (e.g. 30s).")
    public static let snooze = AlarmOption("snooze", .duration(minimum: .zero, zero: nil, maximum: SnoozeLength.longest),
                                           default: DurationText.format(Defaults.snooze), scope: [.ring, .stored, .config],
                                           help: "How long a snooze lasts, at most \(DurationText.format(SnoozeLength.longest)).")
    // No default text: unset, it follows --snooze (twice it, within the longest snooze), so a
    // config.toml or a command line that lengthens the snooze lengthens the long one with it.
    public static let snoozeLong = AlarmOption("snooze-long", .duration(minimum: .zero, zero: nil, maximum: SnoozeLength.longest),
                                               default: nil, unset: "twice --snooze, at most 12h",
                                               scope: [.ring, .stored, .config],
                                               help: "How long the notification's second snooze button snoozes, at most "
                                                     + "\(DurationText.format(SnoozeLength.longest)). "
                                                     + "Default: twice --snooze, within that.")
    // 0 for no limit, as --late-limit's and --ring-for's 0, so a command line can lift a limit
    // config.toml sets. A limit never silences: a snooze past it is refused and said, and the
    // alarm rings on (until stopped, or for --ring-for).
    public static let snoozeLimit = AlarmOption("snooze-limit", .count(0...99), default: "0", scope: [.ring, .stored, .config],
                                                help: "Allow at most this many snoozes a ring; then a snooze is refused and the alarm rings on until stopped (0: no limit).")
    // Unset, the ring after a snooze is the alarm's own: a snooze volume is a choice, never a default.
    public static let snoozeVolume = AlarmOption("snooze-volume", .percent, default: nil, unset: "the alarm's --volume",
                                                 scope: [.ring, .stored, .config],
                                                 help: "Ring again after a snooze at this volume, 1 to 100 "
                                                     + "(with --fade-in, fading in to it). Default: the alarm's --volume.") { text in
        text == "0" ? " 0: the ring after a snooze would be silent; give a volume from 1 to 100, or leave it out for the alarm's" : nil
    }
    // Under a second, a ring may end before its first frame is heard and still count as rung,
    // and an alarm a moment late (a busy machine, a resume) is missed: both refused, 0 keeping
    // its meaning.
    public static let ringFor = AlarmOption("ring-for", .duration(minimum: .seconds(1), zero: "to ring until stopped"),
                                            default: DurationText.format(Defaults.ringFor), scope: [.ring, .stored, .config],
                                            help: "Stop ringing after this long if nobody stops it (0: ring until stopped).") { text in
        lessThanASecond(text) ? " \(text.printable) is shorter than a second: the alarm could end before it is heard; give 1s or more, or 0 to ring until stopped" : nil
    }
    // No default text: unset, a one-off stops (scripts keep exit 4) and a standing alarm snoozes
    // (`Unattended.oneOffMode`, `standingMode`), so a config.toml line can set it for both.
    public static let unattended = AlarmOption("unattended", .choice(Unattended.Mode.allCases.map(\.rawValue)), default: nil,
                                               unset: "stop for a one-off, snooze for a standing alarm", scope: [.ring, .stored, .config],
                                               help: "When a ring runs its --ring-for unanswered: stop (exit 4), "
                                                   + "snooze (a snooze, then ring again, --unattended-rounds rings in all) "
                                                   + "or ring (on until the late limit). "
                                                   + "Default: stop for a one-off, snooze for a standing alarm.") { text in
        Unattended.Mode(rawValue: text) != nil ? nil
            : ": invalid mode '\(text.printable)'; use stop (end, exit 4), snooze (snooze and ring again) "
              + "or ring (ring on until the late limit)"
    }
    public static let unattendedRounds = AlarmOption("unattended-rounds", .count(Unattended.roundLimit),
                                                     default: String(Unattended.defaultRounds), scope: [.ring, .stored, .config],
                                                     help: "With --unattended snooze: how many rings an unanswered alarm gets in all, "
                                                         + "the first included (\(Unattended.roundLimit.lowerBound) to "
                                                         + "\(Unattended.roundLimit.upperBound)); then it stops.")
    public static let escalate = AlarmOption("escalate", .choice(["off", "on"]), default: "off", scope: [.ring, .stored, .config],
                                             help: "on: each unanswered round rings louder, up to 100 %, and the last one "
                                                 + "with wake's built-in sound in place of the alarm's; off.") { text in
        ["off", "on"].contains(text) ? nil : ": invalid mode '\(text.printable)'; use on (louder each unanswered round) or off"
    }
    // One key in config.toml asks it of every alarm.
    public static let checkUp = AlarmOption("check-up", .duration(minimum: .seconds(1), zero: "for none", maximum: SnoozeLength.longest),
                                            default: "0", scope: [.ring, .stored, .config],
                                            help: "This long after you stop the alarm, ask once more (a short quiet ring, a line, "
                                                + "a notification "
                                                + "with I'm up): unanswered within a minute, the alarm rings again (0: never).")
    public static let lateLimit = AlarmOption("late-limit", .duration(minimum: .seconds(1), zero: "for no limit"),
                                              default: DurationText.format(Defaults.lateLimit), scope: [.ring, .stored, .config],
                                              help: "Do not ring if the alarm is later than this (the machine was asleep): a one-off exits 3, a standing alarm is recorded as missed (0: no limit).") { text in
        lessThanASecond(text) ? " \(text.printable) is shorter than a second: an alarm a moment late would be missed; give 1s or more, or 0 for no limit" : nil
    }
    public static let minVolume = AlarmOption("min-volume", .percent, default: String(Defaults.minVolume), scope: [.ring, .stored, .config],
                                              help: "While ringing, unmute the output and raise it to at least this many percent (1 to 100), then put it back.") { text in
        let valid = Int(text).map { (1...100).contains($0) } ?? false
        return valid && text.allSatisfy(\.isNumber) ? nil : ": invalid value '\(text.printable)'; give a whole number from 1 to 100 (percent)"
    }
    public static let mixer = AlarmOption("mixer", .choice(["auto", "off"]), default: "auto", scope: [.ring, .stored, .config],
                                          help: "auto: guard the mixer behind the device (see --min-volume); off: leave it alone.") { text in
        ["auto", "off"].contains(text) ? nil : ": invalid mode '\(text.printable)'; use auto (raise a muted or quiet output while ringing) or off"
    }
    /// The media player an alarm shows while it rings (MPRIS): per alarm, since a bedside alarm
    /// may want a stray media key to silence it and a work one not.
    public static let mpris = AlarmOption("mpris", .choice(["on", "snooze-only", "off"]), default: "on", scope: [.ring, .stored, .config],
                                          help: "While ringing, be a media player on the session bus (MPRIS: media keys, the desktop's media widget, playerctl): on (pause snoozes, stop and next stop), snooze-only (every button snoozes), off.") { text in
        ["on", "snooze-only", "off"].contains(text) ? nil : ": invalid mode '\(text.printable)'; use on, snooze-only (no media key stops the alarm) or off"
    }
    /// A note belongs to one alarm: never a config default for all of them.
    public static let message = AlarmOption("message", .message, default: nil, scope: [.ring, .stored],
                                            help: "A note shown with the alarm: when it is set, while it rings, in the notification and in 'wake list' (at most 120 characters).")
    /// For heavy sleepers: a sum to solve on the terminal before the alarm stops; a swipe or a
    /// media key snoozes instead, and `wake stop`, signals and the D-Bus API still stop it.
    public static let challenge = AlarmOption("challenge", .choice(["off", "math"]), default: "off", scope: [.ring, .stored, .config],
                                              help: "math: a key no longer stops the ring; typing the answer to a sum and Enter does (s, z or space still snooze; the notification's and media keys' stop snooze; 'wake stop' and signals stop). off: any key stops.")
    /// The message, or the time, spoken between loops of the sound (espeak-ng, loaded when an
    /// alarm with it is set). A choice rather than a flag: the option table, both files and the
    /// D-Bus API take every option as a value, and `on`/`off` lets a command line undo config.toml.
    public static let say = AlarmOption("say", .choice(["off", "on"]), default: "off", scope: [.ring, .stored, .config],
                                        help: "on: speak the message, or the time (\"It is 6:30\"), between loops of the sound, through espeak-ng (apt install libespeak-ng1); off.") { text in
        ["off", "on"].contains(text) ? nil : ": invalid mode '\(text.printable)'; use on (speak the message or the time between loops) or off"
    }
    /// Days off for a standing alarm: the days of iCalendar files (holidays), read by the
    /// daemon at each reload; config.toml's apply to every recurring alarm that gives none.
    public static let skipDays = AlarmOption("skip-days", .files, default: nil, scope: [.schedule, .stored, .config],
                                             help: "Do not ring on the days of this iCalendar file (holidays; repeatable): all-day events, yearly rules and exceptions, as any calendar program exports them.")
    /// Shift patterns (issue 54, `DayRules`): with `--days`, both must hold; either alone rings
    /// on every day its rule allows.
    public static let weeks = AlarmOption("weeks", .choice(DayRules.Parity.allCases.map(\.rawValue)), default: nil,
                                          unset: "every week", scope: [.schedule, .stored],
                                          help: "Ring only in odd or even ISO 8601 weeks (week 1 holds the year's first Thursday).")
    public static let every = AlarmOption("every", .days(2...366), default: nil, unset: "every day", scope: [.schedule, .stored],
                                          help: "Ring every Nth day (2d to 366d), counted from --from.")
    /// Stored as the date it names when added, so `tomorrow` does not move.
    public static let from = AlarmOption("from", .date, default: nil, unset: "the day it is added", scope: [.schedule, .stored],
                                         help: "With --every: the first day it rings, as 2026-12-07, tomorrow, mon or dec 24 "
                                             + "(stored as the date).")
    /// An alarm whose time is a calendar's (`FirstEventSchedule`): WHEN is not given.
    public static let beforeFirstEvent = AlarmOption("before-first-event", .file, default: nil, scope: [.schedule, .stored],
                                                     help: "Ring --lead before the first timed event of each of its days in this "
                                                         + "iCalendar file (all-day events ignored; no event: no ring), in place of WHEN.")
    public static let lead = AlarmOption("lead", .duration(minimum: .zero, zero: "at the event's start",
                                                           maximum: FirstEventSchedule.longestLead),
                                         default: nil, unset: "required with --before-first-event", scope: [.schedule, .stored],
                                         help: "With --before-first-event: how long before the event it rings, as 90m (at most 12h).")
    /// A standing alarm's switch (`wake off`, `wake on`): stored only, never a ring option, so
    /// `wake WHEN` and `wake add` do not take it; off, the alarm keeps its time, skips and pauses
    /// and never rings. Kept only while off (on is the default, and `wake on` takes the key out).
    public static let switchState = AlarmOption("switch", .choice(["on", "off"]), default: "on", scope: [.stored],
                                                help: "on: the alarm rings; off: it is kept but never rings (wake off, wake on).")
    /// A set of alarms switched, paused, skipped or removed together (`--group`): a name as an alarm's.
    public static let group = AlarmOption("group", .name, default: nil, unset: "none", scope: [.schedule, .stored],
                                          help: "Put the alarm in this group (a name as an alarm's), so 'wake on/off/pause/resume/skip/"
                                              + "remove --group NAME' act on every alarm in it.")
    /// This alarm's own bedtime reminder (`BedtimeReminder`), over config.toml's `sleep-target`.
    public static let bedtime = AlarmOption("bedtime", .duration(minimum: .seconds(1), zero: nil, maximum: BedtimeReminder.longestTarget),
                                            default: nil, unset: "config.toml's sleep-target", scope: [.schedule, .stored],
                                            help: "Remind you to go to bed this long before each ring (as 8h, at most 16h), with the "
                                                + "bedtime check's verdict; over config.toml's sleep-target.") { text in
        (try? DurationText.parse(text)) == .zero ? ": must be longer than zero, as 8h; leave it out for config.toml's sleep-target" : nil
    }

    /// The stored options a standing alarm keeps as given, each checked by its row: neither ring
    /// options nor day rules (`wake add` and `wake change` take them, and the D-Bus API).
    public static let kept: [AlarmOption] = [group, bedtime]

    /// The screen's backlight before and while it rings (`LightPlan`): best effort, through
    /// logind, so a machine without a backlight warns at arm time and still rings.
    public static let light = AlarmOption("light", .light, default: LightPlan.off, scope: [.ring, .stored, .config],
                                          help: "Light the screen: sunrise[:SPAN] raises the backlight from its lowest to its highest "
                                              + "over the last SPAN (default 20m, at most 2h) before the ring; flash pulses it while "
                                              + "it rings; sunrise:SPAN,flash both; off. Put back as it was after the ring.")

    /// A quiet ring before the alarm: the alarm's engine rings it, and the alarm still rings at its own time.
    public static let preAlarm = AlarmOption("pre-alarm", .preAlarm, default: "0", scope: [.ring, .stored, .config],
                                             help: "Ring quietly this long before the alarm, at PERCENT of its volume (DURATION[,PERCENT], default 20; 0: none). Stopping it keeps the alarm set; u (or 'wake cancel'/'wake skip') if you are up already.")
    public static let preAlarmSound = AlarmOption("pre-alarm-sound", .file, default: nil, unset: "the alarm's sound",
                                                  scope: [.ring, .stored, .config],
                                                  help: "Sound file for the pre-alarm. Default: the alarm's own sound.")
    public static let inhibit = AlarmOption("inhibit", .choice(["auto", "require", "off"]), default: "auto", scope: [.oneOff, .daemon, .config],
                                            help: "Keep the machine from sleeping while the alarm is set: auto (try, warn if impossible), require (exit 69 if impossible), off.",
                                            daemonHelp: "Keep the machine from sleeping in a window before each alarm: auto, require or off.")
    public static let notify = AlarmOption("notify", .choice(["auto", "require", "off"]), default: "auto", scope: [.oneOff, .daemon, .config],
                                           help: "Show a desktop notification with Snooze and Stop buttons while ringing: auto (if a notification server is there), require (exit 69 if none), off.",
                                           daemonHelp: "Show a desktop notification with Snooze and Stop buttons for each ringing alarm: auto, require (exit 69 if no notification server) or off.")
    public static let noticeBefore = AlarmOption("notice-before", .duration(minimum: .zero, zero: "for none"),
                                                 default: DurationText.format(AdvanceNotice.defaultLead), scope: [.daemon, .config],
                                                 help: "Show a notice with a Skip button this long before each alarm, and one when an alarm was missed (0: neither).")

    /// Programs run on the alarm's events, beside the hooks folder's (`HookCommand`).
    public static let hook = AlarmOption("hook", .hooks, default: nil, unset: "the hooks folder's alone", scope: [.ring, .stored, .config],
                                         help: "Run COMMAND (no shell: its words as written) on EVENT of this alarm: ringing, snoozed, "
                                             + "stopped, timed_out, missed... or all, with the facts in WAKE_* variables and the "
                                             + "event's JSON on its input (repeatable). Never delays the sound.")
    // A hook that outlives its limit is killed with its process group: a hung `curl` never
    // piles up a process a morning.
    public static let hookTimeout = AlarmOption("hook-timeout", .duration(minimum: .seconds(1), zero: nil, maximum: .seconds(3600)),
                                                default: DurationText.format(Defaults.hookTimeout), scope: [.ring, .stored, .config],
                                                help: "Kill a hook (with its process group) that runs longer than this, and say so.")

    /// How a person's lines write a time: the desktop's or the locale's clock (LC_TIME), or 12- or 24-hour
    /// (`ClockStyle`); only config.toml has it, as it is the reader's, not an alarm's.
    public static let clock = AlarmOption("clock", .choice(ClockStyle.settings), default: "locale", scope: [.config],
                                          help: "Write times for people 12-hour (6:30 AM) or 24-hour (06:30), or as the desktop's "
                                              + "clock-format (GNOME), else the locale's LC_TIME, does (locale); --json, --events and the "
                                              + "D-Bus API stay ISO 8601.")

    /// The bedtime reminder (`BedtimeReminder`): this long before the next alarm, the daemon
    /// says it is time for bed, with the bedtime check's verdict. config.toml's alone: a night's
    /// sleep is the sleeper's, whichever alarm ends it.
    public static let sleepTarget = AlarmOption("sleep-target", .duration(minimum: .seconds(1), zero: nil,
                                                                          maximum: BedtimeReminder.longestTarget),
                                                default: nil, unset: "no bedtime reminder", scope: [.config],
                                                help: "How long you want to sleep: this long before the next alarm, the daemon shows "
                                                    + "'Bed now for 8h before 06:30 (work)' with the bedtime check's verdict and "
                                                    + "Skip tomorrow and Not tonight buttons (not while the session is locked or idle; "
                                                    + "at most 16h).") { text in
        (try? DurationText.parse(text)) == .zero ? ": must be longer than zero, as 8h; leave the key out for no reminder" : nil
    }

    /// Every option, in the order alarms.toml and the help list them.
    public static let all: [AlarmOption] = [sound, device, sink, volume, fadeIn, snooze, snoozeLong, snoozeLimit, snoozeVolume,
                                            ringFor, unattended, unattendedRounds, escalate, checkUp,
                                            lateLimit, minVolume, mixer, mpris, challenge, say, light, preAlarm, preAlarmSound,
                                            hook, hookTimeout, skipDays, weeks, every, from, beforeFirstEvent, lead, group, bedtime,
                                            switchState,
                                            message, inhibit, notify, noticeBefore, sleepTarget, clock]

    /// The schedule's options that choose which days an alarm rings on (`DayRules`,
    /// `FirstEventSchedule`): not its holiday calendars, which pass over a few, nor its group.
    public static let dayRules: [AlarmOption] = [weeks, every, from, beforeFirstEvent, lead]

    /// The options given `scope`, in order.
    public static func all(_ scope: Scope) -> [AlarmOption] { scope == .ring ? ringOptions : all.filter { $0.scope.contains(scope) } }

    /// The ring options, filtered once: every alarm `wake list` and the daemon read asks for them.
    private static let ringOptions = all.filter { $0.scope.contains(.ring) }

    /// The option called `name` (without dashes).
    public static func named(_ name: String) -> AlarmOption? { byName[name] }

    /// `all` by name (the first of a name, as a search of `all` finds it): the files' readers and
    /// writers look up every key of every alarm, thousands in a long alarms file.
    private static let byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    private static func lessThanASecond(_ text: String) -> Bool {
        guard let d = try? DurationText.parse(text) else { return false }
        return d > .zero && d < .seconds(1)
    }
}
