import CLinux
import Glibc
import WakeCore

/// wake's translations through GNU gettext (glibc's `dgettext`), from the `wake` domain's
/// catalogues, `share/locale/LANG/LC_MESSAGES/wake.mo` beside the binary's own `bin` (or
/// `WAKE_LOCALEDIR`), bound once at start-up (`ProcessStart.begin`). The language is chosen as
/// every GNU program chooses it: `LANGUAGE` (a list, `de:fr`), else LC_ALL, LC_MESSAGES, LANG;
/// under the C or POSIX locale everything stays English, as glibc wants (`LANG=C.UTF-8` is enough
/// for `LANGUAGE` to count).
///
/// The process's locale is never set: each lookup reads under a locale object of its own, made
/// from the environment the first time a text is looked up (`newlocale`), set for that call on
/// the calling thread only (`uselocale`). A catalogue file is opened only when a text is first
/// looked up in it.
public enum GettextCatalogue {
    public static let domain = "wake"

    /// The catalogues' directory: `WAKE_LOCALEDIR` when set (a build tree's, the tests'), else
    /// `share/locale` beside the running binary's `bin` (/usr/bin/wake: /usr/share/locale).
    public static func directory(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> String? {
        if let dir = environment("WAKE_LOCALEDIR"), !dir.isEmpty { return dir }
        guard let executable = AlarmTimerHelper.runningExecutable() else { return nil }
        return AlarmTimerHelper.parent(AlarmTimerHelper.parent(executable)) + "/share/locale"
    }

    /// The catalogue for this process's environment; nil when its messages are English anyway
    /// (no LANGUAGE, and a C or POSIX message locale), so an English run never looks anything up.
    public static func forEnvironment() -> MessageCatalogue? {
        func value(_ name: String) -> String? {
            guard let v = getenv(name).map({ String(cString: $0) }), !v.isEmpty else { return nil }
            return v
        }
        let locale = value("LC_ALL") ?? value("LC_MESSAGES") ?? value("LANG") ?? "C"
        if locale == "C" || locale == "POSIX" { return nil }  // where glibc ignores LANGUAGE too
        if locale.hasPrefix("C.") && value("LANGUAGE") == nil { return nil }
        return MessageCatalogue { translate($0) }
    }

    /// The message locale, made once; nil when the environment names one this machine lacks.
    private static let messagesLocale: LocaleHandle? = newlocale(LC_MESSAGES_MASK, "", nil).map(LocaleHandle.init)

    private struct LocaleHandle: @unchecked Sendable {  // read only, after it is made
        let value: locale_t
    }

    static func translate(_ english: String) -> String? {
        guard let locale = messagesLocale else { return nil }
        let previous = uselocale(locale.value)
        defer { uselocale(previous) }
        return english.withCString { id -> String? in
            guard let found = dgettext(domain, id), UnsafePointer(found) != id else { return nil }
            return String(cString: found)
        }
    }
}
