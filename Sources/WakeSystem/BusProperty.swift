import CSystemd
import Glibc

/// One property read over D-Bus (`org.freedesktop.DBus.Properties.Get`), bounded, on its own
/// connection: what `wake doctor` asks of timedated (is the clock synchronised?) and logind
/// (what does a closed lid do?). A service that is not there is an answer too: nil with why.
public enum BusProperty {
    public enum Bus: Sendable { case system, session }

    public enum Value: Equatable, Sendable {
        case bool(Bool)
        case string(String)
    }

    /// `property` of `interface` at `path` of `service`, read as `type` ("b" or "s").
    public static func read(_ bus: Bus, service: String, path: String, interface: String, property: String, type: Character,
                            timeout: Duration = .seconds(1)) -> Result<Value, BusError> {
        let call = "\(interface).\(property)"
        var b: OpaquePointer?
        let opened = bus == .system ? wake_sd_bus_open_system(&b) : wake_sd_bus_open_user(&b)
        guard opened >= 0, let b else {
            return .failure(BusError(call: bus == .system ? "sd_bus_open_system" : "sd_bus_open_user", name: nil,
                                     message: "no \(bus == .system ? "system" : "session") bus (\(String(cString: strerror(-opened))))"))
        }
        defer { wake_sd_bus_flush_close_unref(b) }
        var m: OpaquePointer?
        var r = wake_sd_bus_message_new_method_call(b, &m, service, path, "org.freedesktop.DBus.Properties", "Get")
        guard r >= 0, let m else { return .failure(BusError(call: "sd_bus_message_new_method_call", name: nil, message: String(cString: strerror(-r)))) }
        defer { wake_sd_bus_message_unref(m) }
        for arg in [interface, property] {
            r = arg.withCString { wake_sd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) }
            if r < 0 { return .failure(BusError(call: "sd_bus_message_append_basic", name: nil, message: String(cString: strerror(-r)))) }
        }
        var error = sd_bus_error()
        defer { wake_sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        r = wake_sd_bus_call(b, m, UInt64(clamping: max(1, timeout.nanoseconds / 1000)), &error, &reply)
        guard r >= 0, let reply else {
            return .failure(BusError(call: call, name: error.name.map { String(cString: $0) },
                                     message: error.message.map { String(cString: $0) } ?? String(cString: strerror(-r))))
        }
        defer { wake_sd_bus_message_unref(reply) }
        let signature = String(type)
        guard wake_sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "v")), signature) > 0 else {
            return .failure(BusError(call: call, name: nil, message: "the reply is not a variant of type '\(signature)'"))
        }
        if type == "b" {
            var v: Int32 = 0
            guard wake_sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "b")), &v) > 0 else {
                return .failure(BusError(call: call, name: nil, message: "no boolean in the reply"))
            }
            return .success(.bool(v != 0))
        }
        var s: UnsafePointer<CChar>?
        guard wake_sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &s) > 0, let s else {
            return .failure(BusError(call: call, name: nil, message: "no string in the reply"))
        }
        return .success(.string(String(cString: s)))
    }
}
