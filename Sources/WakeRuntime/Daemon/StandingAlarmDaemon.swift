import Glibc
import WakeCore
import WakeEngine
import WakeSystem

/// What `wake daemon` was given, as the command line or the config file said it.
public struct DaemonOptions {
    public var events: String?
    public var inhibit: String
    public var notify: String
    /// `--wake-system`: the RTC must wake the machine (77 or 69 when it cannot).
    public var wakeSystem: Bool
    /// `--no-wake-system`: arm on the ordinary clocks (and hold the inhibitor in its window).
    public var noWakeSystem: Bool
    public var unpaced: Bool
    /// `--notice-before`: how long before each standing alarm a notice shows (0: none).
    public var noticeBefore: String
    /// `--notify` came from the command line, not the config file: only then may `require`
    /// stop the daemon.
    public var notifyGiven: Bool

    public init(events: String?, inhibit: String, notify: String, wakeSystem: Bool, noWakeSystem: Bool = false, unpaced: Bool,
                noticeBefore: String = DurationText.format(AdvanceNotice.defaultLead), notifyGiven: Bool = true) {
        self.noticeBefore = noticeBefore
        self.notifyGiven = notifyGiven
        self.events = events
        self.inhibit = inhibit
        self.notify = notify
        self.wakeSystem = wakeSystem
        self.noWakeSystem = noWakeSystem
        self.unpaced = unpaced
    }
}

