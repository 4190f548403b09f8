import Glibc
import WakeCore
import WakeEngine
import WakeSystem

/// The desktop notification (`--notify`): while an alarm rings, is snoozed or pre-rings (with
/// Up already and a Stop that keeps the alarm), a notification
/// says so, with Snooze and Stop buttons that become commands like a key's; it goes when the
/// alarm ends. Events only record what each alarm should show; the bus work happens before the
/// next poll, after the sound has been started, and never waits for the server.
public final class DesktopNotifier: RuntimeObserver, SessionAttachment {
    /// How long the end of a process waits for a Notify still unanswered, so that what it put
    /// up can be taken down: a notification left behind would offer buttons nobody answers.
    static let exitWait: Duration = .milliseconds(500)

    private struct Tracked {
        var sync = NoticeSync()
        var phase: DesktopNotice.Phase?
        var since = ""
        var bellReason: String?
        /// A folder or list as the sound: the file the ring plays (said by the output).
        var sound: String?
    }

    private unowned var session: SessionContext!
    private let mode: AlarmOptions.NotifyMode
    private var bus: NotificationBus?
    private var registration: Reactor.Registration?
    private var alarms: [String: Tracked] = [:]
    private var changed: Set<String> = []
    private var warned = false
    /// Whether the server took a notification of this session's (`wake test` reports it).
    private(set) var shown = false
    /// Why the last notification could not be shown, when one could not.
    private(set) var notShown: String?

    /// `bus`: the connection made at arm time, if one could be; another is tried when an alarm
    /// starts ringing and there is none (the session bus may have come since).
    private let initialBus: NotificationBus?
    /// The bus a new connection goes to: the session bus (nil), or a test's own.
    private let address: String?

    init(mode: AlarmOptions.NotifyMode, bus: NotificationBus?, address: String? = nil) {
        self.mode = mode
        initialBus = bus
        self.address = address
    }

    public func start(in session: SessionContext) {
        self.session = session
        session.runner.observe(with: self)
        session.reactor.addHook { [unowned self] in update() }
        if let initialBus { attach(initialBus) }
    }

    /// A notice tied to no alarm (a broken config or alarms file), shown once and kept on
    /// screen; nothing when no server is there.
    public func announce(_ problem: String) {
        guard let bus else { return }
        let notice = DesktopNotice(summary: "wake: a problem with your alarms", body: DesktopNotice.markup(problem), buttons: [],
                                   urgency: .critical, resident: false)
        try? bus.notify(notice, replacing: 0) { _ in }
    }

    /// A notice of the daemon's own, tied to no ringing alarm (the bedtime check's "may be
    /// silent"): shown as it is, never replaced or taken down by wake; a connection is made if
    /// there is none (the server may have come since the start), and nothing is shown without one.
    public func show(_ notice: DesktopNotice) {
        guard let bus = connection() else { return }
        try? bus.notify(notice, replacing: 0) { _ in }
    }

    /// What the notice says plays when no file of a folder or list could.
    static let builtInSound = "wake's built-in sound"

    // MARK: events in

    public func observe(_ event: RuntimeEvent) {
        let id = event.alarm
        var t = alarms[id] ?? Tracked()
        switch event.kind {
        case .ringStarted:
            t.since = clock(event.time.realtime, seconds: true)
            t.bellReason = nil
            // The file the ring plays first: a notice is re-sent only when another one plays.
            t.sound = session.runner.setup(of: id)?.ring.entries.first
            t.phase = .ringing(since: t.since)
        case .sound(.soundChosen(let path)):
            guard t.sound != path else { return }
            t.sound = path
            guard case .ringing? = t.phase else { alarms[id] = t; return }
        case .sound(.builtInChosen):
            // No file of the folder or list plays: the notice names what does.
            t.sound = Self.builtInSound
            guard case .ringing? = t.phase else { alarms[id] = t; return }
        case .sound(.fallback(_, let to, let reason)) where to == "bell":
            t.bellReason = reason
        case .sound(.bell):
            guard t.phase != nil else { return }
            t.phase = .bell(reason: t.bellReason ?? "every sound device failed")
        case .sound(.silent(let reason, _)):
            guard t.phase != nil else { return }
            t.phase = .silent(reason: reason)
        case .sound(.opened):
            // A device works again: the bell is no longer the news.
            switch t.phase {
            case .bell?, .silent?: break
            default: return
            }
            t.phase = .ringing(since: t.since)
        case .checkUp(.set(let at, _)):
            t.phase = .checkUpSet(at: clock(at, seconds: false))
        case .checkUp(.asking(let until)):
            t.phase = .checkUpAsking(until: clock(until, seconds: true))
        case .snoozed(_, .unattended):
            return  // the `unanswered` before it set the notice
        case .unanswered(let ring, let next?) where ring.mode == .snooze:
            t.phase = .unanswered(ring, until: Formatting.clockTimeAndDay(next, now: event.time.realtime, zone: session.zone))
        case .snoozed(let until, _):
            t.phase = .snoozed(until: Formatting.clockTimeAndDay(until, now: event.time.realtime, zone: session.zone))
        case .preRingStarted(let main):
            t.phase = .preRinging(main: clock(main, seconds: false))
        case .preRingStopped(_, let main):
            t.phase = .preStopped(main: clock(main, seconds: false))
        case .finished(.failed(let reason)):
            t.phase = .failed(reason: reason)
        case .finished:
            t.phase = nil
        default:
            return
        }
        alarms[id] = t
        changed.insert(id)
    }

