import WakeCore
import WakeEngine
import WakeSystem

/// The daemon's notices around its standing alarms (`--notice-before`): "Alarm at 06:30
/// (work)" some time before each occurrence, with a Skip button that does what `wake skip`
/// does, and "Missed alarm at 06:30 (work)", kept on screen, when one was missed; the alarms
/// found missed at once (a reload, a resume) are one notice, "Missed 40 alarms: ...". A
/// connection of its own to the notification server, so the ringing notification is left as
/// it is; like it, every call is asynchronous and a missing server only means no notice.
final class AdvanceNotices: RuntimeObserver, SessionAttachment {
    private unowned var session: SessionContext!
    private let occurrence: (String) -> Instant?
    /// What the Skip button does with an alarm's name: the daemon wires `wake skip NAME`'s own
    /// action in, so the notices never call a command-line verb themselves.
    private let skip: (String) throws(WakeFailure) -> Void
    private let lead: Duration
    private let console: Console
    private let timer: WakeTimer
    private var armedFor: Instant?
    private var bus: NotificationBus?
    private var registration: Reactor.Registration?
    /// Occurrences whose notice before was shown (or is on its way), by alarm.
    private var noticed: [String: Instant] = [:]
    /// What is on screen: the server's id, for its alarm and occurrence.
    private var onScreen: [UInt32: (alarm: String, occurrence: Instant)] = [:]
    /// Which of them are bedtime reminders (their Skip tomorrow skips, Not tonight only closes).
    private var reminders: Set<UInt32> = []
    /// Missed occurrences to say, once the reload that found them has armed what comes next:
    /// everything found between two polls (one reload, or the expiries a resume brings at once)
    /// is said in one notice.
    private var missed: [(alarm: String, occurrence: Instant)] = []
    /// Something may have brought a notice's moment (an arming, its timer, a clock change): only
    /// then are the alarms looked through. Every poll did it, 2,000 alarms at each bus message.
    private var dirty = true

    init(lead: Duration, console: Console, occurrence: @escaping (String) -> Instant?,
         skip: @escaping (String) throws(WakeFailure) -> Void) throws(SystemCallError) {
        self.lead = lead
        self.console = console
        self.occurrence = occurrence
        self.skip = skip
        timer = try WakeTimer(clock: .wall)
    }

    func start(in session: SessionContext) {
        self.session = session
        session.reactor.register(fd: timer.fd) { [unowned self] _ in
            _ = timer.acknowledge()
            armedFor = nil  // fired, or the clock changed: looked at again before the next poll
            dirty = true
        }
        session.runner.observe(with: self)
    }

    func stop() {
        if let registration { session?.reactor.unregister(registration) }
        registration = nil
        bus = nil
    }

    /// The controller found `occurrence` of `alarm` missed (no daemon ran in time).
    func missedWhileDown(_ alarm: String, _ occurrence: Instant) { missed.append((alarm, occurrence)) }

    func observe(_ event: RuntimeEvent) {
        switch event.kind {
        case .ringStarted:
            // The ringing notification takes over.
            for (id, shown) in onScreen where shown.alarm == event.alarm { close(id) }
        case .finished(.missed):
            // --notice-before 0: no notices (this one is here for the bedtime reminder alone).
            if lead > .zero, let at = occurrence(event.alarm) { missed.append((event.alarm, at)) }
            dirty = true
        case .armed, .finished, .clockChanged, .resumed:
            dirty = true
        default:
            break
        }
    }

    private func name(_ alarm: String, _ at: Instant) -> String {
        "\(Formatting.clockTime(at, zone: session.zone)) (\(alarm))"
    }

