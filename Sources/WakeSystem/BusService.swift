import CSystemd
import Glibc
import WakeCore

/// A method call to one of wake's objects: who sent it, to what, with which arguments.
public struct BusCall: Sendable {
    public var path: String
    public var interface: String
    public var member: String
    /// The caller's unique bus name (`:1.42`).
    public var sender: String
    public var arguments: [BusValue]
    /// The caller with its process, as the bus daemon said when it first called: recorded with
    /// what it asked, so a snooze nobody remembers can be traced to the program that sent it.
    public var caller: BusCaller
}

/// The answer to a `BusCall`.
public enum BusReply: Sendable {
    case values([BusValue])
    case error(name: String, message: String)
    /// Answered later through the `BusPendingReply` the handler took with `BusService.deferReply()`:
    /// work that may block (a sound file decoded, a device probed) runs off the loop.
    case deferred

    public static let done = BusReply.values([])

    public static func invalidArgs(_ message: String) -> BusReply { .error(name: "org.freedesktop.DBus.Error.InvalidArgs", message: message) }
    public static func unknownMethod(_ call: BusCall) -> BusReply {
        .error(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method '\(call.member)' in interface '\(call.interface)' at '\(call.path)'")
    }
}

/// A method call answered later: kept from the handler (`BusService.deferReply()`), answered
/// once from the loop's thread. One never answered is answered with an error when it goes, so
/// no caller waits for its timeout.
public final class BusPendingReply {
    private weak var service: BusService?
    private var message: OpaquePointer?

    init(service: BusService, message: OpaquePointer) {
        self.service = service
        self.message = message
    }

    public func answer(_ reply: BusReply) {
        guard let m = message else { return }
        message = nil
        service?.answer(m, reply)
        wake_sd_bus_message_unref(m)
    }

    deinit { answer(.error(name: "org.freedesktop.DBus.Error.Failed", message: "the call was dropped unanswered (the service is ending)")) }
}

/// wake's side of a service on the session bus: owns names, answers calls to the object paths
/// it serves, sends signals. Like `NotificationBus`, nothing here waits for the bus daemon:
/// the connection, the name request and every reply move when `process()` runs from the event
/// loop, so a hung bus never holds up a ring.
public final class BusService {
    private var bus: OpaquePointer?
    private var handlers: [Handler] = []
    private var slots: [OpaquePointer] = []
    private var nameReplies: [String: (Result<Void, BusError>) -> Void] = [:]
    /// The call being dispatched, while its handler runs: what `deferReply()` keeps.
    private var dispatching: OpaquePointer?
    /// Who is behind each unique name that has called (names are never reused on a bus), and
    /// the calls that wait for the bus daemon's answer about a new one (`CallerQuery`).
    private var callers = CallerBook()
    private var waitingCalls: [String: [(OpaquePointer, Handler)]] = [:]
    /// The questions about callers on their way, each holding the +1 sd-bus's callback takes:
    /// a floating slot is freed without its callback when the bus closes, so `close()`
    /// releases what is left here (callback and close both run on the loop's thread).
    private var inFlight: [String: Unmanaged<CallerQuery>] = [:]

    /// A box for the handler sd-bus calls back with; kept alive by `handlers`.
    private final class Handler {
        let prefix: String
        let subtree: Bool
        let handle: (BusCall) -> BusReply?
        unowned let service: BusService
        init(prefix: String, subtree: Bool, handle: @escaping (BusCall) -> BusReply?, service: BusService) {
            self.prefix = prefix; self.subtree = subtree; self.handle = handle; self.service = service
        }
    }

    /// Opens the session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`); the
    /// handshake goes on in `process()`.
    /// `address`: another bus than the session's (`unix:path=...`), for tests that run several.
    public init(description: String, address: String? = nil) throws(BusError) {
        let b = try NotificationBus.open(address: address)
        bus = b
        _ = wake_sd_bus_set_description(b, description)
    }

    deinit { close() }

