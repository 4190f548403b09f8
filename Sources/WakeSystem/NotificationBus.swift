import CSystemd
import Glibc
import WakeCore

/// The freedesktop Notifications service on the user's session bus, through sd-bus.
///
/// Nothing here waits for the server but `probe`: opening the connection only starts its
/// handshake, Notify and CloseNotification are queued and answered through callbacks, and all
/// of it moves when `process()` runs from the event loop. A slow or hung notification server
/// (or session bus) therefore never holds up a ring; it only leaves a notification unshown.
public final class NotificationBus {
    public static let service = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    /// The icon named in each notice (the icon theme's, as the sound server's stream says it too).
    static let icon = "alarm-clock"
    /// wake.desktop, by its name without `.desktop`.
    static let desktopEntry = "wake"
    /// No category of the specification fits an alarm: a vendor one, as it allows (`x-vendor.class`).
    static let category = "x-wake.alarm"

    /// What the server says about itself (GetServerInformation, GetCapabilities).
    public struct ServerInfo: Hashable, Sendable {
        public var name: String
        public var vendor: String
        public var version: String
        public var capabilities: [String]
        /// Whether it shows buttons at all.
        public var hasActions: Bool { capabilities.contains("actions") }
    }

    private var bus: OpaquePointer?
    /// Notify replies awaited, by the cookie of the call.
    private var replies: [UInt64: (Result<UInt32, BusError>) -> Void] = [:]
    /// A button pressed: the notification's id and the button's key.
    public var onAction: ((UInt32, String) -> Void)?
    /// The server closed a notification (dismissed by the user, expired, or at our request).
    public var onClosed: ((UInt32) -> Void)?
    /// The subscription to the server's signals failed: buttons will not work.
    public var onWatchFailed: ((BusError) -> Void)?

    /// Opens the session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`), or the
    /// bus at `address` (tests, which run several, and never change the process's environment).
    /// The socket connects at once or fails at once; the authentication and Hello that follow
    /// are sent and read by `process()`, so this never waits for the bus daemon.
    public init(address: String? = nil) throws(BusError) {
        let b = try Self.open(address: address)
        bus = b
        _ = wake_sd_bus_set_description(b, "wake-notify")
    }

    /// A client connection to the session bus, or to the bus at `address`, started (handshake
    /// under way).
    static func open(address: String?) throws(BusError) -> OpaquePointer {
        var b: OpaquePointer?
        guard let address else {
            // With nothing to connect to, the answer libsystemd would give, without loading it.
            let r = sessionBusAbsent ? -ENOENT : wake_sd_bus_open_user(&b)
            guard r >= 0, let b else { throw BusError(call: "sd_bus_open_user", name: nil, message: "no session bus (\(text(errno: r)))") }
            return b
        }
        var r = wake_sd_bus_new(&b)
        guard r >= 0, let bus = b else { throw error("sd_bus_new", r) }
        r = wake_sd_bus_set_address(bus, address)
        if r >= 0 { r = wake_sd_bus_set_bus_client(bus, 1) }
        if r >= 0 { r = wake_sd_bus_start(bus) }
        if r < 0 {
            wake_sd_bus_close_unref(bus)
            throw BusError(call: "sd_bus_start", name: nil, message: "cannot connect to '\(address)' (\(text(errno: r)))")
        }
        return bus
    }

    deinit {
        // Never sd_bus_flush: it waits without a bound. `flush(within:)` is the bounded one.
        if let bus { wake_sd_bus_close_unref(bus) }
    }

    /// True when sd_bus_open_user would find nothing to connect to: no DBUS_SESSION_BUS_ADDRESS
    /// and no socket at `$XDG_RUNTIME_DIR/bus`. Said without loading libsystemd, which brings
    /// five compression and crypto libraries (1.2 MB of a headless daemon's memory, for a
    /// notification that has no desktop to go to); the error is the one libsystemd gives.
    static var sessionBusAbsent: Bool {
        if let address = getenv("DBUS_SESSION_BUS_ADDRESS"), address.pointee != 0 { return false }
        guard let dir = getenv("XDG_RUNTIME_DIR"), dir.pointee != 0 else { return false }
        var st = stat()
        return lstat(String(cString: dir) + "/bus", &st) != 0 && errno == ENOENT
    }

    static func text(errno r: Int32) -> String { String(cString: strerror(r < 0 ? -r : r)) }

    static func error(_ call: String, _ r: Int32) -> BusError { BusError(call: call, name: nil, message: text(errno: r)) }

