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
        let name = "org.freedesktop.login1.Manager.\(method)"
        var b: OpaquePointer?
        let opened = wake_sd_bus_open_system(&b)
        guard opened >= 0, let b else {
            return .failure(BusError(call: "sd_bus_open_system", name: nil,
                                     message: "no system bus (\(String(cString: strerror(-opened))))"))
        }
        defer { wake_sd_bus_flush_close_unref(b) }
        var m: OpaquePointer?
        var r = wake_sd_bus_message_new_method_call(b, &m, "org.freedesktop.login1", "/org/freedesktop/login1",
                                                   "org.freedesktop.login1.Manager", method)
        guard r >= 0, let m else {
            return .failure(BusError(call: "sd_bus_message_new_method_call", name: nil, message: String(cString: strerror(-r))))
        }
        defer { wake_sd_bus_message_unref(m) }
        if let argument {
            var v: Int32 = argument ? 1 : 0
            r = wake_sd_bus_message_append_basic(m, CChar(UInt8(ascii: "b")), &v)
            if r < 0 { return .failure(BusError(call: "sd_bus_message_append_basic", name: nil, message: String(cString: strerror(-r)))) }
        }
        var error = sd_bus_error()
        defer { wake_sd_bus_error_free(&error) }
        var answer: OpaquePointer?
        r = wake_sd_bus_call(b, m, UInt64(clamping: max(1, timeout.nanoseconds / 1000)), &error, &answer)
        guard r >= 0, let answer else {
            return .failure(BusError(call: name, name: error.name.map { String(cString: $0) },
                                     message: error.message.map { String(cString: $0) } ?? String(cString: strerror(-r))))
        }
        defer { wake_sd_bus_message_unref(answer) }
        guard type == "s" else { return .success("") }
        var s: UnsafePointer<CChar>?
        guard wake_sd_bus_message_read_basic(answer, CChar(UInt8(ascii: "s")), &s) > 0, let s else {
            return .failure(BusError(call: name, name: nil, message: "no string in the reply"))
        }
        return .success(String(cString: s))
    }
}
