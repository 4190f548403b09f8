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
        switch LoginSession.all(uid: uid, timeout: timeout) {
        case .failure(let e): return .unknown(why: e.description)
        case .success(let found): sessions = found.map(\.path)
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
}

/// One of a user's login sessions, as logind lists it: its object path and its seat (empty for
/// an ssh login or a user service's lingering one).
public struct LoginSession: Hashable, Sendable {
    public var path: String
    public var seat: String

    /// `org.freedesktop.login1.Manager.ListSessions()`'s sessions of `uid`.
    public static func all(uid: uid_t, timeout: Duration) -> Result<[LoginSession], BusError> {
        BusQuestion.call(.system, service: "org.freedesktop.login1", path: "/org/freedesktop/login1",
                         interface: "org.freedesktop.login1.Manager", member: "ListSessions",
                         timeout: timeout) { reply -> [LoginSession]? in
            guard wake_sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "(susso)") > 0 else { return nil }
            var found: [LoginSession] = []
            while wake_sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "r")), "susso") > 0 {
                var user: UInt32 = 0
                guard BusQuestion.readString(reply) != nil, wake_sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &user) > 0,
                      BusQuestion.readString(reply) != nil, let seat = BusQuestion.readString(reply),
                      let path = BusQuestion.readString(reply, type: "o"),
                      wake_sd_bus_message_exit_container(reply) >= 0 else { return nil }
                if user == uid { found.append(LoginSession(path: path, seat: seat)) }
            }
            return found
        }
    }
}