    private func clock(_ i: Instant, seconds: Bool) -> String {
        Formatting.clockTime(i, zone: session.zone, alwaysSeconds: seconds)
    }

    private func notice(for id: String, _ phase: DesktopNotice.Phase) -> DesktopNotice {
        var name = session.deadlineText(of: id)
        if session.standing { name += " (\(id))" }
        let settings = session.runner.setup(of: id)?.settings ?? AlarmEngine.Settings()
        return DesktopNotice.make(phase, alarm: name, snooze: settings.snooze, snoozeLong: settings.snoozeLong,
                                  message: session.runner.setup(of: id)?.message,
                                  sound: alarms[id]?.sound ?? session.runner.setup(of: id)?.ring.entries.first,
                                  snoozes: session.runner.snoozes(of: id) ?? SnoozeCount(), challenge: settings.challenge)
    }

    // MARK: the bus

    /// Takes `bus` into use: its signals, and its descriptor in the loop. False when it has
    /// no descriptor to watch (it failed at once); it is then dropped.
    @discardableResult
    private func attach(_ bus: NotificationBus) -> Bool {
        bus.onAction = { [unowned self] id, key in pressed(key, on: id) }
        bus.onClosed = { [unowned self] id in
            for name in alarms.keys where alarms[name]?.sync.id == id { alarms[name]?.sync.closedByServer(id: id) }
        }
        bus.onWatchFailed = { [unowned self] error in buttonsFailed(error) }
        guard let pfd = bus.pollDescriptor else { return false }
        do { try bus.watch() } catch { buttonsFailed(error) }
        self.bus = bus
        registration = session.reactor.register(fd: pfd.fd, events: pfd.events) { [unowned self] _ in
            // Dispatched here, after the poll, never in the hook: a button that ends the alarm
            // must be seen by the loop's check before it polls again.
            bus.process()
            if !bus.isOpen { detach() }
        }
        return true
    }

    /// The connection went (the bus daemon restarted, or refused us). Only called between
    /// updates, never inside one: it resets what the syncs have in flight.
    private func detach() {
        if let registration { session.reactor.unregister(registration) }
        registration = nil
        bus = nil
        for name in alarms.keys { alarms[name]?.sync.connectionLost() }
    }

    /// The connection, or a new one when there is none (the session bus may have come since
    /// wake was armed); never blocks.
    private func connection() -> NotificationBus? {
        if let bus { return bus }
        guard let fresh = try? NotificationBus(address: address), attach(fresh) else { return nil }
        return fresh
    }

    /// As a hook of the reactor, before each poll: sd-bus's queue must be flushed after every
    /// other source's work.
    private func update() {
        if let bus, !bus.isOpen { detach() }
        applyChanges()
        if let bus, let registration {
            if let pfd = bus.pollDescriptor { session.reactor.update(registration, events: pfd.events) } else { detach() }
        }
    }

    private func applyChanges() {
        let names = changed
        changed = []
        for name in names.sorted() {
            guard let t = alarms[name] else { continue }
            let wanted = t.phase.map { notice(for: name, $0) }
            update(name) { $0.show(wanted) }
        }
    }

