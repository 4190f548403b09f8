import Glibc

/// Where wake keeps its files, by the XDG Base Directory specification.
public enum XDGPaths {
    /// `$XDG_CONFIG_HOME`, when set to an absolute path (the spec says a relative one is invalid
    /// and ignored); else `$HOME/.config`; nil when neither gives an absolute path.
    /// `environment` replaces the process environment (for tests).
    public static func configHome(environment: [String: String]? = nil) -> String? {
        base("XDG_CONFIG_HOME", orHome: ".config", environment)
    }

    /// `$XDG_STATE_HOME` when absolute, else `$HOME/.local/state`.
    public static func stateHome(environment: [String: String]? = nil) -> String? {
        base("XDG_STATE_HOME", orHome: ".local/state", environment)
    }

    /// `<configHome>/wake`: the alarms, and the calendars `wake holidays import` writes beside them.
    public static var wakeConfigDirectory: String? { configHome().map { $0 + "/wake" } }

    /// `$HOME` when absolute, without trailing slashes: what a path under it is shown with `~` for.
    public static var home: String? {
        guard let p = getenv("HOME"), case let h = String(cString: p), h.hasPrefix("/") else { return nil }
        return trimmed(h)
    }

    /// `<configHome>/wake/alarms.toml`: the standing alarms.
    public static var alarmsFile: String? { configHome().map { $0 + "/wake/alarms.toml" } }

    /// `<configHome>/wake/history.toml`: what happened to them, beside the alarms, so every
    /// daemon and command that reads one alarms file reads one history, whatever
    /// `XDG_STATE_HOME` each was given.
    public static var historyFile: String? { configHome().map { $0 + "/wake/history.toml" } }
    /// Where the history lived before it moved beside the alarms (`<stateHome>/wake/history.toml`):
    /// two processes with different `XDG_STATE_HOME` read one alarms file but two histories.
    public static var legacyHistoryFile: String? { stateHome().map { $0 + "/wake/history.toml" } }

    static func base(_ variable: String, orHome subdirectory: String, _ environment: [String: String]?) -> String? {
        func value(_ name: String) -> String? {
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        if let v = value(variable), v.hasPrefix("/") { return trimmed(v) }
        if let home = value("HOME"), home.hasPrefix("/") {
            let h = trimmed(home)
            return (h == "/" ? "" : h) + "/" + subdirectory
        }
        return nil
    }

    /// Without trailing slashes ("/" stays "/").
    static func trimmed(_ path: String) -> String {
        var p = Substring(path)
        while p.count > 1, p.hasSuffix("/") { p = p.dropLast() }
        return String(p)
    }
}
