import WakeCore
import WakeEngine
import WakeSystem

/// The daemon's bedtime check (issue 39): before an alarm, the checks `wake doctor` runs for it
/// (`Doctor.bedtimeFindings`: its sound, device and output, and the notification server), so
/// that a muted output or a lost device is said while there is time to fix it, not found in the
/// morning.
///
/// When: at each alarm's advance-notice moment (`--notice-before`, the moment `AdvanceNotices`
/// shows its notice; 2 h when the notices are off), or at once when the alarm is nearer (it was
/// added, or the daemon started, within the lead); and for the next alarm to ring after a change
/// of alarms.toml or config.toml, and on SIGHUP. Not at the start for an alarm further away: the
/// start is no change, and a check opens the device, which loads ALSA's configuration (and the
/// sound server's client library) into a daemon that would otherwise load it at the first ring.
/// Never less than half a minute (or half the lead) before a ring, and never while an alarm rings
/// or is snoozed (its device is in use): a check that comes then waits until the ring ends.
///
/// How: the checks can block (a device behind a hung sound server, each bounded by the stall
/// limit; a long file to decode), so they run on a thread of their own, one check at a time, and
/// post their findings back to the loop through an eventfd. A check asked for while one runs
/// waits for it (asked for twice, it runs once). The end of the daemon does not wait for one: the
/// thread's post finds the mailbox closed. A check that has not answered in `giveUpAfter` is
/// given up when the next is due.
///
/// What it says (`BedtimeLedger`): each FAIL and WARN a journal line and a `bedtime_check` event;
/// a FAIL also a notification through the daemon's notifier, once per occurrence and problem.
///
/// The bedtime reminder (`sleep-target`, issue 56) is a check too: at the next alarm's time less
/// the target, the check of that alarm runs first of all, after logind says someone is at the
/// screen (else it looks again each minute for an hour), and its verdict goes into the reminder
/// (`BedtimeReminder`) in place of a notification of its own. A `bedtime` event either way.
final class BedtimeCheck: RuntimeObserver, SessionAttachment {
    /// What one check is about, handed to its thread as values.
    struct Subject {
        var alarm: StandingAlarm
        var occurrence: Instant
        /// The daemon's `--notify`: whether and how the notification server is checked too.
        var notify: AlarmOptions.NotifyMode
        /// The sleep target, when this check is the bedtime reminder's.
        var reminder: Duration? = nil
    }

    /// The bedtime reminder's parts, given by the daemon (the tests give their own).
    struct Reminders {
        /// An alarm's target: its `--bedtime`, else config.toml's `sleep-target`; nil for none.
        var target: (String) -> Duration?
        /// Whether someone is at the screen, asked on the check's thread.
        var presence: @Sendable () -> SessionPresence = { SessionPresence.current() }
        /// Shows the reminder (with its buttons); nil findings never come here.
        var remind: (_ alarm: String, _ occurrence: Instant, DesktopNotice) -> Void
    }

    /// The checks, run on the check's thread; nil when a signal that ends the daemon ended them.
    typealias Checks = (Subject) -> [DoctorFinding]?

    /// A check that has not answered in this long is given up (its thread left behind) when the
    /// next check is due. Every call in it is bounded (devices and mixers by the stall limit,
    /// libpulse and the notification server by their timeouts); only a very long file decodes longer.
    static let giveUpAfter: Duration = .seconds(120)

    /// A check's findings, posted from its thread to the loop.
    private typealias Posted = (job: Int, findings: [DoctorFinding]?, presence: SessionPresence?)

