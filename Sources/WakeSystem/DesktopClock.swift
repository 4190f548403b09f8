import WakeCore

/// The desktop's own 12/24-hour setting, where the session keeps one wake can read without a
/// bus: GNOME's `clock-format` in the user's dconf database (`$XDG_CONFIG_HOME/dconf/user`), which
/// GNOME's Settings writes. Nil when there is none (another desktop, or never changed from the
/// default, where the locale's format stands).
public enum DesktopClock {
    static let key = "/org/gnome/desktop/interface/clock-format"

    public static func clockFormat(configHome: String? = XDGPaths.configHome()) -> String? {
        guard let configHome, let bytes = try? RegularFile.readAll(configHome + "/dconf/user", limit: 8 << 20) else { return nil }
        let value = DconfDatabase.string(at: key, in: bytes)
        return value == "12h" || value == "24h" ? value : nil
    }
}
