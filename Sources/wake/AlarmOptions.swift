import WakeCore

/// What the command line asked for, checked: every value is known good before the alarm is armed.
struct AlarmOptions {
    var whenText: String
    var spec: WakeSpec
    var dryRun: Bool
    var quiet: Bool
    var soundPath: String?
    var device: String
    var volume: Int
    var fadeIn: Duration
    var engine: AlarmEngine.Settings
    var eventsPath: String?
    var unpaced: Bool
    var inhibit: InhibitMode
    var wakeSystem: Bool

    enum InhibitMode: String { case auto, require, off }

    init(_ c: WakeCommand) throws(ArmError) {
        func usage(_ m: String) -> ArmError { ArmError(message: m, status: ExitStatus.usage) }
        func duration(_ text: String, _ option: String) throws(ArmError) -> Duration {
            do { return try DurationText.parse(text) } catch { throw usage("--\(option): \(error.description)") }
        }
        guard let when = c.when else {
            throw usage("missing WHEN: say when to ring, as 'wake 07:00'; \(WakeSpec.acceptedForms)")
        }
        whenText = when
        do { spec = try WakeSpec(parsing: when) } catch { throw usage(error.description) }
        dryRun = c.dryRun
        quiet = c.quiet
        soundPath = c.sound
        if let s = c.sound, s.isEmpty { throw usage("--sound: empty file name; give a sound file or leave the option out") }
        guard !c.device.isEmpty else { throw usage("--device: empty device name; try 'default', or see 'wake --list-devices'") }
        device = c.device
        guard let v = Int(c.volume), (0...100).contains(v), c.volume.allSatisfy(\.isNumber) else {
            throw usage("--volume: invalid value '\(c.volume.printable)'; give a whole number from 0 to 100")
        }
        volume = v
        fadeIn = try duration(c.fadeIn, "fade-in")
        let snooze = try duration(c.snooze, "snooze")
        guard snooze > .zero else { throw usage("--snooze: must be longer than zero, as 9m") }
        let ringFor = try duration(c.ringFor, "ring-for")
        let lateLimit = try duration(c.lateLimit, "late-limit")
        if ringFor > .zero && fadeIn > ringFor {
            throw usage("--fade-in \(c.fadeIn) is longer than --ring-for \(c.ringFor); shorten the fade or ring longer")
        }
        engine = AlarmEngine.Settings(lateLimit: lateLimit, snooze: snooze, ringFor: ringFor)
        if let e = c.events, e.isEmpty { throw usage("--events: empty path; give a file, or '-' for stderr") }
        eventsPath = c.events
        unpaced = c.unpaced
        guard let mode = InhibitMode(rawValue: c.inhibit) else {
            throw usage("--inhibit: invalid mode '\(c.inhibit.printable)'; use auto, require or off")
        }
        inhibit = mode
        wakeSystem = c.wakeSystem
    }

    /// Options that take a value, long and short spellings, for the repeated-option check.
    static let valueOptions: [String: String] = [
        "-s": "--sound", "-D": "--device", "--sound": "--sound", "--device": "--device", "--volume": "--volume",
        "--fade-in": "--fade-in", "--snooze": "--snooze", "--ring-for": "--ring-for",
        "--late-limit": "--late-limit", "--events": "--events", "--inhibit": "--inhibit",
    ]

    /// Checks what ArgumentParser would get wrong: it calls a negative value an unknown option,
    /// and keeps the last of a repeated option, which for an alarm is more likely a slip than an
    /// intent, so that is refused.
    static func checkRawArguments(_ args: [String]) throws(ArmError) {
        var seen = Set<String>()
        for (i, a) in args.enumerated() {
            if a == "--" { break }
            // ArgumentParser would call `-5m` an unknown option; say what it really is.
            if a.count >= 2, a.hasPrefix("-"), a.dropFirst().first!.isNumber {
                if i > 0, let option = valueOptions[args[i - 1]] {
                    let hint = option == "--volume" ? "a whole number from 0 to 100" : "a duration from zero up, as 9m"
                    throw ArmError(message: "\(option): negative value '\(a.printable)'; give \(hint)", status: ExitStatus.usage)
                }
                throw ArmError(message: WakeSpec.ParseError(token: a, reason: "a time cannot be in the past; use +DURATION for a span from now").description,
                               status: ExitStatus.usage)
            }
            let name = a.hasPrefix("--") ? String(a.split(separator: "=", maxSplits: 1)[0]) : (a.hasPrefix("-") && a.count >= 2 ? String(a.prefix(2)) : a)
            guard let canonical = valueOptions[name] else { continue }
            if !seen.insert(canonical).inserted {
                throw ArmError(message: "option \(canonical) given more than once; give it once", status: ExitStatus.usage)
            }
        }
    }
}