    /// Changes one alarm's sync and makes the calls it asks for.
    private func update(_ name: String, _ change: (inout NoticeSync) -> [NoticeSync.Call]) {
        guard var t = alarms[name] else { return }
        let calls = change(&t.sync)
        alarms[name] = t
        for call in calls { perform(call, for: name) }
    }

    private func perform(_ call: NoticeSync.Call, for name: String) {
        switch call {
        case .notify(let notice, let replacing):
            guard let bus = connection() else { return failed(name, nil) }
            do {
                try bus.notify(notice, replacing: replacing) { [unowned self] result in
                    switch result {
                    case .success(let id):
                        warned = false  // working again: the next failure is news
                        shown = true
                        update(name) { $0.notified(id: id) }
                    case .failure(let error): failed(name, error)
                    }
                }
            } catch {
                failed(name, error)
            }
        case .close(let id):
            do { try bus?.close(id) } catch { warn("cannot take the desktop notification down (\(error.description.printable)); dismiss it by hand") }
        }
    }

    /// A Notify that failed (`error` nil: there is no session bus).
    private func failed(_ name: String, _ error: BusError?) {
        notShown = error.map { $0.description.printable } ?? "no session bus"
        // With auto, a session without a bus or a notification server is no news; anything else is.
        let absent = ["org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner"]
        if mode == .require || !(error == nil || absent.contains(error?.name ?? "")) {
            warn("the desktop notification could not be shown (\(error.map { $0.description.printable } ?? "no session bus")); "
                 + "the alarm rings on without it: stop it with a key, a signal or 'wake stop'")
        }
        update(name) { $0.notified(id: nil) }
    }

    private func buttonsFailed(_ error: BusError) {
        warn("the notification's buttons will not work (\(error.description.printable)); stop the alarm with a key, a signal or 'wake stop'")
    }

    /// One warning per alarm session: `line` says what failed and what to do instead.
    private func warn(_ line: String) {
        guard !warned else { return }
        warned = true
        session.console.error("warning: " + line)
    }

    // MARK: buttons

    private func pressed(_ key: String, on id: UInt32) {
        guard let name = alarms.first(where: { $0.value.sync.id == id })?.key else { return }  // another program's
        switch key {
        case DesktopNotice.snoozeKey: session.runner.command(.snooze, by: .notification, alarm: name, activeOnly: true)
        case DesktopNotice.snoozeLongKey: session.runner.command(.snooze, by: .notification, alarm: name, activeOnly: true, length: .long)
        case DesktopNotice.stopKey: session.runner.command(.stop, by: .notification, alarm: name, activeOnly: true)
        // Also once the pre-ring was stopped (the alarm waits then): the engine says what it means.
        case DesktopNotice.upKey: session.runner.command(.upAlready, by: .notification, alarm: name)
        default: break
        }
    }

    // MARK: the end

    /// At exit, after the sound has stopped: takes down what the ended alarms showed, waiting
    /// a little for a Notify still unanswered (its id is needed to close it) and for the
    /// writes, never for longer than `exitWait` in all.
    public func stop() {
        bus?.onAction = nil
        applyChanges()
        guard let bus else { return }
        let deadline = SystemClock.monotonic + Self.exitWait
        while bus.isOpen && alarms.values.contains(where: { $0.sync.inFlight }) {
            let left = deadline - SystemClock.monotonic
            guard left > .zero else { break }
            bus.turn(within: left)
        }
        bus.flush(within: max(.zero, deadline - SystemClock.monotonic))
    }
}

/// The arm-time side of `--notify`: the check `require` and the dry run make (a blocking call,
/// bounded, on a thread of its own), and the connection the alarm keeps.
public enum NotifySetup {
    struct Prepared {
        var bus: NotificationBus?
        /// Who answered, when the server was asked (require, dry run).
        var server: NotificationBus.ServerInfo?
        /// Why there will be no notification, when that is known now.
        var unavailable: String?
    }

