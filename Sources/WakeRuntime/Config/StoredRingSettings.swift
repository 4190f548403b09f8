import WakeCore

/// The daemon's reading of the options stored with a standing alarm: an option the command line
/// would refuse is set aside alone, with a line, and the alarm keeps every other one, its device
/// and sound above all. Throwing all of them away for one (a hand-edited message too long, a
/// fade longer than a ring-for the config file set later) rang a `hw:` alarm on `default` with
/// defaults, which for a lingering daemon is silence. `wake list` reads them the same way, so it
/// shows what the daemon does.
extension RingSettings {
    /// One stored option the daemon does not take as it is, and what it does instead.
    public struct Adjustment: Equatable, Sendable {
        /// The option's key (`fade-in`, `message`).
        public var option: String
        /// Its value as written (in alarms.toml, or for a fade cut to the ring, wherever it came from).
        public var value: String
        /// Why it is not taken, in the command line's words.
        public var reason: String
        /// What the alarm does instead: `rings with volume 100 (wake's default)`.
        public var instead: String
        /// A few words for `wake list`'s table: `volume set aside`, `message cut`.
        public var mark: String

        /// The line the daemon says and `wake list` warns with: the alarm, the option, the value
        /// (inside `reason`), and what it does instead.
        public func line(alarm: String) -> String {
            "alarm '\(alarm.printable)': \(reason); it \(instead) instead, and keeps its other options"
        }
    }

    /// `stored` over the config file's `defaults`, each option checked alone by the command
    /// line's rules: one it refuses is left out (its config or built-in value stands in), a
    /// message over the limit is cut, and a fade longer than the ring is cut to the ring's
    /// length. Throws only if even the config file's values do not check, which its own
    /// tolerant read rules out.
    public static func tolerating(stored: [String: String],
                                  defaults: ConfigDefaults = ConfigDefaults()) throws(WakeFailure) -> (settings: RingSettings, adjustments: [Adjustment]) {
        var values = defaults.values(for: ConfigDefaults.ringKeys)
        var dropped: [(key: String, value: String, reason: String)] = []
        var adjustments: [Adjustment] = []
        for key in stored.keys.sorted() {
            let value = stored[key] ?? ""
            // Made only for a line that says it: most keys check.
            func shown() -> String { "\(key) = \"\(TerminalText.printable(value, limit: 40))\"" }
            guard let option = AlarmOption.named(key), option.scope.contains(.stored) else {
                dropped.append((key, value, "unknown option \(shown()) in alarms.toml"))
                continue
            }
            if key == "message" {
                if value.count > AlarmMessage.limit {
                    // Cut rather than dropped: most of a note is still the note.
                    values[key] = String(value.prefix(AlarmMessage.limit - 1)) + "…"
                    adjustments.append(Adjustment(option: key, value: value, reason: "message in alarms.toml: " + (AlarmMessage.problem(value) ?? ""),
                                                  instead: "shows its first \(AlarmMessage.limit - 1) characters and …", mark: "message cut"))
                } else if let why = AlarmMessage.problem(value) {
                    adjustments.append(Adjustment(option: key, value: value, reason: "message in alarms.toml: \(why)",
                                                  instead: "shows no message", mark: "message set aside"))
                } else {
                    values[key] = value
                }
                continue
            }
            // Alone, as the config file's lines are judged: a fade is weighed against the ring below.
            switch option.parse(value) {
            case .success: values[key] = value
            case .failure(let problem): dropped.append((key, value, "\(problem.message) (\(shown()) in alarms.toml)"))
            }
        }
        // Each checks alone; the pair does not: a long snooze shorter than the snooze gives way
        // (the long button then snoozes twice the snooze).
        let longKey = AlarmOption.snoozeLong.name
        if let problem = RingSettings.longSnoozeProblem(values) {
            let from = [longKey, AlarmOption.snooze.name].map { key in
                "\(key) " + (stored[key] != nil ? "stored with the alarm" : defaults.entry(key) != nil ? "from config.toml" : "wake's default")
            }.joined(separator: ", ")
            adjustments.append(Adjustment(option: longKey, value: values[longKey] ?? "", reason: "\(problem) (\(from))",
                                          instead: "snoozes twice the snooze (at most 12h) on its long button",
                                          mark: "snooze-long set aside"))
            values[longKey] = nil
        }
        let settings: RingSettings
        do {
            settings = try RingSettings(values: values)
        } catch {
            // Each value checks alone, so the fade is longer than the ring: the fade gives way, cut
            // to the ring's length, so the alarm still rises gently and still stops when it should.
            let (fadeKey, ringKey) = (AlarmOption.fadeIn.name, AlarmOption.ringFor.name)
            let fade = values[fadeKey] ?? ""
            values[fadeKey] = values[ringKey]
            settings = try RingSettings(values: values)
            let ring = DurationText.format(settings.engine.ringFor)
            let from = [fadeKey, ringKey].map { key in
                "\(key) " + (stored[key] != nil ? "stored with the alarm" : defaults.entry(key) != nil ? "from config.toml" : "wake's default")
            }.joined(separator: ", ")
            adjustments.append(Adjustment(option: fadeKey, value: fade, reason: "\(error.message) (\(from))",
                                          instead: "fades in over \(ring) (the whole ring)", mark: "fade-in cut to \(ring)"))
        }
        for d in dropped {
            let used = settings.values[d.key].map { "\(d.key) \(TerminalText.printable($0, limit: 40))" }
            let source = defaults.entry(d.key) != nil ? "from config.toml" : "wake's default"
            let instead: String
            switch d.key {
            case "sound": instead = used.map { "rings \($0) (\(source))" } ?? "rings wake's built-in sound"
            case AlarmOption.preAlarm.name where settings.engine.preAlarm == nil: instead = "rings without a pre-alarm"
            case AlarmOption.unattended.name where used == nil:
                instead = "snoozes and rings again when unanswered (wake's default for a standing alarm)"
            default: instead = used.map { "rings with \($0) (\(source))" } ?? "rings without it"
            }
            adjustments.append(Adjustment(option: d.key, value: d.value, reason: d.reason, instead: instead, mark: "\(d.key) set aside"))
        }
        return (settings, adjustments.sorted { $0.option < $1.option })
    }
}

extension RingSettings {
    /// The late limit the daemon plans a standing alarm with: its stored options over config.toml,
    /// read as `tolerating` reads them (wake's default should even that fail), so `wake list`,
    /// `skip`, `pause` and the doctor plan each ring as the daemon will.
    public static func lateLimit(of alarm: StandingAlarm, config: ConfigDefaults) -> Duration {
        (try? tolerating(stored: alarm.options, defaults: config))?.settings.engine.lateLimit ?? Defaults.lateLimit
    }
}
