import WakeCore
import WakeSystem

/// A method's `a{sv}` options, read into the words the command line would have given: the keys
/// are the command line's long option names without dashes (`volume`, `ring-for`, `days`), the
/// values their text (a whole number is taken for a number), and the checks are the command
/// line's own (`RingSettings`, `StandingAlarmActions`), never a copy of them.
struct BusAPIOptions {
    private var values: [String: BusValue]
    private(set) var method: String

    /// Nil keys left: every key was read.
    init(_ argument: BusValue?, method: String) throws(WakeFailure) {
        self.method = method
        guard let argument else { values = [:]; return }
        guard let dictionary = argument.stringKeyed else {
            throw WakeFailure(.usage, "\(method): the options must be a dictionary a{sv}; give {} for none")
        }
        values = dictionary
    }

    /// Refuses a key nobody read: a misspelt option is an error, never ignored.
    func finish(known: [String]) throws(WakeFailure) {
        let unknown = values.keys.filter { !known.contains($0) }.sorted()
        guard let first = unknown.first else { return }
        throw WakeFailure(.usage, "\(method): unknown option '\(first.printable)'; the options are: \(known.joined(separator: ", "))")
    }

    /// A text option: a string, or a whole number as its decimal text.
    func text(_ key: String) throws(WakeFailure) -> String? {
        guard let v = values[key] else { return nil }
        if let s = v.string { return s }
        if let n = v.integer { return String(n) }
        throw WakeFailure(.usage, "\(method): option '\(key)' takes a string (as the command line's --\(key)), not a value of type '\(v.signature)'")
    }

    /// No options were given.
    var isEmpty: Bool { values.isEmpty }

    /// A flag option read and taken out, so that `finish` does not see it (AddTimer's `repeat`).
    mutating func takeFlag(_ key: String) throws(WakeFailure) -> Bool {
        defer { values[key] = nil }
        return try flag(key)
    }

    /// A flag option: a boolean.
    func flag(_ key: String) throws(WakeFailure) -> Bool {
        guard let v = values[key] else { return false }
        guard let b = v.bool else { throw WakeFailure(.usage, "\(method): option '\(key)' takes a boolean, not a value of type '\(v.signature)'") }
        return b
    }

    /// A list option: an array of strings, or one string.
    func texts(_ key: String) throws(WakeFailure) -> [String] {
        guard let v = values[key] else { return [] }
        if let s = v.string { return [s] }
        if let list = v.elements {
            var out: [String] = []
            for e in list {
                guard let s = e.string else { throw WakeFailure(.usage, "\(method): option '\(key)' takes strings, not '\(e.signature)'") }
                out.append(s)
            }
            return out
        }
        throw WakeFailure(.usage, "\(method): option '\(key)' takes a string or an array of strings, not a value of type '\(v.signature)'")
    }

    /// A count: a whole number (or its text), within Int's range.
    func count(_ key: String) throws(WakeFailure) -> Int? {
        guard let v = values[key] else { return nil }
        if let n = v.integer, let i = Int(exactly: n) { return i }
        if let s = v.string, let i = Int(s) { return i }
        throw WakeFailure(.usage, "\(method): option '\(key)' takes a whole number")
    }

    // MARK: the methods' options

    /// Add's keys beyond the ring options.
    static let addKeys = ["days", "name", "force"] + AlarmOption.all(.schedule).map(\.name)
    /// The schedule's rules (`--weeks`, `--every`, `--from`, `--before-first-event`): they choose the days.
    static let ruleKeys = AlarmOption.dayRules.map(\.name)

    /// `wake add WHEN [options]` as the API's Add gives it; the ring options under config.toml's
    /// values as the command line's are. Runs on the API's worker thread (config.toml is read).
    static func addRequest(when: String, options: BusAPIOptions) throws(WakeFailure) -> StandingAlarmActions.AddRequest {
        let ringKeys = AlarmOption.all(.ring).map(\.name)
        try options.finish(known: ringKeys + addKeys)
        var ring: [String: String] = [:]
        var given: Set<String> = []
        for key in ringKeys {
            // A list (`hook`) as an array of strings, or one string.
            let list = AlarmOption.named(key)?.kind.isList == true
            if list, case let texts = try options.texts(key), !texts.isEmpty {
                ring[key] = texts.joined(separator: String(AlarmOption.listSeparator))
                given.insert("--" + key)
            } else if !list, let t = try options.text(key) {
                ring[key] = t
                given.insert("--" + key)
            }
        }
        let skipDays = try options.texts(AlarmOption.skipDays.name)
        try absoluteFiles(ring: ring, skipDays: skipDays, options: options)
        let config = try ConfigDefaults.load()
        let settings = try RingSettings(layering: ring, under: config, given: given)
        let words = when.split(separator: " ").map(String.init)
        let rules = try rules(options)
        let kept = try keptOptions(options)
        return StandingAlarmActions.AddRequest(when: words, days: try options.text("days"), name: try options.text("name"),
                                               ring: settings, given: given, skipDays: skipDays, rules: rules,
                                               other: kept, force: try options.flag("force"))
    }

    /// `AlarmOption.kept` given (`group`, `bedtime`), by name.
    static func keptOptions(_ options: BusAPIOptions) throws(WakeFailure) -> [String: String] {
        var kept: [String: String] = [:]
        for option in AlarmOption.kept { if let t = try options.text(option.name) { kept[option.name] = t } }
        return kept
    }

