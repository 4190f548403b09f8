import Glibc

/// What logind says of this user outside D-Bus (its files, readable by anyone): whether the
/// user's manager, and with it the daemon, outlives the last login (linger), and whether the
/// user sits at the machine now (a session on a seat, not only ssh).
public enum LoginState {
    /// The user's name, from the password database; nil when it has none.
    public static func userName(uid: uid_t = getuid()) -> String? {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// Where logind keeps linger flags; a test may point it elsewhere in debug builds.
    static var lingerDirectory: String {
        #if DEBUG
        if let d = getenv("WAKE_TEST_LINGER_DIR") { return String(cString: d) }
        #endif
        return "/var/lib/systemd/linger"
    }

    /// Whether `loginctl enable-linger` is on for the user (nil when the user has no name).
    public static func lingers(uid: uid_t = getuid()) -> Bool? {
        guard let name = userName(uid: uid) else { return nil }
        return access(lingerDirectory + "/" + name, F_OK) == 0
    }

    /// Whether the user has a session on a seat now (`ONLINE_SEATS=` in /run/systemd/users/UID);
    /// nil when logind keeps no record here.
    public static func hasSeatSession(uid: uid_t = getuid()) -> Bool? {
        guard let bytes = try? RegularFile.readAll("/run/systemd/users/\(uid)", limit: 1 << 16) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.split(separator: "\n").contains { $0.hasPrefix("ONLINE_SEATS=") && $0.count > "ONLINE_SEATS=".count }
    }
}