/// `wake daemon`: the checks, then the session with its controller.
public enum StandingAlarmDaemon {
    public static func run(_ c: DaemonOptions, config: ConfigDefaults, console: Console, signals: SignalChannel) throws(WakeFailure) -> CommandResult {
        if let e = c.events, e.isEmpty { throw WakeFailure(.usage, "--events: empty path; give a file, or '-' for stdout") }
        let inhibit = try AlarmOptions.inhibitMode(c.inhibit)
        var notifyMode = try AlarmOptions.notifyMode(c.notify)
        let wakeMode = try WakeSystemPlan.mode(wakeSystem: c.wakeSystem, noWakeSystem: c.noWakeSystem)
        let noticeLead: Duration
        do { noticeLead = try DurationText.parse(c.noticeBefore) } catch {
            throw WakeFailure(.usage, "--notice-before: \(error.description)")
        }
        let (zone, warning) = ZoneLoader.local()
        if let warning { console.error("warning: " + warning) }
        do { try ALSAEnvironment.check() } catch { throw WakeFailure(.unavailable, error.description) }
        // The RTC wakes the machine for every occurrence wherever it can; checked before anything is made.
        let wake = try WakeSystemPlan.decide(wakeMode)
        let store = try StandingContext.standard().store
        // The start reads its files as every reload does (tolerantly, from the last good copy
        // when it must), so nothing here parses them: it only makes the directories, and a
        // directory it cannot make or use is said and the daemon goes on with what it can read.
        for problem in store.prepareDirectories() {
            console.error("warning: \(problem.description); the daemon rings what it can read and watches for the directory")
        }
        let directories = [store.alarmsDirectory, store.historyDirectory]
        let runtime = try? ControlDirectory.prepare(create: true)
        let lock: DaemonLock
        do throws(DaemonLock.HeldByAnother) { lock = try DaemonLock(directory: store.alarmsDirectory, runtimeDirectory: runtime ?? nil) } catch {
            // Not a failure: the alarms ring, by the other one. Exit 0, so systemd does not restart this one.
            console.info("a wake daemon already rings the alarms in \(store.alarmsDirectory.printable)"
                         + "\(error.pid.map { " (pid \($0))" } ?? ""); this one exits")
            return .done
        }
        for warning in lock.warnings { console.error("warning: " + warning) }
        if notifyMode == .require, !c.notifyGiven {
            // Nobody watches a daemon's start: a notification server that is not up yet (a
            // login before the desktop's, a boot with linger) must not keep the alarms silent.
            console.error("warning: notify = \"require\" in the config file acts as \"auto\" for the daemon: it rings "
                          + "without a notification server rather than not at all ('wake daemon --notify require' refuses to start)")
            notifyMode = .auto
        }
        let notify = try NotifySetup.prepare(notifyMode, dryRun: false, signals: signals)
        let log: EventLog
        // Hooks hear the log's events, so a log there is, written or not.
        do {
            log = try c.events.map { path throws(EventLog.OpenError) in try EventLog(path: path, zone: zone) }
                ?? EventLog(listenersOnly: zone)
        } catch {
            throw WakeFailure(.cantCreate, error.description)
        }
        let session: AlarmSession
        do {
            session = try AlarmSession(mode: .daemon, zone: zone, console: console, log: log, signals: signals, inhibitor: .off,
                                       alarmTimers: wake.alarmTimers, settings: AlarmEngine.Settings())
        } catch {
            throw WakeFailure(.resource, "cannot set up the daemon: \(error); the system is short of a resource")
        }
        session.attach(ControlEndpoint())
        let notifier = NotifySetup.start(notify, mode: notifyMode, session: session, console: console)
        let inhibitLock: ((String?) throws(WakeFailure) -> Void)?
        if wake.wakesSystem || inhibit == .off {
            inhibitLock = nil  // the RTC wakes the machine, or the user said so
        } else {
            inhibitLock = { [unowned session] why throws(WakeFailure) in
                session.setInhibitor(try why.map { why throws(WakeFailure) in try OneOffAlarm.takeInhibitor(inhibit, why: why) } ?? .off)
            }
        }
        let services = DaemonController.Services(clock: SystemRuntimeClock(), timers: session.timers,
                                                 loadConfig: { () throws(WakeFailure) in ConfigDefaults.loadTolerant() },
                                                 inhibit: inhibitLock, builtInSound: DefaultSound.open,
                                                 announce: { [weak notifier] in notifier?.announce($0) })
        let controller = DaemonController(runner: session.runner, store: store, zone: zone, console: console, log: log,
                                          unpaced: c.unpaced, config: config, services: services)
        console.info("wake daemon running (pid \(getpid())); alarms in \(store.alarmsDirectory)"
            + (wake.wakesSystem ? "; the RTC (\(wake.clocks.joined(separator: ", "))) wakes a suspended machine for them" : ""))
        if let warning = wake.warning { console.error("warning: " + warning) }
        // Before an alarm, and after a change of the files, `wake doctor`'s checks for the next
        // alarm; on timers of the ordinary clocks (a check wakes no suspended machine).
        // The notices before and after each alarm, and the bedtime reminder's: without their
        // timer the alarms still ring, only the notices are lost.
        let skip = { (name: String) throws(WakeFailure) in
            _ = try StandingAlarmActions.skip(name: name, undo: false, console: console)
        }
        let notices = notifyMode == .off ? nil
            : try? AdvanceNotices(lead: noticeLead, console: console, occurrence: { [unowned controller] in controller.occurrence(of: $0) },
                                  skip: skip)
        let reminders = BedtimeCheck.Reminders(target: { [unowned controller] in controller.sleepTarget(of: $0) },
                                               remind: { [weak notices] in notices?.remind($0, $1, $2) })
        let bedtime = BedtimeCheck(lead: BedtimeLedger.lead(noticeBefore: noticeLead), controller: controller,
                                   clock: SystemRuntimeClock(), timers: ReactorTimers(reactor: session.reactor),
                                   notifyMode: notifyMode, notify: notifier.map { notifier in { [weak notifier] in notifier?.show($0) } },
                                   reminders: reminders)
        controller.onFilesChanged = { [unowned bedtime] in bedtime.filesChanged() }
        // Each alarm's own --mpris, read when the player would open, so a change to the files counts.
        session.attach(MediaPlayers(mode: { [unowned controller] in controller.mediaPlayerMode(of: $0) }))
        session.attach(bedtime)
        session.attach(HookDispatcher(log: log, settings: { [unowned controller] in controller.hooks(of: $0) }))
        do {
            try attach(controller, bedtime: bedtime, to: session, watching: directories, lock: lock, alarmsDirectory: store.alarmsDirectory)
            if let notices {
                if noticeLead > .zero { controller.onMissed = { [unowned notices] in notices.missedWhileDown($0, $1) } }
                session.attach(notices)
            }
            // The D-Bus API, on the session bus when there is one (it says so once when there is not).
            session.attach(BusAPI(controller: controller, clock: SystemRuntimeClock()))
            try controller.start()
        } catch {
            throw WakeFailure(.resource, "cannot watch the alarm files: \(error)")
        }
        let status = session.runDaemon()
        withExtendedLifetime(lock) {}
        return status
    }