    /// `asksServer`: ask who answers even with `auto` (the dry run does; `wake test` reports it).
    static func prepare(_ mode: AlarmOptions.NotifyMode, dryRun: Bool, asksServer: Bool = false,
                        signals: SignalChannel) throws(WakeFailure) -> Prepared {
        if mode == .off { return Prepared() }
        var prepared = Prepared()
        if mode == .require || dryRun || asksServer {
            switch try ask(signals: signals) {
            case .success(let info):
                prepared.server = info
            case .failure(let reason):
                if mode == .require {
                    throw WakeFailure(.unavailable, "--notify require: no desktop notification server answers on the session bus "
                        + "'\(sessionBusAddress.printable)': \(reason); run wake in a desktop session (or point "
                        + "DBUS_SESSION_BUS_ADDRESS at its bus), or use --notify auto to ring without one")
                }
                prepared.unavailable = reason
            }
        }
        if dryRun { return prepared }
        do { prepared.bus = try NotificationBus() } catch {
            if mode == .require {
                throw WakeFailure(.unavailable, "--notify require: cannot connect to the session bus '\(sessionBusAddress.printable)': "
                    + "\(error.description.printable); use --notify auto to ring without a notification")
            }
        }
        return prepared
    }

    /// Where sd-bus looks for the session bus, as it does: for messages.
    static var sessionBusAddress: String {
        if let a = getenv("DBUS_SESSION_BUS_ADDRESS").map({ String(cString: $0) }), !a.isEmpty { return a }
        if let d = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !d.isEmpty { return "unix:path=\(d)/bus" }
        return "(none: neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR is set)"
    }

    private enum Answer {
        case success(NotificationBus.ServerInfo)
        case failure(String)
    }

    private static func ask(signals: SignalChannel) throws(WakeFailure) -> Answer {
        let limit = Defaults.stallLimit
        // The bound is the call's: sd-bus's own timeout, later, is only a backstop, so a hung
        // server is always reported the same way.
        let outcome: BoundedCall.Outcome<Result<NotificationBus.ServerInfo, BusError>>
        do {
            outcome = try BoundedCall.run(limit: limit, signals: signals) {
                Result { () throws(BusError) -> NotificationBus.ServerInfo in try NotificationBus.probe(timeout: limit + .seconds(2)) }
            }
        } catch {
            throw WakeFailure(.resource, "cannot check the notification server: \(error); the system is short of a resource")
        }
        switch outcome {
        case .done(.success(let info)): return .success(info)
        case .done(.failure(let error)): return .failure(error.description.printable)
        case .timedOut: return .failure("the notification server did not answer in \(Formatting.span(limit)) (is it hung?)")
        case .interrupted(let signal):
            throw WakeFailure.interrupted(by: signal, during: "asking for the notification server")
        }
    }

    /// The dry run's line.
    static func report(_ mode: AlarmOptions.NotifyMode, _ prepared: Prepared) -> String {
        if mode == .off { return localized("notify: off") }
        if let s = prepared.server {
            let name = s.name.printable, version = s.version.printable, vendor = s.vendor.printable
            return s.hasActions
                ? localized("notify: {mode} (notification server '{name}' {version} by '{vendor}', with Snooze and Stop buttons)",
                            mode.rawValue, name, version, vendor)
                : localized("""
                    notify: {mode} (notification server '{name}' {version} by '{vendor}', which shows no buttons: stop the alarm \
                    with a key or a signal)
                    """, mode.rawValue, name, version, vendor)
        }
        return prepared.unavailable.map {
            localized("notify: {mode} (no notification: {reason}; the alarm rings without one)", mode.rawValue, $0)
        } ?? localized("notify: {mode} (no notification: not checked; the alarm rings without one)", mode.rawValue)
    }

    /// Gives the session its notifier, and warns once when the server would show no buttons.
    /// The session's notifier, attached, and a warning once when the server would show no buttons.
    @discardableResult
    static func start(_ prepared: Prepared, mode: AlarmOptions.NotifyMode, session: AlarmSession, console: Console) -> DesktopNotifier? {
        if let warning = warning(prepared) { console.error(warning) }
        guard mode != .off else { return nil }
        let notifier = DesktopNotifier(mode: mode, bus: prepared.bus)
        session.attach(notifier)
        return notifier
    }

    /// Said once when the alarm is set: a required notification whose buttons would not work.
    static func warning(_ prepared: Prepared) -> String? {
        guard let s = prepared.server, !s.hasActions else { return nil }
        return "warning: the notification server '\(s.name.printable)' shows no buttons; stop the alarm with a key or a signal"
    }
}