    /// Leaves the bus: every name it owned is released by the bus daemon with the connection.
    /// Queued signals are written first, for at most `flushing`.
    public func close(flushing limit: Duration = .zero) {
        guard let bus else { return }
        if limit > .zero { flush(within: limit) }
        for s in slots { wake_sd_bus_slot_unref(s) }
        slots = []
        // Calls still waiting for their caller's answer go unanswered with the connection.
        for (_, calls) in waitingCalls { for (m, _) in calls { wake_sd_bus_message_unref(m) } }
        waitingCalls = [:]
        wake_sd_bus_close_unref(bus)
        self.bus = nil
        // Closed, the bus runs no callback again: the questions it dropped are released here.
        for (_, query) in inFlight { query.release() }
        inFlight = [:]
        handlers = []
    }

    public var isOpen: Bool { bus.map { wake_sd_bus_is_open($0) > 0 } ?? false }

    // MARK: names

    /// Asks for `name` without waiting; `done` gets `.success` once it is ours, or why not
    /// (taken by another connection: "exists"). Queued behind no owner: an alarm's media player
    /// that is not the one media keys reach is worse than one that takes another name.
    public func requestName(_ name: String, done: @escaping (Result<Void, BusError>) -> Void) throws(BusError) {
        guard let bus else { throw BusError(call: "RequestName", name: nil, message: "no bus") }
        nameReplies[name] = done
        let box = Unmanaged.passRetained(NameBox(service: self, name: name)).toOpaque()
        var slot: OpaquePointer?
        let r = wake_sd_bus_request_name_async(bus, &slot, name, 0, { m, userdata, _ in
            guard let userdata else { return 0 }
            let box = Unmanaged<NameBox>.fromOpaque(userdata).takeRetainedValue()
            box.service?.nameAnswered(box.name, m)
            return 1
        }, box)
        if r < 0 {
            Unmanaged<NameBox>.fromOpaque(box).release()
            nameReplies[name] = nil
            throw NotificationBus.error("sd_bus_request_name_async(\(name))", r)
        }
        if let slot { slots.append(slot) }
    }

    private final class NameBox {
        weak var service: BusService?
        let name: String
        init(service: BusService, name: String) { self.service = service; self.name = name }
    }

    private func nameAnswered(_ name: String, _ m: OpaquePointer?) {
        guard let done = nameReplies.removeValue(forKey: name) else { return }
        guard let m else { return done(.failure(BusError(call: "RequestName", name: nil, message: "no answer"))) }
        if wake_sd_bus_message_is_method_error(m, nil) > 0 {
            return done(.failure(NotificationBus.error("RequestName(\(name))", wake_sd_bus_message_get_error(m), wake_sd_bus_message_get_errno(m))))
        }
        var code: UInt32 = 0
        _ = wake_sd_bus_message_read_basic(m, CChar(UInt8(ascii: "u")), &code)
        // 1: primary owner; 4: already ours. 2 (queued) cannot happen without the queue flag; 3: exists.
        if code == 1 || code == 4 { return done(.success(())) }
        done(.failure(BusError(call: "RequestName(\(name))", name: "org.freedesktop.DBus.Error.NameExists", message: "the name '\(name)' is owned by another connection")))
    }

    /// The connection's unique name (`:1.42`), once the handshake is done.
    public var uniqueName: String? {
        guard let bus else { return nil }
        var p: UnsafePointer<CChar>?
        guard wake_sd_bus_get_unique_name(bus, &p) >= 0, let p else { return nil }
        return String(cString: p)
    }

    // MARK: objects

    /// Answers calls to `path` (and, with `subtree`, every path beneath it) with `handle`; a nil
    /// answer is UnknownMethod. sd-bus itself answers org.freedesktop.DBus.Peer.
    public func serve(path: String, subtree: Bool = false, handle: @escaping (BusCall) -> BusReply?) throws(BusError) {
        guard let bus else { throw BusError(call: "sd_bus_add_object", name: nil, message: "no bus") }
        let handler = Handler(prefix: path, subtree: subtree, handle: handle, service: self)
        let me = Unmanaged.passUnretained(handler).toOpaque()
        var slot: OpaquePointer?
        let callback: sd_bus_message_handler_t = { m, userdata, _ in
            guard let m, let userdata else { return 0 }
            let handler = Unmanaged<Handler>.fromOpaque(userdata).takeUnretainedValue()
            return handler.service.dispatch(m, handler)
        }
        let r = subtree ? wake_sd_bus_add_fallback(bus, &slot, path, callback, me) : wake_sd_bus_add_object(bus, &slot, path, callback, me)
        if r < 0 { throw NotificationBus.error(subtree ? "sd_bus_add_fallback(\(path))" : "sd_bus_add_object(\(path))", r) }
        handlers.append(handler)
        if let slot { slots.append(slot) }
    }

