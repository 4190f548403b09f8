import Glibc
import WakeCore
import WakeSystem

/// The user's defaults, `$XDG_CONFIG_HOME/wake/config.toml`: built-in defaults < this file <
/// the command line (and, for a standing alarm, < the options stored with it). Values are
/// checked by the command line's own rules when the file is read, so a mistake in it is found
/// at once, with the file, the line and the key (exit 78), never at 07:00.
public struct ConfigDefaults {
    public init(path: String? = nil, entries: [ConfigFile.Entry] = []) {
        self.path = path
        self.entries = entries
    }

    /// The ring options the file may set, shared by `wake WHEN`, `wake add` and each standing
    /// alarm (the message belongs to one alarm, never to all of them: `AlarmOption.message`).
    public static let ringKeys = AlarmOption.all.filter { $0.scope.contains([.ring, .config]) }.map(\.name)
    /// Process-wide options, for `wake WHEN` and `wake daemon`.
    public static let processKeys = AlarmOption.all.filter { $0.scope.contains([.oneOff, .daemon, .config]) }.map(\.name)
    /// The daemon's own (`wake daemon --notice-before`).
    public static let daemonKeys = AlarmOption.all.filter { $0.scope.contains([.daemon, .config]) && !$0.scope.contains(.oneOff) }.map(\.name)
    public static let knownKeys = Set(AlarmOption.all(.config).map(\.name))

    public var path: String?
    public var entries: [ConfigFile.Entry] = []
    /// What a tolerant read set aside (`loadTolerant`), one line each, with the file and line.
    public var problems: [String] = []

    public static var standardPath: String? { XDGPaths.configHome().map { $0 + "/wake/config.toml" } }

    /// Reads and checks the file; a missing one is no error.
    public static func load(path: String? = standardPath) throws(WakeFailure) -> ConfigDefaults {
        guard let path else { return ConfigDefaults(path: nil) }
        // A file that is there but unreadable is a mistake to report; a path a parent directory
        // will not even let us look into (HOME still another user's, as under setpriv or su)
        // holds no config of ours.
        var st = stat()
        if stat(path, &st) != 0 && (errno == ENOENT || errno == EACCES || errno == ENOTDIR) { return ConfigDefaults(path: path) }
        let text: String
        do {
            guard let t = try AtomicFile.read(path) else { return ConfigDefaults(path: path) }
            text = t
        } catch {
            throw WakeFailure(.config, "cannot read the config file: \(error); fix it or move it away")
        }
        let entries: [ConfigFile.Entry]
        do { entries = try ConfigFile.parse(text, known: knownKeys) } catch {
            throw WakeFailure(.config, "config file '\(path.printable)' \(error.description); correct it")
        }
        let config = ConfigDefaults(path: path, entries: Self.anchored(entries, in: path))
        try config.check()
        return config
    }

    /// A sound named relative to the file (`sound = "alarm.ogg"`) is read from the file's own
    /// directory, as its calendars are (`DayOffCalendars.configured`): not from wherever a one-off
    /// or the daemon happens to run.
    static func anchored(_ entries: [ConfigFile.Entry], in path: String) -> [ConfigFile.Entry] {
        guard let slash = path.lastIndex(of: "/") else { return entries }
        let directory = String(path[..<slash])
        return entries.map { e in
            guard AlarmOption.named(e.key)?.kind == .file, !e.value.isEmpty, !e.value.hasPrefix("/") else { return e }
            var anchored = e
            anchored.value = directory + "/" + e.value
            return anchored
        }
    }

