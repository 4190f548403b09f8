import WakeCore

/// How an alarm rings, checked: shared by a one-off alarm, `wake add` and the daemon, which
/// re-checks what it loads with the very same rules.
struct RingSettings {
    var soundPath: String?
    var device: String
    var volume: Int
    var fadeIn: Duration
    var engine: AlarmEngine.Settings
    /// The mixer guard: `--mixer auto` with `--min-volume`, or off.
    var mixer: MixerPolicy
    /// Every option's text, keyed by long name without dashes (`sound` only when there is one):
    /// `wake add` stores those its command line gave.
    var values: [String: String]

    init(_ r: RingOptionGroup) throws(ArmError) {
        func usage(_ m: String) -> ArmError { ArmError(message: m, status: ExitStatus.usage) }
        func duration(_ text: String, _ option: String) throws(ArmError) -> Duration {
            do { return try DurationText.parse(text) } catch { throw usage("--\(option): \(error.description)") }
        }
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
        self.values = values
    }

    /// Options stored with a standing alarm, checked again as the command line checks them,
    /// over the config file's defaults.
    init(stored options: [String: String], defaults: ConfigDefaults = ConfigDefaults()) throws(ArmError) {
        var args: [String] = defaults.arguments(for: ConfigDefaults.ringKeys, except: Set(options.keys.map { "--" + $0 }))
        for key in options.keys.sorted() {
            guard AlarmBook.optionKeys.contains(key) else {
                throw ArmError(message: "unknown option '\(key.printable)' stored with the alarm; remove that line from alarms.toml", status: ExitStatus.config)
            }
            args += ["--\(key)", options[key] ?? ""]
        }
        let group: RingOptionGroup
        do { group = try RingOptionGroup.parse(args) } catch {
            throw ArmError(message: "stored options do not parse: \(RingOptionGroup.message(for: error)); correct them in alarms.toml", status: ExitStatus.config)
        }
        try self.init(group)
    }
}

/// What the command line asked for, checked: every value is known good before the alarm is armed.
struct AlarmOptions {
    var whenText: String
    var spec: WakeSpec
    var dryRun: Bool
    var quiet: Bool
    var ring: RingSettings
    var eventsPath: String?
    var unpaced: Bool
    var inhibit: InhibitMode
    var wakeSystem: Bool
    var notify: NotifyMode
    /// The config file read, and the options the command line gave: where each setting came from.
    var config = ConfigDefaults()
    var given: Set<String> = []

    /// ` (from the command line)`, ` (from PATH line 3)`, or nothing for built-in defaults.
    func source(_ keys: [String]) -> String {
        let sources = keys.compactMap { config.source(of: $0, given: given) }
        return sources.isEmpty ? "" : " (" + Array(Set(sources)).sorted().joined(separator: "; ") + ")"
    }

    enum InhibitMode: String, CaseIterable { case auto, require, off }
    enum NotifyMode: String, CaseIterable { case auto, require, off }

    init(_ c: WakeCommand) throws(ArmError) {
        func usage(_ m: String) -> ArmError { ArmError(message: m, status: ExitStatus.usage) }
        guard !c.when.isEmpty else {
            throw usage("missing WHEN: say when to ring, as 'wake 07:00'; \(WakeSpec.acceptedForms)")
        }
        // WHEN may arrive as several words (`wake 7:30 pm`, `wake 2026-11-24 07:00`, unquoted).
        whenText = c.when.joined(separator: " ")
        do { spec = try WakeSpec(parsing: c.when) } catch { throw usage(error.description) }
        dryRun = c.dryRun
        quiet = c.quiet
        ring = try RingSettings(c.ring)
        if let e = c.events, e.isEmpty { throw usage("--events: empty path; give a file, or '-' for stdout") }
        eventsPath = c.events
        unpaced = c.unpaced
        inhibit = try AlarmOptions.inhibitMode(c.inhibit)
        wakeSystem = c.wakeSystem
        notify = try AlarmOptions.notifyMode(c.notify)
    }