    /// A call from a name not met before waits (a few milliseconds) for the bus daemon to say
    /// which process it is; never the loop: the question is asked and answered asynchronously.
    private func dispatch(_ m: OpaquePointer, _ handler: Handler) -> Int32 {
        guard wake_sd_bus_message_is_method_call(m, nil, nil) > 0 else { return 0 }
        let sender = wake_sd_bus_message_get_sender(m).map { String(cString: $0) } ?? ""
        if sender.isEmpty { return run(m, handler, caller: BusCaller(uniqueName: sender)) }
        if let known = callers.known[sender] { return run(m, handler, caller: known) }
        guard wake_sd_bus_message_ref(m) != nil else { return run(m, handler, caller: BusCaller(uniqueName: sender)) }
        let first = waitingCalls[sender] == nil
        waitingCalls[sender, default: []].append((m, handler))
        if first && !askWhoIs(sender) { resolved(BusCaller(uniqueName: sender)) }
        return 1
    }

    private func run(_ m: OpaquePointer, _ handler: Handler, caller: BusCaller) -> Int32 {
        func text(_ p: UnsafePointer<CChar>?) -> String { p.map { String(cString: $0) } ?? "" }
        let arguments: [BusValue]
        do { arguments = try BusMessageCoding.readAll(m) } catch {
            return reply(to: m, .invalidArgs("cannot read the arguments: \(error.message)"))
        }
        let call = BusCall(path: text(wake_sd_bus_message_get_path(m)), interface: text(wake_sd_bus_message_get_interface(m)),
                           member: text(wake_sd_bus_message_get_member(m)), sender: caller.uniqueName, arguments: arguments,
                           caller: caller)
        // sd-bus has answered Peer before this; anything else the handler does not know is an error, never silence.
        dispatching = m
        defer { dispatching = nil }
        guard let answer = handler.handle(call) else { return reply(to: m, .unknownMethod(call)) }
        return reply(to: m, answer)
    }

    /// Asks the bus daemon for `sender`'s PID (GetConnectionUnixProcessID); false when the
    /// question could not be sent.
    private func askWhoIs(_ sender: String) -> Bool {
        guard let bus else { return false }
        var m: OpaquePointer?
        guard wake_sd_bus_message_new_method_call(bus, &m, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                  "GetConnectionUnixProcessID") >= 0, let m else { return false }
        defer { wake_sd_bus_message_unref(m) }
        guard (try? BusMessageCoding.append(.string(sender), to: m)) != nil else { return false }
        let query = Unmanaged.passRetained(CallerQuery(service: self, sender: sender))
        inFlight[sender] = query
        let r = wake_sd_bus_call_async(bus, nil, m, { reply, userdata, _ in
            guard let userdata else { return 0 }
            let query = Unmanaged<CallerQuery>.fromOpaque(userdata).takeUnretainedValue()
            // The +1 is the service's entry: taken out, it is released once the answer is used.
            guard let service = query.service, let held = service.inFlight.removeValue(forKey: query.sender) else { return 0 }
            defer { held.release() }
            var pid: UInt32 = 0
            let known = reply.map { wake_sd_bus_message_is_method_error($0, nil) == 0
                && wake_sd_bus_message_read_basic($0, CChar(UInt8(ascii: "u")), &pid) > 0 } ?? false
            service.resolved(known ? BusCaller(uniqueName: query.sender, pid: Int32(bitPattern: pid),
                                               program: CurrentProcess.name(of: Int32(bitPattern: pid)))
                                   : BusCaller(uniqueName: query.sender))
            return 0
        }, query.toOpaque(), 1_000_000)
        if r < 0 {
            inFlight[sender] = nil
            query.release()
            return false
        }
        return true
    }