    /// Update's keys beyond Add's: the new `when` and what to `reset` (as `wake change` takes them).
    static let updateKeys = ["when", "reset"]

    /// `wake change NAME [options]` as an alarm's Update gives it: Add's keys (`name` renames),
    /// `when` and `reset`, checked by `wake change`'s own path.
    static func changeRequest(name: String, options: BusAPIOptions) throws(WakeFailure) -> StandingAlarmActions.ChangeRequest {
        let ringKeys = AlarmOption.all(.ring).map(\.name)
        try options.finish(known: ringKeys + addKeys + updateKeys)
        var ring: [String: String] = [:]
        for key in ringKeys {
            let list = AlarmOption.named(key)?.kind.isList == true
            if list, case let texts = try options.texts(key), !texts.isEmpty {
                ring[key] = texts.joined(separator: String(AlarmOption.listSeparator))
            } else if !list, let t = try options.text(key) {
                ring[key] = t
            }
        }
        let skipDays = try options.texts(AlarmOption.skipDays.name)
        try absoluteFiles(ring: ring, skipDays: skipDays, options: options)
        let when = try options.text("when").map { $0.split(separator: " ").map(String.init) } ?? []
        return StandingAlarmActions.ChangeRequest(name: name, when: when, days: try options.text("days"), newName: try options.text("name"),
                                                  values: ring, given: Set(ring.keys.map { "--" + $0 }), skipDays: skipDays,
                                                  kept: try keptOptions(options), rules: try rules(options),
                                                  reset: try options.texts("reset"), force: try options.flag("force"))
    }

    /// Every file Add or Update names (sounds, calendars) absolute: the daemon's working directory
    /// is not the caller's, so a relative name would find another file, or none.
    static func absoluteFiles(ring: [String: String], skipDays: [String], options: BusAPIOptions) throws(WakeFailure) {
        let eventsFile = try options.text(AlarmOption.beforeFirstEvent.name)
        let files = AlarmOption.all(.stored).filter { $0.kind == .file }.compactMap { o in ring[o.name].map { (o.name, $0) } }
            + skipDays.map { (AlarmOption.skipDays.name, $0) }
            + (eventsFile.map { [(AlarmOption.beforeFirstEvent.name, $0)] } ?? [])
        if let (key, path) = files.first(where: { !$0.1.hasPrefix("/") }) {
            throw WakeFailure(.usage, "\(options.method): option '\(key)' names '\(path.printable)', not an absolute path; "
                              + "give the file's full path, as '/home/me/alarm.flac'")
        }
    }

    /// The day rules among `options` (`ruleKeys`), by name.
    static func rules(_ options: BusAPIOptions) throws(WakeFailure) -> [String: String] {
        var rules: [String: String] = [:]
        for key in ruleKeys { rules[key] = try options.text(key) }
        return rules
    }

    static func skipRequest(name: String, options: BusAPIOptions) throws(WakeFailure) -> StandingAlarmActions.SkipRequest {
        try options.finish(known: ["count", "on", "undo"])
        return StandingAlarmActions.SkipRequest(name: name, undo: try options.flag("undo"), count: try options.count("count"),
                                                dates: try options.texts("on"))
    }

    /// Pause's `until` (required), `from` and `long`, as `wake pause` takes them.
    static func pause(_ options: BusAPIOptions) throws(WakeFailure) -> (until: String, from: String?, long: Bool) {
        try options.finish(known: ["until", "from", "long"])
        guard let until = try options.text("until") else {
            throw WakeFailure(.usage, "Pause: missing option 'until'; give the date the alarms ring again from, as {\"until\": <\"2026-12-07\">}")
        }
        return (until, try options.text("from"), try options.flag("long"))
    }

    /// Resume's `all` (every pause, planned ahead too) or `on` (the pause a date falls in), as
    /// `wake resume` takes them; neither: the pause on now.
    static func resume(_ options: BusAPIOptions) throws(WakeFailure) -> (all: Bool, on: String?) {
        try options.finish(known: ["all", "on"])
        let all = try options.flag("all"), on = try options.text("on")
        if all && on != nil { throw WakeFailure(.usage, "Resume: option 'all' lifts every pause and 'on' the one on a date; give one") }
        return (all, on)
    }

    /// Snooze's `length` (a span, as `wake snooze 20m`), `until` (a time, as `--until 07:40`) or
    /// `long` (the alarm's long snooze), read by `wake snooze`'s own parser.
    static func snoozeLength(_ options: BusAPIOptions, name: String, now: Instant, zone: TimeZoneRules) throws(WakeFailure) -> SnoozeLength {
        try options.finish(known: ["length", "until", "long"])
        let length = try options.text("length"), until = try options.text("until")
        if try options.flag("long") {
            guard length == nil && until == nil else { throw WakeFailure(.usage, "Snooze: give one of length, until and long") }
            return .long
        }
        do {
            return try SnoozeRequest.parse(words: [name] + (length.map { [$0] } ?? []), until: until, isAlarmName: { _ in false },
                                           now: now, zone: zone).length
        } catch {
            throw WakeFailure(.usage, "Snooze: " + error.description)
        }
    }
}
