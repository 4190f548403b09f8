import CSystemd
import Glibc

/// Whether someone is at this user's screen, as logind knows it: one of the user's sessions
/// active, not locked (`LockedHint`) and not idle (`IdleHint`). The bedtime reminder is held back
/// while every session is locked or idle. Blocking, bounded by the bus timeout: called off the loop.
public enum SessionPresence: Equatable, Sendable {
    case present
    /// Every session of the user's is locked or idle: `why` says which ("locked", "idle").
    case away(why: String)
    /// logind could not tell (no system bus, no session: an ssh login, a headless machine):
    /// treated as present, since a reminder nobody sees costs nothing.
    case unknown(why: String)

    /// Asks logind now, about the sessions of `uid`.
    public static func current(uid: uid_t = getuid(), timeout: Duration = .seconds(1)) -> SessionPresence {
        let sessions: [String]
        switch sessionPaths(uid: uid, timeout: timeout) {
        case .failure(let e): return .unknown(why: e.description)
        case .success(let paths): sessions = paths
        }
        guard !sessions.isEmpty else { return .unknown(why: "no login session of this user") }
        var whys: Set<String> = []
        for path in sessions {
            func hint(_ name: String) -> Bool? {
                if case .success(.bool(let b)) = BusProperty.read(.system, service: "org.freedesktop.login1", path: path,
                                                                  interface: "org.freedesktop.login1.Session", property: name,
                                                                  type: "b", timeout: timeout) { return b }
                return nil
            }
            guard hint("Active") != false else { continue }
            let locked = hint("LockedHint") == true, idle = hint("IdleHint") == true
            if !locked && !idle { return .present }
            if locked { whys.insert("locked") }
            if idle { whys.insert("idle") }
        }
        return whys.isEmpty ? .unknown(why: "no active session of this user") : .away(why: whys.sorted().joined(separator: " and "))
    }

    /// `org.freedesktop.login1.Manager.ListSessions()`'s object paths of `uid`'s sessions.
    static func sessionPaths(uid: uid_t, timeout: Duration) -> Result<[String], BusError> {
        let call = "org.freedesktop.login1.Manager.ListSessions"
        var b: OpaquePointer?
        let opened = wake_sd_bus_open_system(&b)
        guard opened >= 0, let b else {
            return .failure(BusError(call: "sd_bus_open_system", name: nil,
                                     message: "no system bus (\(String(cString: strerror(-opened))))"))
        }
        defer { wake_sd_bus_flush_close_unref(b) }
        var m: OpaquePointer?
        var r = wake_sd_bus_message_new_method_call(b, &m, "org.freedesktop.login1", "/org/freedesktop/login1",
                                                   "org.freedesktop.login1.Manager", "ListSessions")
        guard r >= 0, let m else {
            return .failure(BusError(call: "sd_bus_message_new_method_call", name: nil, message: String(cString: strerror(-r))))
        }
        defer { wake_sd_bus_message_unref(m) }
        var error = sd_bus_error()
        defer { wake_sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        r = wake_sd_bus_call(b, m, UInt64(clamping: max(1, timeout.nanoseconds / 1000)), &error, &reply)
        guard r >= 0, let reply else {
            return .failure(BusError(call: call, name: error.name.map { String(cString: $0) },
                                     message: error.message.map { String(cString: $0) } ?? String(cString: strerror(-r))))
        }
        defer { wake_sd_bus_message_unref(reply) }
        let malformed = BusError(call: call, name: nil, message: "the reply is not an array of (susso)")
        guard wake_sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "(susso)") > 0 else { return .failure(malformed) }
        var paths: [String] = []
        while wake_sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "r")), "susso") > 0 {
            var id: UnsafePointer<CChar>?, user: UInt32 = 0, name: UnsafePointer<CChar>?, seat: UnsafePointer<CChar>?
            var path: UnsafePointer<CChar>?
            guard wake_sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &id) > 0,
                  wake_sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &user) > 0,
                  wake_sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &name) > 0,
                  wake_sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &seat) > 0,
                  wake_sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "o")), &path) > 0, let path,
                  wake_sd_bus_message_exit_container(reply) >= 0 else { return .failure(malformed) }
            if user == uid { paths.append(String(cString: path)) }
        }
        return .success(paths)
    }
}
