import CSystemd
import Glibc

/// One method call over D-Bus on a connection of its own, bounded by `timeout`, for the short
/// questions wake asks of system services (timedated, logind): the connection, the message, the
/// call and the error made once, the arguments and the reply's reading given by the caller.
enum BusQuestion {
    /// `interface.member` at `path` of `service` on `bus`; `append` adds the arguments (an sd-bus
    /// return code), `read` takes what the reply says (nil: it is not what was asked).
    static func call<T>(_ bus: BusProperty.Bus, service: String, path: String, interface: String, member: String,
                        timeout: Duration, append: (OpaquePointer) -> Int32 = { _ in 0 },
                        read: (OpaquePointer) -> T?) -> Result<T, BusError> {
        let name = "\(interface).\(member)"
        var b: OpaquePointer?
        let opened = bus == .system ? wake_sd_bus_open_system(&b) : wake_sd_bus_open_user(&b)
        guard opened >= 0, let b else {
            return .failure(BusError(call: bus == .system ? "sd_bus_open_system" : "sd_bus_open_user", name: nil,
                                     message: "no \(bus == .system ? "system" : "session") bus (\(String(cString: strerror(-opened))))"))
        }
        defer { wake_sd_bus_flush_close_unref(b) }
        var m: OpaquePointer?
        var r = wake_sd_bus_message_new_method_call(b, &m, service, path, interface, member)
        guard r >= 0, let m else {
            return .failure(BusError(call: "sd_bus_message_new_method_call", name: nil, message: String(cString: strerror(-r))))
        }
        defer { wake_sd_bus_message_unref(m) }
        r = append(m)
        if r < 0 { return .failure(BusError(call: "sd_bus_message_append_basic", name: nil, message: String(cString: strerror(-r)))) }
        var error = sd_bus_error()
        defer { wake_sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        r = wake_sd_bus_call(b, m, UInt64(clamping: max(1, timeout.nanoseconds / 1000)), &error, &reply)
        guard r >= 0, let reply else {
            return .failure(BusError(call: name, name: error.name.map { String(cString: $0) },
                                     message: error.message.map { String(cString: $0) } ?? String(cString: strerror(-r))))
        }
        defer { wake_sd_bus_message_unref(reply) }
        guard let value = read(reply) else { return .failure(BusError(call: name, name: nil, message: "the reply is not what was asked")) }
        return .success(value)
    }

    /// Appends a string argument.
    static func appendString(_ m: OpaquePointer, _ s: String) -> Int32 {
        s.withCString { wake_sd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) }
    }

    /// Reads a basic string-like value (`s` or `o`) of the reply.
    static func readString(_ m: OpaquePointer, type: Character = "s") -> String? {
        var s: UnsafePointer<CChar>?
        guard wake_sd_bus_message_read_basic(m, CChar(type.asciiValue ?? 0), &s) > 0, let s else { return nil }
        return String(cString: s)
    }
}