    /// The daemon's read, which nobody watches: whatever it cannot use (an unreadable file, a bad
    /// line, a bad value) is set aside with a problem line, and the built-in value stands in.
    /// A broken config file must never keep the standing alarms from ringing.
    public static func loadTolerant(path: String? = standardPath) -> ConfigDefaults {
        do { return try load(path: path) } catch {}
        guard let path else { return ConfigDefaults(path: nil) }
        var config = ConfigDefaults(path: path)
        let text: String
        do {
            guard let t = try AtomicFile.read(path) else { return config }
            text = t
        } catch {
            config.problems = ["cannot read the config file '\(path.printable)': \(error); every setting takes wake's built-in value"]
            return config
        }
        let (entries, parseProblems) = TolerantParse.parse(text, dropping: .line) { (t) throws(AlarmBook.ParseError) in
            try ConfigFile.parse(t, known: knownKeys)
        }
        config.problems = parseProblems.map { "config file '\(path.printable)' \($0.description); that line is ignored" }
        // Values the command line would refuse: each is dropped, then a long snooze shorter than
        // the snooze, then a fade longer than the ring.
        for e in Self.anchored(entries ?? [], in: path) {
            if let message = config.problem(with: e) {
                config.problems.append("config file '\(path.printable)' line \(e.line), \(e.key): \(message); wake's built-in value is used instead")
            } else {
                config.entries.append(e)
            }
        }
        if let problem = RingSettings.longSnoozeProblem(config.values(for: ringKeys)) {
            config.entries.removeAll { $0.key == AlarmOption.snoozeLong.name }
            config.problems.append("config file '\(path.printable)': \(problem); the long snooze is ignored")
        }
        do { _ = try RingSettings(values: config.values(for: ringKeys)) } catch {
            config.entries.removeAll { $0.key == "fade-in" }
            config.problems.append("config file '\(path.printable)': \(error.message); the fade-in is ignored")
        }
        return config
    }

    /// Why the command line would refuse this entry's value, or nil: alone, by its description
    /// (a fade and a ring-for given together are judged together, by `check`).
    private func problem(with e: ConfigFile.Entry) -> String? {
        guard let option = AlarmOption.named(e.key) else { return "unknown key '\(e.key.printable)'" }
        if case .failure(let problem) = option.parse(e.value) { return problem.message }
        return nil
    }

    /// Each value as the command line checks it, then the ring options together (a fade longer
    /// than the ring).
    private func check() throws(WakeFailure) {
        func fail(_ e: ConfigFile.Entry?, _ message: String) -> WakeFailure {
            let at = e.map { " line \($0.line), \($0.key)" } ?? ""
            // The option's own message already says what to give instead.
            return WakeFailure(.config, "config file '\((path ?? "").printable)'\(at): \(message)")
        }
        for e in entries {
            if let message = problem(with: e) { throw fail(e, message) }
        }
        do { _ = try RingSettings(values: values(for: Self.ringKeys)) } catch {
            throw fail(nil, error.message)
        }
    }

    public func entry(_ key: String) -> ConfigFile.Entry? { entries.first { $0.key == key } }

    /// `option`'s value where the command line's (`commandLine`, which holds the command's own
    /// default when it gave none) meets this file's: the command line's when it gave the option
    /// (`given` holds `--volume`), else the file's, else the default.
    public func layered(_ option: AlarmOption, over commandLine: String, given: Set<String>) -> String {
        if given.contains(option.flag) { return commandLine }
        return entry(option.name)?.value ?? commandLine
    }

    /// The same for an option that may be unset (`--sound`).
    public func layered(_ option: AlarmOption, over commandLine: String?, given: Set<String>) -> String? {
        if given.contains(option.flag) { return commandLine }
        return entry(option.name)?.value ?? commandLine
    }

    /// The file's value for each of `keys` it sets, by key.
    public func values(for keys: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for key in keys { if let e = entry(key) { values[key] = e.value } }
        return values
    }

    /// Where a setting came from, for the dry run: nil for a built-in default.
    public func source(of key: String, given: Set<String>) -> String? {
        if given.contains("--" + key) { return localized("from the command line") }
        if let e = entry(key), let path { return localized("from {file} line {line}", path.printable, String(e.line)) }
        return nil
    }
}