    /// The session's hooks: reloads (and a bedtime check) on SIGHUP, reloads on a change in the watched directories,
    /// pending work before every wait, and the alarm's name and time in the console's lines.
    private static func attach(_ controller: DaemonController, bedtime: BedtimeCheck, to session: AlarmSession, watching directories: [String],
                               lock: DaemonLock, alarmsDirectory: String) throws(SystemCallError) {
        session.onReload = { [unowned controller, unowned bedtime] in
            controller.requestReload()
            bedtime.filesChanged()  // SIGHUP reads the files again, changed or not: the next alarm is checked again
        }
        session.beforeEachPoll = { [unowned controller] in controller.applyPending() }
        // Set before the D-Bus API attaches: it keeps this one and adds its own.
        controller.onReloaded = { [unowned session] in session.releaseAfterReload() }
        session.consoleObserver.alarmName = { "'\($0)' " }
        session.consoleObserver.deadlineText = { [unowned controller, unowned session] id in
            controller.occurrence(of: id).map { Formatting.clockTime($0, zone: session.zone) } ?? ""
        }
        // The machine's zone changed (the session watches /etc/localtime unless TZ pins it).
        session.onZoneChange = { [unowned controller] zone in controller.zoneChanged(to: zone) }
        session.consoleObserver.settings = { [unowned controller] id in controller.settings(of: id) }
        let console = session.console
        let watch: DirectoryWatch
        do { watch = try DirectoryWatch(directories: directories, ignoring: AlarmStore.isScratch) } catch {
            // Out of inotify instances (fs.inotify.max_user_instances): the alarms still ring,
            // and changes are found by looking, once a minute, instead of being told.
            console.error("warning: cannot watch the alarm files (\(error)); the daemon reads them again every minute and on SIGHUP: "
                          + "raise fs.inotify.max_user_instances")
            try pollFiles(every: .seconds(60), session: session, controller: controller)
            return
        }
        session.reactor.register(fd: watch.fd) { [unowned controller, unowned session] _ in
            let changes = watch.drain()
            for gone in changes.removed {
                console.error("warning: '\(gone.printable)' was removed; the daemon reads it again when it is back")
            }
            for back in changes.restored {
                console.info("'\(back.printable)' is there again; reading it")
                guard back == alarmsDirectory else { continue }
                // The lock stayed on the removed directory: a daemon started now would not see it.
                do throws(DaemonLock.HeldByAnother) { try lock.renew() } catch {
                    console.info("a wake daemon\(error.pid.map { " (pid \($0))" } ?? "") took over the alarms in "
                                 + "\(alarmsDirectory.printable) while it was away; this one exits")
                    session.endDaemon(because: "a wake daemon that took over")
                    return
                }
                for warning in lock.warnings { console.error("warning: " + warning) }
            }
            if changes.any { controller.requestReload() }
        }
    }

    /// Reloads every `period` on the boot clock (it follows neither clock steps nor suspends:
    /// a resume is a reload anyway).
    private static func pollFiles(every period: Duration, session: AlarmSession, controller: DaemonController) throws(SystemCallError) {
        let clock = SystemRuntimeClock()
        var timer: DeadlineTimer?
        timer = try session.timers.deadlineTimer(.elapsed) { [unowned controller] _ in
            controller.requestReload()
            try? timer?.arm(Wait(instant: clock.now().boottime + period, clock: .elapsed))
        }
        try timer?.arm(Wait(instant: clock.now().boottime + period, clock: .elapsed))
    }
}
