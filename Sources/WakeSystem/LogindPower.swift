import CSystemd
import Glibc

/// logind's power actions, as an ordinary user asks them (`org.freedesktop.login1.Manager`):
/// whether the machine may be suspended or powered off now (`CanSuspend`, `CanPowerOff`: "yes"
/// for an active local session under the default polkit rules), and the request itself,
/// non-interactive. Each call on a connection of its own, bounded by `timeout`.
public enum LogindPower {
    public enum Action: Sendable {
        case suspend, powerOff

        var method: String { self == .suspend ? "Suspend" : "PowerOff" }
        var question: String { self == .suspend ? "CanSuspend" : "CanPowerOff" }
    }

    /// logind's answer to CanSuspend or CanPowerOff ("yes", "no", "challenge", "na"), or why it
    /// could not be asked.
    public static func can(_ action: Action, timeout: Duration = .seconds(2)) -> Result<String, BusError> {
        call(action.question, argument: nil, reply: "s", timeout: timeout)
    }

    /// Suspends or powers off now; fails as logind refuses (an inhibitor that blocks it, no right).
    public static func request(_ action: Action, timeout: Duration = .seconds(5)) -> Result<Void, BusError> {
        call(action.method, argument: false, reply: nil, timeout: timeout).map { _ in () }
    }

    private static func call(_ method: String, argument: Bool?, reply type: Character?, timeout: Duration) -> Result<String, BusError> {
        BusQuestion.call(.system, service: "org.freedesktop.login1", path: "/org/freedesktop/login1",
                         interface: "org.freedesktop.login1.Manager", member: method, timeout: timeout, append: { m in
                         guard let argument else { return 0 }
                         var v: Int32 = argument ? 1 : 0
                         return wake_sd_bus_message_append_basic(m, CChar(UInt8(ascii: "b")), &v)
                     }, read: { reply in type == "s" ? BusQuestion.readString(reply) : "" })
    }
}