    /// Before every poll, after the controller has (re)armed the alarms.
    func beforePoll() {
        if let bus, !bus.isOpen { detach() }
        let now = SystemClock.realtime
        let found = missed.sorted { $0.occurrence != $1.occurrence ? $0.occurrence < $1.occurrence : $0.alarm < $1.alarm }
        missed = []
        let said = found.map { m in
            AdvanceNotice.Missed(alarm: name(m.alarm, m.occurrence), day: Formatting.dayPhrase(m.occurrence, now: now, zone: session.zone),
                                 message: session.runner.setup(of: m.alarm)?.message)
        }
        if let notice = AdvanceNotice.missed(said) {
            // One alarm's notice goes when it rings again; a folded one stays until dismissed.
            show(notice, for: found.count == 1 ? found.first : nil)
        }
        guard dirty else { return updateRegistration() }
        defer { updateRegistration() }
        dirty = false
        var soonest: Instant?
        for id in session.runner.alarmIDs {
            guard case .armed? = session.runner.state(of: id), let at = occurrence(id), noticed[id] != at,
                  let due = AdvanceNotice.due(occurrence: at, lead: lead, now: now) else { continue }
            if due <= now {
                noticed[id] = at
                // For the hooks too (`notice`), whether or not a notification server shows it.
                var fields: [(String, JSONValue)] = [("alarm", .string(id)),
                                                     ("occurrence", .string(Formatting.iso8601(at, zone: session.zone)))]
                if let m = session.runner.setup(of: id)?.message { fields.append(("message", .string(m))) }
                session.record("notice", fields)
                show(AdvanceNotice.before(alarm: name(id, at), message: session.runner.setup(of: id)?.message), for: (id, at))
            } else if soonest.map({ due < $0 }) ?? true {
                soonest = due
            }
        }
        if let soonest, soonest != armedFor {
            armedFor = (try? timer.arm(at: soonest)) != nil ? soonest : nil
            // Without its timer, the moment is seen at a later wake of the loop.
            if armedFor == nil { dirty = true }
        }
    }

    /// What the bus waits for now (a notice just sent may wait to be written).
    private func updateRegistration() {
        if let bus, let registration, let pfd = bus.pollDescriptor { session.reactor.update(registration, events: pfd.events) }
    }

    /// The bedtime reminder for `alarm`'s `occurrence` (`BedtimeCheck`): its Skip tomorrow does
    /// what the notice's Skip does, its Not tonight only takes it down; the ring takes it down too.
    func remind(_ alarm: String, _ occurrence: Instant, _ notice: DesktopNotice) {
        show(notice, for: (alarm, occurrence), reminder: true)
    }

    /// Shows `notice`; `shown`, the alarm and occurrence it is about, is kept with its id so
    /// that a ring of that alarm takes it down and its Skip button finds it.
    private func show(_ notice: DesktopNotice, for shown: (alarm: String, occurrence: Instant)?, reminder: Bool = false) {
        guard let bus = connection() else { return }
        do {
            try bus.notify(notice, replacing: 0) { [weak self] result in
                guard case .success(let id) = result, let shown else { return }
                self?.onScreen[id] = shown
                if reminder { self?.reminders.insert(id) }
            }
        } catch {
            detach()
        }
    }

    private func close(_ id: UInt32) {
        onScreen[id] = nil
        reminders.remove(id)
        try? bus?.close(id)
    }

    /// Skip, pressed: what `wake skip NAME` does, if that occurrence is still the next one.
    private func pressed(_ key: String, on id: UInt32) {
        let skipKey = reminders.contains(id) ? BedtimeReminder.skipKey : AdvanceNotice.skipKey
        if reminders.contains(id), key == BedtimeReminder.dismissKey { return close(id) }
        guard key == skipKey, let shown = onScreen[id] else { return }
        close(id)
        guard occurrence(shown.alarm) == shown.occurrence, case .armed? = session.runner.state(of: shown.alarm) else { return }
        do { try skip(shown.alarm) } catch {
            console.error("cannot skip '\(shown.alarm)' from the notification: \(error.message)")
        }
    }

    private func connection() -> NotificationBus? {
        if let bus { return bus }
        guard let fresh = try? NotificationBus(), let pfd = fresh.pollDescriptor else { return nil }
        fresh.onAction = { [unowned self] id, key in pressed(key, on: id) }
        fresh.onClosed = { [unowned self] id in
            onScreen[id] = nil
            reminders.remove(id)
        }
        try? fresh.watch()
        bus = fresh
        registration = session.reactor.register(fd: pfd.fd, events: pfd.events) { [unowned self] _ in
            fresh.process()
            if !fresh.isOpen { detach() }
        }
        return fresh
    }

    private func detach() {
        if let registration { session.reactor.unregister(registration) }
        registration = nil
        bus = nil
        onScreen = [:]
        reminders = []
    }
}