    /// The answer about a caller came (or could not): its waiting calls run, in order.
    private func resolved(_ caller: BusCaller) {
        callers.remember(caller)
        for (m, handler) in waitingCalls.removeValue(forKey: caller.uniqueName) ?? [] {
            _ = run(m, handler, caller: caller)
            wake_sd_bus_message_unref(m)
        }
    }

    /// From inside a handler: the call it is answering, kept so that it can be answered after
    /// the handler has returned `.deferred`. Nil outside a handler.
    public func deferReply() -> BusPendingReply? {
        guard let m = dispatching, wake_sd_bus_message_ref(m) != nil else { return nil }
        return BusPendingReply(service: self, message: m)
    }

    /// Sends `answer` to `call` (kept by a `BusPendingReply`).
    func answer(_ call: OpaquePointer, _ answer: BusReply) { _ = reply(to: call, answer) }

    private func reply(to call: OpaquePointer, _ answer: BusReply) -> Int32 {
        guard let bus else { return 1 }
        var m: OpaquePointer?
        switch answer {
        case .deferred:
            break
        case .values(let values):
            guard wake_sd_bus_message_new_method_return(call, &m) >= 0, let m else { return 1 }
            defer { wake_sd_bus_message_unref(m) }
            do {
                for v in values { try BusMessageCoding.append(v, to: m) }
            } catch {
                return reply(to: call, .error(name: "org.freedesktop.DBus.Error.Failed", message: error.description))
            }
            _ = wake_sd_bus_send(bus, m, nil)
        case .error(let name, let message):
            name.withCString { n in
                message.withCString { text in
                    var e = sd_bus_error(name: n, message: text, _need_free: 0)
                    guard wake_sd_bus_message_new_method_error(call, &m, &e) >= 0, let m else { return }
                    _ = wake_sd_bus_send(bus, m, nil)
                    wake_sd_bus_message_unref(m)
                }
            }
        }
        return 1
    }

    // MARK: signals

    /// Queues a signal from `path`; written when `process()` next runs.
    public func emit(path: String, interface: String, member: String, _ values: [BusValue]) throws(BusError) {
        guard let bus else { throw BusError(call: "sd_bus_message_new_signal", name: nil, message: "no bus") }
        var m: OpaquePointer?
        let r = wake_sd_bus_message_new_signal(bus, &m, path, interface, member)
        guard r >= 0, let m else { throw NotificationBus.error("sd_bus_message_new_signal(\(member))", r) }
        defer { wake_sd_bus_message_unref(m) }
        for v in values { try BusMessageCoding.append(v, to: m) }
        let s = wake_sd_bus_send(bus, m, nil)
        if s < 0 { throw NotificationBus.error("sd_bus_send(\(member))", s) }
    }

    // MARK: the event loop

    public var pollDescriptor: pollfd? { bus.flatMap(BusLoop.openPollDescriptor) }

    public func process() {
        guard let bus else { return }
        BusLoop.drain(bus)
    }

    /// Writes what is queued (a last PropertiesChanged, a name's release) for at most `limit`.
    public func flush(within limit: Duration) {
        guard let bus else { return }
        BusLoop.flush(bus, within: limit)
    }
}

/// A question to the bus daemon about a caller, carried through sd-bus's callback.
private final class CallerQuery {
    weak var service: BusService?
    let sender: String
    init(service: BusService, sender: String) { self.service = service; self.sender = sender }
}

/// The callers a service has met, by unique name, and the calls waiting for one's answer.
struct CallerBook {
    /// A bound on what is remembered: a desktop's clients are a few, a script calling in a loop
    /// makes a new name each time.
    static let limit = 64
    private(set) var known: [String: BusCaller] = [:]
    private var order: [String] = []

    mutating func remember(_ caller: BusCaller) {
        if known.updateValue(caller, forKey: caller.uniqueName) == nil { order.append(caller.uniqueName) }
        while order.count > Self.limit { known[order.removeFirst()] = nil }
    }
}