    private unowned var session: SessionContext!
    private let controller: DaemonController
    private let lead: Duration
    private let clock: RuntimeClock
    private let timers: TimerFactory
    private let notifyMode: AlarmOptions.NotifyMode
    private let notify: ((DesktopNotice) -> Void)?
    private let checks: Checks
    private let reminders: Reminders?
    /// The occurrence each alarm's reminder was shown for (or given up on), so it comes once.
    private var reminded: [String: Instant] = [:]
    /// A reminder held back by a locked or idle session: asked again from `at`.
    private var heldBack: (alarm: String, occurrence: Instant, at: Instant)?
    /// The next alarm's reminder, due now.
    private var reminderWanted: (alarm: String, occurrence: Instant)?
    private var mailbox: PostBox<Posted>?
    private var registration: Reactor.Registration?
    private var timer: DeadlineTimer?
    private var timerAt: Instant?
    private var ledger = BedtimeLedger()
    /// The occurrence each alarm's check at its advance-notice moment was asked for.
    private var dueAsked: [String: Instant] = [:]
    /// Alarms waiting for a check.
    private var waiting: Set<String> = []
    /// The files changed: the next alarm to ring is checked.
    private var nextWanted = false
    private var running: (job: Int, subject: Subject, since: Instant)?
    private var jobs = 0
    /// Something that decides what to check changed since the last look (an alarm armed, a ring
    /// ended, a moment come, the files changed, a check ended): only then are the alarms looked
    /// at, not before every poll of a ring with thousands of alarms.
    private var dirty = true

    /// `lead`: `BedtimeLedger.lead(noticeBefore:)`. `timers` on the ordinary clocks: a check is
    /// no reason to wake a suspended machine. `notifyMode`: the daemon's `--notify`; `notify`: its
    /// notifier, nil when notifications are off. `checks`: the tests give their own.
    init(lead: Duration, controller: DaemonController, clock: RuntimeClock, timers: TimerFactory,
         notifyMode: AlarmOptions.NotifyMode, notify: ((DesktopNotice) -> Void)?, reminders: Reminders? = nil,
         checks: @escaping Checks = BedtimeCheck.doctor) {
        self.reminders = reminders
        self.lead = lead
        self.notifyMode = notify == nil ? .off : notifyMode
        self.controller = controller
        self.clock = clock
        self.timers = timers
        self.notify = notify
        self.checks = checks
    }

    /// `wake doctor`'s checks for the subject's alarm, in a child process (`BedtimeCheckProcess`).
    static func doctor(_ s: Subject) -> [DoctorFinding]? {
        BedtimeCheckProcess.findings(s)
    }

    func start(in session: SessionContext) {
        self.session = session
        do {
            let mailbox = try PostBox<Posted>()
            self.mailbox = mailbox
            registration = session.reactor.register(fd: mailbox.signal.fd) { [unowned self] _ in collect() }
            // Its expiry (or a clock step, which cancels it) only wakes the loop: `beforePoll` looks.
            timer = try timers.deadlineTimer(.wall) { [unowned self] _ in
                timerAt = nil
                dirty = true
            }
            session.runner.observe(with: self)
        } catch {
            session.console.error("warning: the bedtime check cannot run (\(error)); the alarms ring without it")
        }
    }

    func stop() {
        if let registration { session?.reactor.unregister(registration) }
        registration = nil
        // A check still running is not waited for: its post finds the mailbox closed.
        mailbox?.close()
        mailbox = nil
        timer?.disarm()
        timer = nil
        running = nil
    }

    /// alarms.toml or config.toml changed, or SIGHUP came: the next alarm is checked again.
    func filesChanged() {
        nextWanted = true
        dirty = true
    }

    func observe(_ event: RuntimeEvent) {
        switch event.kind {
        case .armed, .finished, .clockChanged, .resumed: dirty = true
        default: break
        }
    }

    /// Before every poll, after the controller has (re)armed the alarms.
    func beforePoll() {
        guard mailbox != nil, dirty else { return }
        dirty = false
        let now = clock.now().realtime
        askWhatIsDue(now)
        startNext(now)
    }

    // MARK: when

    /// Each armed alarm whose advance-notice moment has come is asked for, once per occurrence;
    /// the timer is set for the soonest moment still ahead.
    private func askWhatIsDue(_ now: Instant) {
        let ids = session.runner.alarmIDs
        var soonest: Instant?
        for id in ids {
            guard case .armed? = session.runner.state(of: id), let at = controller.occurrence(of: id), dueAsked[id] != at,
                  let due = BedtimeLedger.due(occurrence: at, lead: lead, now: now) else { continue }
            if due <= now {
                dueAsked[id] = at
                waiting.insert(id)
            } else if soonest.map({ due < $0 }) ?? true {
                soonest = due
            }
        }
        let present = Set(ids)
        dueAsked = dueAsked.filter { present.contains($0.key) }
        reminded = reminded.filter { present.contains($0.key) }
        if let due = reminderDue(ids, now), soonest.map({ due < $0 }) ?? true { soonest = due }
        if let soonest, soonest != timerAt {
            // Without its timer, the moment is seen at the next wake of the loop.
            timerAt = (try? timer?.arm(Wait(instant: soonest, clock: .wall))) != nil ? soonest : nil
        }
    }

