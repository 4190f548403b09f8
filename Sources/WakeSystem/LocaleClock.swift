import Glibc
import WakeCore

/// The reader's clock from the locale (LC_ALL, else LC_TIME, else LANG): its LC_TIME formats
/// read through a locale object of its own (`newlocale`, `nl_langinfo_l`), so the process's
/// locale is never set. The C and POSIX locales, and one this machine has not generated, read as
/// 24-hour with the day first, as wake always wrote.
public enum LocaleClock {
    /// The locale name LC_TIME comes from, as glibc chooses it.
    static func timeLocaleName() -> String? {
        for name in ["LC_ALL", "LC_TIME", "LANG"] {
            if let v = getenv(name).map({ String(cString: $0) }), !v.isEmpty { return v }
        }
        return nil
    }

    /// `T_FMT` and `D_FMT` of the environment's locale; nil for C, POSIX or a locale not there.
    public static func formats() -> (time: String, date: String)? {
        guard let name = timeLocaleName(), !["C", "POSIX"].contains(name), !name.hasPrefix("C.") else { return nil }
        guard let locale = newlocale(LC_TIME_MASK, name, nil) else { return nil }
        defer { freelocale(locale) }
        guard let t = nl_langinfo_l(nl_item(T_FMT), locale), let d = nl_langinfo_l(nl_item(D_FMT), locale) else { return nil }
        return (String(cString: t), String(cString: d))
    }

    /// The style for config.toml's `clock` (`locale`, `12h`, `24h`; nil: `locale`) over `formats`;
    /// under `locale`, the desktop's own setting (`DesktopClock`: `12h`, `24h`), when it has one,
    /// takes the hours, and the locale keeps the date's order.
    public static func style(setting: String?, formats: (time: String, date: String)?, desktop: String? = nil) -> ClockStyle {
        let hours = setting == nil || setting == "locale" ? desktop ?? setting : setting
        guard let (time, date) = formats else {
            return ClockStyle(twelveHour: hours == "12h", monthFirst: false)
        }
        return ClockStyle(timeFormat: time, dateFormat: date, setting: hours)
    }
}
