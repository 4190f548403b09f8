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

    /// The ring options, shared by `wake WHEN`, `wake add` and each standing alarm; the
    /// message belongs to one alarm, never to all of them.
    public static let ringKeys = AlarmBook.optionOrder.filter { $0 != "message" }
    /// Process-wide options, for `wake WHEN` and `wake daemon`.
    public static let processKeys = ["inhibit", "notify"]
    /// The daemon's own (`wake daemon --notice-before`).
    public static let daemonKeys = ["notice-before"]
    public static let knownKeys = Set(ringKeys + processKeys + daemonKeys)

    public var path: String?
    public var entries: [ConfigFile.Entry] = []

    public static var standardPath: String? { XDGPaths.configHome().map { $0 + "/wake/config.toml" } }

    /// Reads and checks the file; a missing one is no error.
    public static func load(path: String? = standardPath) throws(ArmError) -> ConfigDefaults {
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
            throw ArmError(message: "cannot read the config file: \(error); fix it or move it away", status: ExitStatus.config)
        }
        let entries: [ConfigFile.Entry]
        do { entries = try ConfigFile.parse(text, known: knownKeys) } catch {
            throw ArmError(message: "config file '\(path.printable)' \(error.description); correct it", status: ExitStatus.config)
        }
        let config = ConfigDefaults(path: path, entries: entries)
        try config.check()
        return config
    }

    /// Each value as the command line checks it, then the ring options together (a fade longer
    /// than the ring).
    private func check() throws(ArmError) {
        func fail(_ e: ConfigFile.Entry?, _ message: String) -> ArmError {
            let at = e.map { " line \($0.line), \($0.key)" } ?? ""
            // The option's own message already says what to give instead.
            return ArmError(message: "config file '\((path ?? "").printable)'\(at): \(message)", status: ExitStatus.config)
        }
        for e in entries {
            if e.key == "notice-before" {
                do { _ = try DurationText.parse(e.value) } catch { throw fail(e, "--notice-before: \(error.description)") }
                continue
            }
            do {
                if e.key == "inhibit" {
                    _ = try AlarmOptions.inhibitMode(e.value)
                } else if e.key == "notify" {
                    _ = try AlarmOptions.notifyMode(e.value)

                } else {
                    // Alone, but not against the built-in --ring-for: a fade and a ring-for given
                    // together are judged together, below.
                    var alone = [e.key: e.value]
                    if e.key == "fade-in" { alone["ring-for"] = "0" }
                    _ = try RingSettings(values: alone)
                }
            } catch {
                throw fail(e, error.message)
            }
        }
        do { _ = try RingSettings(values: values(for: Self.ringKeys)) } catch {
            throw fail(nil, error.message)
        }
    }

    public func entry(_ key: String) -> ConfigFile.Entry? { entries.first { $0.key == key } }

    /// `--key=value` for each of `keys` the file sets (the `=` form, so a value is never taken
    /// for an option).
    public func arguments(for keys: [String], except given: Set<String> = []) -> [String] {
        keys.compactMap { key in
            guard !given.contains("--" + key), let e = entry(key) else { return nil }
            return "--\(key)=\(e.value)"
        }
    }

    /// The file's value for each of `keys` it sets, by key.
    public func values(for keys: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for key in keys { if let e = entry(key) { values[key] = e.value } }
        return values
    }

    /// Where a setting came from, for the dry run: nil for a built-in default.
    public func source(of key: String, given: Set<String>) -> String? {
        if given.contains("--" + key) { return "from the command line" }
        if let e = entry(key), let path { return "from \(path.printable) line \(e.line)" }
        return nil
    }
}