    /// The next alarm's reminder: wanted now when its moment has come (and no locked screen holds
    /// it back), else its moment, for the timer.
    private func reminderDue(_ ids: [String], _ now: Instant) -> Instant? {
        guard let reminders else { return nil }
        let next = ids.compactMap { id -> (String, Instant)? in
            guard case .armed? = session.runner.state(of: id), let at = controller.occurrence(of: id) else { return nil }
            return (id, at)
        }.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        guard let (id, at) = next, reminded[id] != at, let target = reminders.target(id),
              var due = BedtimeReminder.due(occurrence: at, target: target, now: now) else {
            return nil
        }
        if let held = heldBack, held.alarm == id, held.occurrence == at { due = max(due, held.at) }
        guard due <= now else { return due }
        if running?.subject.reminder == nil || running?.subject.alarm.name != id { reminderWanted = (id, at) }
        return nil
    }

    /// An armed alarm's occurrence, while a check of it may still run.
    private func checkable(_ id: String, _ now: Instant) -> Instant? {
        guard case .armed? = session.runner.state(of: id), let at = controller.occurrence(of: id),
              BedtimeLedger.due(occurrence: at, lead: lead, now: now) != nil else { return nil }
        return at
    }

    private func startNext(_ now: Instant) {
        if let r = running {
            guard clock.monotonic() - r.since > Self.giveUpAfter else { return }
            session.console.error("bedtime check: the checks for alarm '\(r.subject.alarm.name.printable)' did not end in "
                                  + "\(Formatting.span(Self.giveUpAfter)); given up")
            running = nil
        }
        // A ring holds its device and its stream: a check now would find it busy, or find the
        // ring's stream as its own.
        let ids = session.runner.alarmIDs
        guard !ids.contains(where: isActive) else { return }
        if let wanted = reminderWanted, let target = reminders?.target(wanted.alarm) {
            reminderWanted = nil
            guard case .armed? = session.runner.state(of: wanted.alarm),
                  controller.occurrence(of: wanted.alarm) == wanted.occurrence else { return }
            waiting.remove(wanted.alarm)
            return run(wanted.alarm, occurrence: wanted.occurrence, reminder: target)
        }
        if nextWanted {
            nextWanted = false
            let next = ids.compactMap { id in checkable(id, now).map { (id, $0) } }.min { $0.1 < $1.1 }
            if let next { waiting.insert(next.0) }
        }
        let candidates = waiting.compactMap { id in checkable(id, now).map { (id, $0) } }
        waiting = Set(candidates.map(\.0))
        guard let first = candidates.min(by: { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }) else { return }
        waiting.remove(first.0)
        run(first.0, occurrence: first.1)
    }

    private func isActive(_ id: String) -> Bool {
        switch session.runner.state(of: id) {
        case .ringing?, .snoozed?: true
        default: false
        }
    }

    // MARK: the check

    private func run(_ id: String, occurrence: Instant, reminder: Duration? = nil) {
        guard let mailbox, let alarm = controller.armedAlarm(id) else { return }
        jobs += 1
        let job = jobs
        let subject = Subject(alarm: alarm, occurrence: occurrence, notify: notifyMode, reminder: reminder)
        let checks = self.checks
        let presence = reminder == nil ? nil : reminders?.presence
        // The findings go into the bedtime_check event and its hooks: English and 24-hour, as the
        // child that makes them writes them (a thread of its own binds no language either).
        do {
            try DetachedThread.start {
                // Nobody at the screen: no check either, until someone is.
                let here = presence?()
                if case .away? = here { return mailbox.post((job, [], here)) }
                mailbox.post((job, checks(subject), here))
            }
            running = (job, subject, clock.monotonic())
        } catch {
            session.console.error("warning: cannot start the bedtime check of '\(id.printable)' (\(error)); the alarm rings without it")
        }
    }

