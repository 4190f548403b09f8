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
final class BedtimeCheck: RuntimeObserver, SessionAttachment {
    /// What one check is about, handed to its thread as values.
    struct Subject {
        var alarm: StandingAlarm
        var occurrence: Instant
        /// The daemon's `--notify`: whether and how the notification server is checked too.
        var notify: AlarmOptions.NotifyMode
    }

    /// The checks, run on the check's thread; nil when a signal that ends the daemon ended them.
    typealias Checks = (Subject) -> [DoctorFinding]?

    /// A check that has not answered in this long is given up (its thread left behind) when the
    /// next check is due. Every call in it is bounded (devices and mixers by the stall limit,
    /// libpulse and the notification server by their timeouts); only a very long file decodes longer.
    static let giveUpAfter: Duration = .seconds(120)

    /// A check's findings, posted from its thread to the loop.
    private typealias Posted = (job: Int, findings: [DoctorFinding]?)

    private unowned var session: SessionContext!
    private let controller: DaemonController
    private let lead: Duration
    private let clock: RuntimeClock
    private let timers: TimerFactory
    private let notifyMode: AlarmOptions.NotifyMode
    private let notify: ((DesktopNotice) -> Void)?
    private let checks: Checks
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
         notifyMode: AlarmOptions.NotifyMode, notify: ((DesktopNotice) -> Void)?, checks: @escaping Checks = BedtimeCheck.doctor) {
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
        if let soonest, soonest != timerAt {
            // Without its timer, the moment is seen at the next wake of the loop.
            timerAt = (try? timer?.arm(Wait(instant: soonest, clock: .wall))) != nil ? soonest : nil
        }
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

    private func run(_ id: String, occurrence: Instant) {
        guard let mailbox, let alarm = controller.armedAlarm(id) else { return }
        jobs += 1
        let job = jobs
        let subject = Subject(alarm: alarm, occurrence: occurrence, notify: notifyMode)
        let checks = self.checks
        // The findings go into the bedtime_check event and its hooks: English and 24-hour, as the
        // child that makes them writes them (a thread of its own binds no language either).
        do {
            try DetachedThread.start { mailbox.post((job, checks(subject))) }
            running = (job, subject, clock.monotonic())
        } catch {
            session.console.error("warning: cannot start the bedtime check of '\(id.printable)' (\(error)); the alarm rings without it")
        }
    }

    private func collect() {
        guard let mailbox else { return }
        for (job, findings) in mailbox.take() {
            guard let r = running, r.job == job else { continue }  // given up before it ended
            running = nil
            dirty = true  // the next waiting check may start
            // Ended by a signal that ends the daemon; an alarm removed meanwhile is not said.
            guard let findings, session.runner.state(of: r.subject.alarm.name) != nil else { continue }
            report(r.subject, findings)
        }
    }

    // MARK: what is said

    private func report(_ s: Subject, _ findings: [DoctorFinding]) {
        let name = s.alarm.name
        let outcome = ledger.record(alarm: name, occurrence: s.occurrence, findings: findings)
        ledger.keep(only: Set(session.runner.alarmIDs))
        let at = Formatting.clockTime(s.occurrence, zone: session.zone)
        let notifying = notify != nil && !outcome.notify.isEmpty
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
