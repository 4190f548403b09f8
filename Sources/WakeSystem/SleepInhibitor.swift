import CSystemd
import Glibc

/// A D-Bus failure: the call and sd-bus's error name and message (or errno).
public struct BusError: Error, CustomStringConvertible {
    public var call: String
    public var name: String?
    public var message: String
    public var description: String { "\(call): \(message)\(name.map { " (\($0))" } ?? "")" }
}

/// A logind inhibitor lock ("never sleep"), taken over the system bus with sd-bus, plus a
/// subscription to logind's PrepareForSleep signal. The lock is a file descriptor: holding it
/// blocks sleep; closing it, or dying, releases it.
public final class SleepInhibitor {
    public private(set) var lockFD: Int32 = -1
    private var bus: OpaquePointer?
    private var slot: OpaquePointer?
    /// Called with `true` before the machine sleeps and `false` after it resumes.
    public var onPrepareForSleep: ((Bool) -> Void)?

    /// Connects to the system bus (`DBUS_SYSTEM_BUS_ADDRESS` if set).
    public init() throws(BusError) {
        var b: OpaquePointer?
        let r = wake_sd_bus_open_system(&b)
        guard r >= 0, let b else { throw BusError(call: "sd_bus_open_system", name: nil, message: "no system bus (\(String(cString: strerror(-r))))") }
        bus = b
    }

    deinit {
        release()
        if let slot { wake_sd_bus_slot_unref(slot) }
        if let bus { wake_sd_bus_flush_close_unref(bus) }
    }

    /// `org.freedesktop.login1.Manager.Inhibit(what, who, why, mode)`; keeps the returned descriptor.
    public func inhibit(what: String, who: String, why: String, mode: String) throws(BusError) {
        guard let bus else { throw BusError(call: "Inhibit", name: nil, message: "no bus") }
        var m: OpaquePointer?
        var r = wake_sd_bus_message_new_method_call(bus, &m, "org.freedesktop.login1", "/org/freedesktop/login1",
                                               "org.freedesktop.login1.Manager", "Inhibit")
        guard r >= 0, let m else { throw BusError(call: "sd_bus_message_new_method_call", name: nil, message: String(cString: strerror(-r))) }
        defer { wake_sd_bus_message_unref(m) }
        for arg in [what, who, why, mode] {
            r = arg.withCString { wake_sd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) }
            if r < 0 { throw BusError(call: "sd_bus_message_append_basic", name: nil, message: String(cString: strerror(-r))) }
        }
        var error = sd_bus_error()
        defer { wake_sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        r = wake_sd_bus_call(bus, m, 5_000_000, &error, &reply)
        guard r >= 0, let reply else {
            let name = error.name.map { String(cString: $0) }
            let message = error.message.map { String(cString: $0) } ?? String(cString: strerror(-r))
            throw BusError(call: "org.freedesktop.login1.Manager.Inhibit", name: name, message: message)
        }
        defer { wake_sd_bus_message_unref(reply) }
        var fd: Int32 = -1
        r = wake_sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "h")), &fd)
        guard r > 0, fd >= 0 else { throw BusError(call: "Inhibit reply", name: nil, message: "no file descriptor in the reply") }
        // The reply owns its descriptor; keep a copy of our own.
        lockFD = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        if lockFD < 0 { throw BusError(call: "fcntl(F_DUPFD_CLOEXEC)", name: nil, message: String(cString: strerror(errno))) }
    }

    public func release() {
        if lockFD >= 0 { close(lockFD) }
        lockFD = -1
    }

    /// Subscribes to PrepareForSleep; the bus descriptor then joins the event loop.
    public func watchSleep() throws(BusError) {
        guard let bus else { return }
        let me = Unmanaged.passUnretained(self).toOpaque()
        // The sender matters: the system bus lets any client send signals, and only logind's count.
        let r = wake_sd_bus_match_signal(bus, &slot, "org.freedesktop.login1", "/org/freedesktop/login1",
                                    "org.freedesktop.login1.Manager", "PrepareForSleep", { m, userdata, _ in
            guard let m, let userdata else { return 0 }
            var value: Int32 = 0
            if wake_sd_bus_message_read_basic(m, CChar(UInt8(ascii: "b")), &value) > 0 {
                let inhibitor = Unmanaged<SleepInhibitor>.fromOpaque(userdata).takeUnretainedValue()
                inhibitor.onPrepareForSleep?(value != 0)
            }
            return 0
        }, me)
        if r < 0 { throw BusError(call: "wake_sd_bus_match_signal(PrepareForSleep)", name: nil, message: String(cString: strerror(-r))) }
        process()
    }

    /// The bus descriptor and the events to poll it for.
    public var pollDescriptor: pollfd? {
        guard let bus, slot != nil else { return nil }
        return BusLoop.pollDescriptor(bus)
    }

    /// Handles whatever arrived on the bus (signals call `onPrepareForSleep`); see `BusLoop.drain`.
    public func process() {
        guard let bus else { return }
        BusLoop.drain(bus)
    }
}