    private func collect() {
        guard let mailbox else { return }
        for (job, findings, presence) in mailbox.take() {
            guard let r = running, r.job == job else { continue }  // given up before it ended
            running = nil
            dirty = true  // the next waiting check may start
            // Ended by a signal that ends the daemon; an alarm removed meanwhile is not said.
            guard let findings, session.runner.state(of: r.subject.alarm.name) != nil else { continue }
            if let target = r.subject.reminder {
                if case .away(let why)? = presence {
                    holdBack(r.subject, target: target, why: why)
                } else {
                    remind(r.subject, target, findings)
                }
            } else {
                report(r.subject, findings)
            }
        }
    }

    // MARK: what is said

    /// The reminder's check came back: said as any check (its lines and events), and its verdict
    /// shown in the reminder, which takes the place of the check's own notification.
    private func remind(_ s: Subject, _ target: Duration, _ findings: [DoctorFinding]) {
        let name = s.alarm.name
        reminded[name] = s.occurrence
        heldBack = nil
        report(s, findings, inReminder: true)
        let at = Formatting.clockTime(s.occurrence, zone: session.zone)
        let verdict = BedtimeReminder.verdict(findings)
        let shown = notify != nil
        session.console.info("bedtime: alarm '\(name.printable)' at \(at) is \(DurationText.format(target)) away: time for bed "
                             + "(the checks: \(verdict.word))")
        session.record("bedtime", [("alarm", .string(name)), ("occurrence", .string(Formatting.iso8601(s.occurrence, zone: session.zone))),
                                   ("target", .string(DurationText.format(target))), ("verdict", .string(verdict.word)),
                                   ("shown", .bool(shown))])
        if shown {
            reminders?.remind(name, s.occurrence, BedtimeReminder.notice(alarm: "\(at) (\(name))", target: target, findings: findings))
        }
    }

    /// Nobody at the screen: the reminder waits, looked at again each minute within its window.
    private func holdBack(_ s: Subject, target: Duration, why: String) {
        let name = s.alarm.name
        let first = heldBack.map { $0.alarm != name || $0.occurrence != s.occurrence } ?? true
        heldBack = (name, s.occurrence, clock.now().realtime + BedtimeReminder.retry)
        guard first else { return }
        let at = Formatting.clockTime(s.occurrence, zone: session.zone)
        session.console.info("bedtime: alarm '\(name.printable)' at \(at): the reminder waits, the session is \(why)")
        session.record("bedtime", [("alarm", .string(name)), ("occurrence", .string(Formatting.iso8601(s.occurrence, zone: session.zone))),
                                   ("target", .string(DurationText.format(target))), ("shown", .bool(false)), ("held", .string(why))])
    }

    private func report(_ s: Subject, _ findings: [DoctorFinding], inReminder: Bool = false) {
        let name = s.alarm.name
        let outcome = ledger.record(alarm: name, occurrence: s.occurrence, findings: findings)
        ledger.keep(only: Set(session.runner.alarmIDs))
        let at = Formatting.clockTime(s.occurrence, zone: session.zone)
        let notifying = !inReminder && notify != nil && !outcome.notify.isEmpty
        for f in outcome.said + outcome.cleared {
            session.console.error(BedtimeLedger.line(alarm: name, at: at, f))
            var fields: [(String, JSONValue)] = [
                ("alarm", .string(name)), ("occurrence", .string(Formatting.iso8601(s.occurrence, zone: session.zone))),
                ("check", .string(f.check)), ("status", .string(f.status.word)), ("found", .string(f.found)),
            ]
            if let fix = f.fix { fields.append(("fix", .string(fix))) }
            if f.status == .fail { fields.append(("notified", .bool(notifying && outcome.notify.contains(f)))) }
            session.record("bedtime_check", fields)
        }
        if let notify, notifying {
            notify(BedtimeLedger.notice(alarm: "\(at) (\(name))", failures: outcome.notify))
        }
    }
}
