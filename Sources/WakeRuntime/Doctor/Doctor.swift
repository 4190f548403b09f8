import WakeCore
import WakeEngine
import WakeSystem

/// `wake doctor [NAME...]`: every check that decides whether the next alarms will be heard, from
/// the daemon's point of view, each found as PASS, WARN or FAIL with what to do. The sound checks
/// are the arm-time checks every alarm gets (`ArmChecks`, `DeviceCheck`, `MixerCheck`), in the
/// daemon's mode; the rest look at what lies between a set alarm and a heard one (the daemon,
/// the clock, the sound server, waking, notifications, the files). Nothing is changed.
public enum Doctor {
    /// What the checks read, the user's by default (the in-process tests give their own).
    public struct Context {
        public var standing: StandingContext
        public var environment: DaemonEnvironment.Source
        public var signals: SignalChannel
        /// The hooks folder the daemon reads (`HookFolder.directory`).
        public var hooksFolder: String?

        public init(standing: StandingContext, environment: DaemonEnvironment.Source, signals: SignalChannel,
                    hooksFolder: String? = HookFolder.directory) {
            self.standing = standing
            self.environment = environment
            self.signals = signals
            self.hooksFolder = hooksFolder
        }
    }

    /// Takes on the daemon's environment (the running daemon's, else the user manager's, which
    /// the unit inherits), so that the sound server, the session bus and the zone are the ones
    /// the daemon reaches. Before any thread starts.
    public static func adoptDaemonEnvironment() -> DaemonEnvironment.Source {
        if let pid = DaemonLock.runningPID(), let environment = DaemonEnvironment.environment(ofProcess: pid) {
            ProcessStart.adopt(environment)
            return .daemon(pid: pid)
        }
        if case .success(let out) = ChildProcess.run(["systemctl", "--user", "show-environment"], timeout: .seconds(1)), out.status == 0 {
            ProcessStart.adopt(DaemonEnvironment.parse(out.stdout.split(separator: "\n").map(String.init)))
            return .userManager
        }
        return .shell
    }

    /// The command: the checks, printed; the worst status is the result (0, 1, 2).
    public static func run(names: [String], json: Bool, console: Console, context: Context) throws(WakeFailure) -> CommandResult {
        if json && (MessageCatalogue.current != nil || ClockStyle.current != .twentyFourHour) {
            return try MachineText.written { () throws(WakeFailure) in try run(names: names, json: true, console: console,
                                                                               context: context) }
        }
        let report = DoctorReport(try findings(names: names, context: context))
        console.results(json ? report.json() : report.lines())
        return .diagnosed(report.worst)
    }

    /// Every check, in the areas' order. Throws for an unknown NAME (a usage error) and when a
    /// signal ends a check.
    public static func findings(names: [String], context: Context) throws(WakeFailure) -> [DoctorFinding] {
        let standing = context.standing
        let store = standing.store
        // Read once: the config file (as the daemon reads it) and whether a daemon holds the lock.
        let config = standing.config()
        let running = standing.daemonRunning()
        // The alarms as the daemon reads them: a broken one set aside (said under files), the rest
        // checked; read without keeping a last good copy, as the doctor changes nothing.
        let alarms = store.loadTolerant(keepLastGood: false).alarms ?? []
        for name in names where !alarms.contains(where: { $0.name == name }) { throw StandingAlarmActions.unknown(name) }
        let chosen = names.isEmpty ? alarms : alarms.filter { names.contains($0.name) }
        // The history as the daemon reads it too: a bad line set aside (said under files), the rest
        // kept, so a skip or a pause it holds still shows in the ring times.
        let history = store.loadHistoryTolerant().records
        let console = Console(quiet: true)
        let zone = standing.zone(console)
        let now = standing.now()
        // Every alarm's calendars, read once on this one clock: the files' check judges them all,
        // the ring times those of the alarms chosen.
        let daysOff = AlarmDaysOff(alarms, config: config, now: now, zone: zone)
        var out = fileFindings(store: store, configPath: config.path,
                               calendars: calendarFindings(alarms: alarms, daysOff: daysOff, history: history, config: config))
        let rows = StandingAlarmActions.rows(chosen, history: history, zone: zone, now: now, daemon: running, config: config,
                                             daysOff: daysOff)
        // Only what will ring is worth the sound checks; a finished one-off or a paused alarm is said under time.
        let ringing = rows.filter { $0.next != nil }
        out += daemonFindings(alarmCount: alarms.count, running: running, environment: context.environment)
        out += timeFindings(rows: rows, zone: zone, now: now)
        if alarms.isEmpty {
            out += try firstAlarmFindings(config: config, now: now, signals: context.signals)
        } else {
            out += try soundFindings(rows: ringing, config: config, signals: context.signals)
        }
        out += wakingFindings(rows: ringing, config: config, zone: zone, now: now)
        out += notificationFindings(config: config)
        out += hookFindings(rows: rows, config: config, folder: context.hooksFolder)
        return DoctorFinding.merged(out)
    }