    static func error(_ call: String, _ e: UnsafePointer<sd_bus_error>?, _ r: Int32) -> BusError {
        let name = e?.pointee.name.map { String(cString: $0) }
        let message = e?.pointee.message.map { String(cString: $0) } ?? text(errno: r)
        return BusError(call: call, name: name, message: message)
    }

    /// Whether the connection is up or still coming up (false once it has failed or closed).
    public var isOpen: Bool { bus.map { wake_sd_bus_is_open($0) > 0 } ?? false }

    // MARK: signals

    /// Subscribes, without waiting for the bus daemon's answer, to ActionInvoked and
    /// NotificationClosed from whoever owns the service's name: any client on a session bus may
    /// send a signal with that interface, and only the server's count.
    public func watch() throws(BusError) {
        guard let bus else { throw BusError(call: "sd_bus_match_signal_async", name: nil, message: "no bus") }
        let me = Unmanaged.passUnretained(self).toOpaque()
        for member in ["ActionInvoked", "NotificationClosed"] {
            // Floating slots: they live as long as the connection, which this object owns.
            let r = wake_sd_bus_match_signal_async(bus, nil, Self.service, Self.path, Self.interface, member, { m, userdata, _ in
                guard let m, let userdata else { return 0 }
                Unmanaged<NotificationBus>.fromOpaque(userdata).takeUnretainedValue().signal(m)
                return 0
            }, { m, userdata, _ in
                // Without this handler sd-bus would close the connection when AddMatch fails.
                guard let m, let userdata, wake_sd_bus_message_is_method_error(m, nil) > 0 else { return 0 }
                let me = Unmanaged<NotificationBus>.fromOpaque(userdata).takeUnretainedValue()
                me.onWatchFailed?(NotificationBus.error("AddMatch", wake_sd_bus_message_get_error(m), wake_sd_bus_message_get_errno(m)))
                return 0
            }, me)
            if r < 0 { throw Self.error("wake_sd_bus_match_signal_async(\(member))", r) }
        }
    }

    private func signal(_ m: OpaquePointer) {
        guard let member = wake_sd_bus_message_get_member(m).map({ String(cString: $0) }) else { return }
        var id: UInt32 = 0
        guard wake_sd_bus_message_read_basic(m, CChar(UInt8(ascii: "u")), &id) > 0 else { return }
        switch member {
        case "ActionInvoked":
            var key: UnsafePointer<CChar>?
            guard wake_sd_bus_message_read_basic(m, CChar(UInt8(ascii: "s")), &key) > 0, let key else { return }
            onAction?(id, String(cString: key))
        case "NotificationClosed":
            onClosed?(id)
        default:
            break
        }
    }

    // MARK: calls

    /// `Notify("wake", replaces, "alarm-clock", summary, body, actions, hints, 0)`, queued (`hints`:
    /// urgency, resident, and the desktop's conventions: `MessageWriter.hints`);
    /// `reply` gets the id the server gave it, or why not (also when no answer came within
    /// `timeout`, once `process()` runs after it).
    public func notify(_ notice: DesktopNotice, replacing id: UInt32, timeout: Duration = .seconds(25),
                       reply: @escaping (Result<UInt32, BusError>) -> Void) throws(BusError) {
        let m = try methodCall("Notify")
        defer { wake_sd_bus_message_unref(m) }
        let w = MessageWriter(m)
        try w.string("wake")
        try w.uint32(id)
        try w.string(Self.icon)
        try w.string(notice.summary)
        try w.string(notice.body)
        try w.strings(notice.buttons.flatMap { [$0.key, $0.label] })
        try w.hints(urgency: notice.urgency.rawValue, resident: notice.resident)
        try w.int32(0)  // never expires: it goes when the alarm does
        try send(m, "Notify", timeout: timeout, reply: reply)
    }

    /// `CloseNotification(id)`, queued; its answer is not awaited.
    public func close(_ id: UInt32) throws(BusError) {
        guard let bus else { throw BusError(call: "CloseNotification", name: nil, message: "no bus") }
        let m = try methodCall("CloseNotification")
        defer { wake_sd_bus_message_unref(m) }
        try MessageWriter(m).uint32(id)
        var r = wake_sd_bus_message_set_expect_reply(m, 0)
        if r < 0 { throw Self.error("sd_bus_message_set_expect_reply", r) }
        r = wake_sd_bus_send(bus, m, nil)
        if r < 0 { throw Self.error("wake_sd_bus_send(CloseNotification)", r) }
    }

