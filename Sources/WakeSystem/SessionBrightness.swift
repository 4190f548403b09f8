import CSystemd
import Glibc

/// Sets a backlight as the seat's user, without root: logind's
/// `org.freedesktop.login1.Session.SetBrightness(subsystem, name, value)` (systemd 243 and
/// later), which writes the device's `brightness` for the owner of a session on the seat the
/// device belongs to. Each call on a connection of its own, bounded by `timeout`.
public enum SessionBrightness {
    /// Why no session can set it.
    public enum Obstacle: Error, CustomStringConvertible {
        case bus(BusError)
        /// The user has sessions, none on a seat (an ssh login, a lingering user service).
        case noSeat
        public var description: String {
            switch self {
            case .bus(let e): return "logind cannot be asked: \(e)"
            case .noSeat: return "no login session of this user is on a seat (logind sets a backlight only for the seat's user)"
            }
        }
    }

    /// The session through which `uid` sets a backlight: one on a seat, an active one first.
    public static func seatSession(uid: uid_t = getuid(), timeout: Duration = .seconds(1)) -> Result<String, Obstacle> {
        let sessions: [LoginSession]
        switch LoginSession.all(uid: uid, timeout: timeout) {
        case .failure(let e): return .failure(.bus(e))
        case .success(let found): sessions = found.filter { !$0.seat.isEmpty }
        }
        func active(_ s: LoginSession) -> Bool {
            if case .success(.bool(true)) = BusProperty.read(.system, service: "org.freedesktop.login1", path: s.path,
                                                             interface: "org.freedesktop.login1.Session", property: "Active",
                                                             type: "b", timeout: timeout) { return true }
            return false
        }
        guard let chosen = sessions.first(where: active) ?? sessions.first else { return .failure(.noSeat) }
        return .success(chosen.path)
    }

    /// Sets `backlight` to `level` through `session`.
    public static func set(_ backlight: Backlight, to level: Int, session: String,
                           timeout: Duration = .seconds(2)) -> Result<Void, BusError> {
        BusQuestion.call(.system, service: "org.freedesktop.login1", path: session, interface: "org.freedesktop.login1.Session",
                         member: "SetBrightness", timeout: timeout, append: { m in
            var value = UInt32(clamping: level)
            let r = BusQuestion.appendString(m, "backlight")
            guard r >= 0 else { return r }
            let n = BusQuestion.appendString(m, backlight.name)
            return n < 0 ? n : wake_sd_bus_message_append_basic(m, CChar(UInt8(ascii: "u")), &value)
        }, read: { _ in () })
    }
}