    /// With no alarm yet, the path a first one would ring on: the sound checks of an alarm with
    /// no options of its own (config.toml's, else wake's built-in sound on the default device),
    /// each said as the new alarm's, so a first-timer learns tonight what would keep it unheard.
    static func firstAlarmFindings(config: ConfigDefaults, now: Instant, signals: SignalChannel?) throws(WakeFailure) -> [DoctorFinding] {
        let first = StandingAlarm(name: "", hour: 7, minute: 0, second: 0, days: 0, date: nil, options: [:], created: now)
        let row = StandingAlarmActions.Row(alarm: first, next: nil, state: "waiting", skipNext: false, missed: nil, pausedUntil: nil,
                                           settings: nil)
        return try soundFindings(rows: [row], config: config, signals: signals).map { f in
            var f = f
            f.alarms = []
            f.found = localized("a new alarm: {finding}", f.found)
            return f
        }
    }
}

extension Doctor {
    /// The daemon's bedtime check (issue 39, `BedtimeCheck`): for one alarm, the sound checks
    /// `wake doctor` runs (its file, its device, the output behind it and what the guards will do),
    /// and, when the daemon shows notifications, the notification server. Not the files, the
    /// daemon, the time or waking: the daemon says its files' problems itself, and is the daemon.
    /// The options' adjustments (`sound.options`) are left out too: the daemon says them when it
    /// reads the alarm.
    ///
    /// Runs off the daemon's loop, on a thread of its own: no signal channel is read (that would
    /// take the loop's signals), each device or mixer check is bounded by the stall limit, and a
    /// decoding ends when a signal that ends the daemon is pending. Nil then: the daemon is ending.
    ///
    /// `notify`: the daemon's `--notify`. Off, the server is not looked at; `auto` says nothing of
    /// a server that is not there (a session without one is no news to it), only of one without
    /// buttons.
    static func bedtimeFindings(for alarm: StandingAlarm, config: ConfigDefaults, notify: AlarmOptions.NotifyMode) -> [DoctorFinding]? {
        let row = StandingAlarmActions.Row(alarm: alarm, next: nil, state: "waiting", skipNext: false, missed: nil, pausedUntil: nil, settings: nil)
        var out: [DoctorFinding]
        do {
            out = try soundFindings(rows: [row], config: config, signals: nil,
                                    interrupt: { SignalChannel.pending(ignoring: AlarmSession.keptRunningBy) })
        } catch {
            if case .interrupted = error.kind { return nil }
            // Not even wake's built-in sound opens: what the daemon says when it arms the alarm.
            out = [DoctorFinding(.sound, "sound.file", alarms: [alarm.name], .fail, error.message, fix: localized("reinstall wake"))]
        }
        out.removeAll { $0.check == "sound.options" }
        if notify != .off { out += notificationFindings(config: config, absentIsNews: notify == .require) }
        return out
    }
}