    private func methodCall(_ member: String) throws(BusError) -> OpaquePointer {
        guard let bus else { throw BusError(call: member, name: nil, message: "no bus") }
        var m: OpaquePointer?
        let r = wake_sd_bus_message_new_method_call(bus, &m, Self.service, Self.path, Self.interface, member)
        guard r >= 0, let m else { throw Self.error("wake_sd_bus_message_new_method_call(\(member))", r) }
        return m
    }

    /// Queues `m`; the reply, read as one `u`, goes to `reply` when `process()` dispatches it.
    private func send(_ m: OpaquePointer, _ name: String, timeout: Duration, reply: @escaping (Result<UInt32, BusError>) -> Void) throws(BusError) {
        guard let bus else { throw BusError(call: name, name: nil, message: "no bus") }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let usec = UInt64(clamping: max(1, timeout.nanoseconds / 1000))
        let r = wake_sd_bus_call_async(bus, nil, m, { m, userdata, _ in
            guard let m, let userdata else { return 0 }
            Unmanaged<NotificationBus>.fromOpaque(userdata).takeUnretainedValue().replied(m)
            return 0
        }, me, usec)
        if r < 0 { throw Self.error("wake_sd_bus_call_async(\(name))", r) }
        var cookie: UInt64 = 0
        let c = wake_sd_bus_message_get_cookie(m, &cookie)
        if c < 0 { throw Self.error("wake_sd_bus_message_get_cookie(\(name))", c) }
        replies[cookie] = reply
    }

    private func replied(_ m: OpaquePointer) {
        var cookie: UInt64 = 0
        guard wake_sd_bus_message_get_reply_cookie(m, &cookie) >= 0, let reply = replies.removeValue(forKey: cookie) else { return }
        if wake_sd_bus_message_is_method_error(m, nil) > 0 {
            reply(.failure(Self.error("org.freedesktop.Notifications.Notify", wake_sd_bus_message_get_error(m), wake_sd_bus_message_get_errno(m))))
            return
        }
        var id: UInt32 = 0
        let r = wake_sd_bus_message_read_basic(m, CChar(UInt8(ascii: "u")), &id)
        reply(r > 0 ? .success(id) : .failure(BusError(call: "Notify reply", name: nil, message: "no notification id in the reply")))
    }

    // MARK: the event loop

    /// The bus descriptor and the events to poll it for; nil once the connection is gone.
    public var pollDescriptor: pollfd? { bus.flatMap(BusLoop.openPollDescriptor) }

    /// Reads, writes and dispatches whatever can move without waiting (replies, signals, the
    /// handshake, timeouts that passed); see `BusLoop.drain`.
    public func process() {
        guard let bus else { return }
        BusLoop.drain(bus)
    }

    /// Waits at most `limit` for the bus to have something to do, then does it: for the end of
    /// a process, when the event loop no longer turns.
    public func turn(within limit: Duration) {
        guard limit > .zero, let p = pollDescriptor else { return process() }
        var fds = [p]
        _ = try? Poll.wait(&fds, timeout: limit)  // a failed wait only means processing now
        process()
    }

    /// At exit: writes what is queued (a CloseNotification) for at most `limit`; see `BusLoop.flush`.
    public func flush(within limit: Duration) {
        guard let bus else { return }
        BusLoop.flush(bus, within: limit)
    }

    // MARK: the arm-time check

    /// Asks the server who it is and what it can do, on a connection of its own, waiting up to
    /// `timeout` for each answer. It blocks (and sd-bus may wait longer for a bus daemon that
    /// does not finish the handshake): run it only through a bounded call, at arm time.
    public static func probe(timeout: Duration) throws(BusError) -> ServerInfo {
        let connection = try NotificationBus()
        guard let bus = connection.bus else { throw BusError(call: "sd_bus_open_user", name: nil, message: "no bus") }
        let usec = UInt64(clamping: max(1, timeout.nanoseconds / 1000))
        func call(_ member: String) throws(BusError) -> OpaquePointer {
            let m = try connection.methodCall(member)
            defer { wake_sd_bus_message_unref(m) }
            var error = sd_bus_error()
            defer { wake_sd_bus_error_free(&error) }
            var reply: OpaquePointer?
            let r = wake_sd_bus_call(bus, m, usec, &error, &reply)
            guard r >= 0, let reply else { throw Self.error("org.freedesktop.Notifications.\(member)", &error, r) }
            return reply
        }
        let info = try call("GetServerInformation")
        defer { wake_sd_bus_message_unref(info) }
        var fields: [String] = []
        for _ in 0..<3 {
            var s: UnsafePointer<CChar>?
            guard wake_sd_bus_message_read_basic(info, CChar(UInt8(ascii: "s")), &s) > 0, let s else {
                throw BusError(call: "GetServerInformation reply", name: nil, message: "not the (ssss) the specification gives")
            }
            fields.append(String(cString: s))
        }
        let caps = try call("GetCapabilities")
        defer { wake_sd_bus_message_unref(caps) }
        var capabilities: [String] = []
        var r = wake_sd_bus_message_enter_container(caps, CChar(UInt8(ascii: "a")), "s")
        if r < 0 { throw Self.error("GetCapabilities reply", r) }
        while true {
            var s: UnsafePointer<CChar>?
            r = wake_sd_bus_message_read_basic(caps, CChar(UInt8(ascii: "s")), &s)
            if r < 0 { throw Self.error("GetCapabilities reply", r) }
            guard r > 0, let s else { break }
            capabilities.append(String(cString: s))
        }
        return ServerInfo(name: fields[0], vendor: fields[1], version: fields[2], capabilities: capabilities)
    }
}

