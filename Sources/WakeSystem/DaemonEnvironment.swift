import Glibc

/// The environment the daemon runs in, taken on by `wake doctor` so that it asks the sound
/// server, the session bus and the zone what the daemon would: from ssh, cron or `sudo -u`, the
/// calling shell may lack XDG_RUNTIME_DIR or DBUS_SESSION_BUS_ADDRESS, or carry another TZ.
public enum DaemonEnvironment {
    /// The variables that decide what the daemon reaches.
    public static let names = ["XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "PULSE_SERVER", "PULSE_RUNTIME_PATH", "TZ",
                               "ALSA_CONFIG_PATH", "XDG_CONFIG_HOME", "XDG_STATE_HOME"]

    /// Where the environment came from, for the doctor's line.
    public enum Source: Equatable, Sendable {
        /// The running daemon's own (/proc/PID/environ).
        case daemon(pid: Int32)
        /// systemd's user manager, which the unit inherits (`systemctl --user show-environment`).
        case userManager
        /// Neither could be read: this shell's, with the runtime directory logind made.
        case shell
    }

    /// `/proc/PID/environ` as a dictionary (only another process of this user's is readable).
    public static func environment(ofProcess pid: Int32) -> [String: String]? {
        guard let bytes = try? RegularFile.readAll("/proc/\(pid)/environ", limit: 1 << 20) else { return nil }
        return parse(bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
    }

    /// `NAME=value` lines (or NUL-separated entries) as a dictionary.
    public static func parse(_ entries: [String]) -> [String: String] {
        var out: [String: String] = [:]
        for entry in entries {
            guard let eq = entry.firstIndex(of: "="), eq != entry.startIndex else { continue }
            out[String(entry[..<eq])] = String(entry[entry.index(after: eq)...])
        }
        return out
    }

    // `ProcessStart.adopt` takes them on, before any thread starts.
}