    static func inhibitMode(_ text: String) throws(ArmError) -> InhibitMode { try mode(text, option: "inhibit") }

    static func notifyMode(_ text: String) throws(ArmError) -> NotifyMode { try mode(text, option: "notify") }

    /// `auto`, `require` or `off`, as `--OPTION` takes it.
    static func mode<Mode: RawRepresentable & CaseIterable>(_ text: String, option: String) throws(ArmError) -> Mode where Mode.RawValue == String {
        guard let mode = Mode(rawValue: text) else {
            let names = Mode.allCases.map(\.rawValue)
            throw ArmError(message: "--\(option): invalid mode '\(text.printable)'; use \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")",
                           status: ExitStatus.usage)
        }
        return mode
    }

    /// Options that take a value: every spelling maps to its long name.
    static let valueOptions: [String: String] = [
        "-s": "--sound", "-D": "--device", "--sound": "--sound", "--device": "--device", "--volume": "--volume",
        "--fade-in": "--fade-in", "--snooze": "--snooze", "--ring-for": "--ring-for",
        "--late-limit": "--late-limit", "--events": "--events", "--inhibit": "--inhibit",
        "--min-volume": "--min-volume", "--mixer": "--mixer",
        "--notify": "--notify",
    ]
    /// Short flags that take no value and may be bundled (`-qD null`).
    static let shortFlags: Set<Character> = ["q", "h"]

    /// Checks what ArgumentParser would get wrong: it calls a negative value an unknown option,
    /// and keeps the last of a repeated option, which for an alarm is more likely a slip than an
    /// intent, so that is refused, whatever spelling each occurrence uses (`-D`, `--device`,
    /// `--device=`, or bundled as `-qD`).
    /// Returns the value options given, by long name (`--volume`): what the config file must not override.
    @discardableResult
    static func checkRawArguments(_ args: [String]) throws(ArmError) -> Set<String> {
        var seen = Set<String>()
        func count(_ canonical: String) throws(ArmError) {
            if !seen.insert(canonical).inserted {
                throw ArmError(message: "option \(canonical) given more than once; give it once", status: ExitStatus.usage)
            }
        }
        var i = 0
        while i < args.count {
            let a = args[i]
            i += 1
            if a == "--" { break }
            var valueFollows: String?
            if a.hasPrefix("--") {
                let name = String(a.split(separator: "=", maxSplits: 1).first ?? "")
                if let canonical = valueOptions[name] {
                    try count(canonical)
                    if !a.contains("=") { valueFollows = canonical }
                }
            } else if a.hasPrefix("-"), a.count >= 2 {
                if a.dropFirst().first?.isNumber == true {
                    throw ArmError(message: WakeSpec.ParseError(token: a, reason: "a time cannot be in the past; use +DURATION for a span from now").description,
                                   status: ExitStatus.usage)
                }
                // A bundle of short options: flags, then at most one value option, whose value is
                // the rest of the word or, when it comes last, the next word.
                for (offset, ch) in a.dropFirst().enumerated() {
                    if shortFlags.contains(ch) { continue }
                    guard let canonical = valueOptions["-\(ch)"] else { break }
                    try count(canonical)
                    if offset == a.count - 2 { valueFollows = canonical }
                    break
                }
            }
            guard let option = valueFollows, i < args.count else { continue }
            let value = args[i]
            i += 1
            guard value.hasPrefix("-"), value.count >= 2 else { continue }
            // ArgumentParser would take a value starting with '-' for an option: say what it is.
            if option == "--sound" || option == "--events" || option == "--device" {
                throw ArmError(message: "\(option): '\(value.printable)' looks like an option; if it is a name, write it as ./\(value.printable)",
                               status: ExitStatus.usage)
            }
            if value.dropFirst().first?.isNumber == true {
                let hint = option == "--volume" || option == "--min-volume" ? "a whole number from 1 to 100" : "a duration from zero up, as 9m"
                throw ArmError(message: "\(option): negative value '\(value.printable)'; give \(hint)", status: ExitStatus.usage)
            }
        }
        return seen
    }
}