/// Appends arguments to an sd-bus message, each failure a BusError naming the call.
private struct MessageWriter {
    let m: OpaquePointer
    init(_ m: OpaquePointer) { self.m = m }

    private func check(_ call: String, _ r: Int32) throws(BusError) {
        if r < 0 { throw NotificationBus.error(call, r) }
    }

    func string(_ s: String) throws(BusError) {
        try check("wake_sd_bus_message_append_basic(s)", s.withCString { wake_sd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) })
    }

    func uint32(_ v: UInt32) throws(BusError) {
        var v = v
        try check("wake_sd_bus_message_append_basic(u)", wake_sd_bus_message_append_basic(m, CChar(UInt8(ascii: "u")), &v))
    }

    func int32(_ v: Int32) throws(BusError) {
        var v = v
        try check("wake_sd_bus_message_append_basic(i)", wake_sd_bus_message_append_basic(m, CChar(UInt8(ascii: "i")), &v))
    }

    func strings(_ list: [String]) throws(BusError) {
        try check("wake_sd_bus_message_open_container(as)", wake_sd_bus_message_open_container(m, CChar(UInt8(ascii: "a")), "s"))
        for s in list { try string(s) }
        try check("wake_sd_bus_message_close_container(as)", wake_sd_bus_message_close_container(m))
    }

    /// `a{sv}` with `urgency` (byte) and `resident` (boolean), and what a desktop keys on:
    /// `desktop-entry` (GNOME groups the notices under wake.desktop and lists wake in its
    /// notification settings), `category`, and `suppress-sound` (the server's own chime would
    /// play over the alarm).
    func hints(urgency: UInt8, resident: Bool) throws(BusError) {
        try check("wake_sd_bus_message_open_container(a{sv})", wake_sd_bus_message_open_container(m, CChar(UInt8(ascii: "a")), "{sv}"))
        var byte = urgency
        try entry("urgency", "y") { wake_sd_bus_message_append_basic(m, CChar(UInt8(ascii: "y")), &byte) }
        var flag: Int32 = resident ? 1 : 0
        try entry("resident", "b") { wake_sd_bus_message_append_basic(m, CChar(UInt8(ascii: "b")), &flag) }
        var yes: Int32 = 1
        try entry("suppress-sound", "b") { wake_sd_bus_message_append_basic(m, CChar(UInt8(ascii: "b")), &yes) }
        for (key, value) in [("desktop-entry", NotificationBus.desktopEntry), ("category", NotificationBus.category)] {
            try entry(key, "s") { value.withCString { wake_sd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) } }
        }
        try check("wake_sd_bus_message_close_container(a{sv})", wake_sd_bus_message_close_container(m))
    }

    private func entry(_ key: String, _ type: String, _ value: () -> Int32) throws(BusError) {
        try check("wake_sd_bus_message_open_container({sv})", wake_sd_bus_message_open_container(m, CChar(UInt8(ascii: "e")), "sv"))
        try string(key)
        try check("wake_sd_bus_message_open_container(v)", wake_sd_bus_message_open_container(m, CChar(UInt8(ascii: "v")), type))
        try check("wake_sd_bus_message_append_basic(\(type))", value())
        try check("wake_sd_bus_message_close_container(v)", wake_sd_bus_message_close_container(m))
        try check("wake_sd_bus_message_close_container({sv})", wake_sd_bus_message_close_container(m))
    }
}
