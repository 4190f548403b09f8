import WakeCore
import WakeSystem

/// What `wake add`, `list`, `skip` and `remove` do: each reads and changes the alarms file under
/// its lock, so two at once never lose a change, and the daemon sees the change at once.
public enum StandingAlarmActions {
    static func usage(_ m: String) -> WakeFailure { WakeFailure(.usage, m) }

    static func storeError(_ error: StoreError) -> WakeFailure {
        WakeFailure(error.isCorrupt ? .config : .cantCreate, error.description)
    }

    static func zone(_ console: Console) -> TimeZoneRules {
        let (zone, warning) = ZoneLoader.local()
        if let warning { console.error("warning: " + warning) }
        return zone
    }

    // MARK: add

    /// What `wake add` was given: WHEN as its words, the ring options checked, and the value
    /// options the command line itself gave (`--volume`), which are what gets stored.
    public struct AddRequest {
        public var when: [String]
        public var days: String?
        public var name: String?
        public var ring: RingSettings
        public var given: Set<String>
        /// `--skip-days`: the holiday calendars, as given (relative names are made absolute).
        public var skipDays: [String]

        public init(when: [String], days: String?, name: String?, ring: RingSettings, given: Set<String>, skipDays: [String] = []) {
            self.when = when
            self.days = days
            self.name = name
            self.ring = ring
            self.given = given
            self.skipDays = skipDays
        }
    }

    public static func add(_ c: AddRequest, console: Console, signals: SignalChannel, in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        _ = try addAlarm(c, console: console, signals: signals, in: context)
        return .done
    }

    /// `wake add`'s work, returning the name the alarm was stored under (given, or made from
    /// its time). `signals`: the channel whose signals end the device check; nil off the
    /// loop's thread (the daemon's D-Bus API), where the check is bounded by the stall limit alone.
    public static func addAlarm(_ c: AddRequest, console: Console, signals: SignalChannel?, in context: StandingContext? = nil) throws(WakeFailure) -> String {
        let context = try StandingContext.given(context)
        guard !c.when.isEmpty else { throw usage("missing WHEN: say when it rings, as 'wake add 06:30 --days weekdays'") }
        let text = c.when.joined(separator: " ")
        let spec: WakeSpec
        do { spec = try WakeSpec(parsing: c.when) } catch { throw usage(error.description) }
        var date: CivilDate?
        let (hour, minute, second): (Int, Int, Int)
        switch spec {
        case .timeOfDay(let h, let m, let s):
            (hour, minute, second) = (h, m, s)
        case .dateTime(let local):
            (hour, minute, second) = (local.hour, local.minute, local.second)
            date = local.date
        case .dayTime(let day, let h, let m, let s):
            // `wake add tomorrow 6:30`: a one-off on the date the day names now.
            let local: LocalDateTime
            do { local = try Schedule.reading(day, hour: h, minute: m, second: s, token: text, now: context.now(), zone: context.zone(console)) } catch {
                throw usage(error.description)
            }
            (hour, minute, second) = (h, m, s)
            date = local.date
        default:
            throw usage("a standing alarm needs a time of day (06:30), a day and a time (tomorrow 6:30) or a local date and time (2026-11-24T06:30), not '\(text.printable)'")
        }
        var days = DaySet.none
        if let d = c.days {
            guard date == nil else { throw usage("--days does not go with a date: an alarm on a date rings once; give a time of day") }
            do { days = try DaySet(parsing: d) } catch { throw usage(error.description) }
        }
        if let name = c.name, !StandingAlarm.isValidName(name) {
            throw usage("--name: invalid name '\(name.printable)'; use 1 to 32 of a-z, 0-9, - and _")
        }
        if let name = c.name, SnoozeRequest.readsAsLength(name) {
            throw usage("--name: '\(name.printable)' reads as a length, so 'wake snooze \(name.printable)' would be a snooze of that length; "
                        + "give a name that is not a length, as 'nap-\(name.printable)'")
        }
        let settings = c.ring
        let zone = context.zone(console)
        let now = context.now()
        // Stored: what the command line gave. The config file's defaults stay in the config file,
        // so changing it later changes the alarms that did not say otherwise.
        // (A value equal to the built-in default is stored too: it may differ from the file's.)
        var stored = settings.values.filter { c.given.contains("--" + $0.key) }
        // A sound named here is read later by the daemon, from its own working directory:
        // stored with its absolute name, as the calendars are.
        for option in AlarmOption.all(.stored) where option.kind == .file {
            guard let typed = stored[option.name] else { continue }
            do { stored[option.name] = try WorkingDirectory.absolute(typed) } catch {
                throw WakeFailure(.config, "\(option.flag): cannot make '\(typed.printable)' an absolute name: \(error); give the file's full path")
            }
        }
        let config = context.config()
        let calendars = try checkCalendars(c.skipDays, recurring: !days.isEmpty, config: config, zone: zone, now: now, console: console)
        if let paths = calendars.stored { stored[AlarmOption.skipDays.name] = paths }
        var alarm = StandingAlarm(name: c.name ?? "", hour: hour, minute: minute, second: second, days: days.bits, date: date,
                                  options: stored, created: now)
        guard StandingSchedule.occurrence(of: alarm, after: now, zone: zone) != nil else {
            throw usage("'\(text.printable)' is in the past; give a future date and time, or a time of day")
        }
        // Its first ring as the daemon will plan it: the calendar's days passed over. A calendar
        // that leaves a recurring alarm no day in the next year is a mistake (a mistyped DTEND or
        // RRULE), said now; a one-off rings on its own day, however far ahead.
        let first = StandingSchedule.plan(alarm, record: AlarmRecord(name: alarm.name), lateLimit: .zero, now: now, zone: zone,
                                          dayOff: calendars.calendars.dayOff)
        guard let next = first.next, alarm.days == 0 || next.instant - now <= .seconds(366 * 86_400) else {
            // The calendars are the command's own when it gave some, else config.toml's.
            throw noDayInAYear(first, calendars: calendars.calendars, fromConfig: calendars.stored == nil ? config : nil, now: now,
                               zone: zone)
        }

        // The checks a one-off alarm gets (ArmChecks, the same device and mixer checks), so
        // 07:00 finds nothing new wrong.
        // A folder or list: every file decoded and checked now, one warning per file refused.
        let checked = try ArmChecks.sound(settings.soundPath, volume: settings.volume, mode: .add,
                                          interrupt: { SignalChannel.pending() }, progress: { console.info($0) }, builtIn: DefaultSound.open)
        let sound = checked.file
        for warning in checked.warnings { console.error(warning) }
        // Spoken once now, so a missing espeak-ng is said tonight; the daemon speaks it again at each arm.
        if settings.say {
            _ = try ArmChecks.speech(SpeechClip.text(message: settings.message, hour: hour, minute: minute), mode: .add, sounds: [])
        }
        if let pre = settings.engine.preAlarm {
            _ = try ArmChecks.preAlarmSound(settings.preAlarmSoundPath, volume: pre.volume(of: settings.volume), mode: .add,
                                            interrupt: { SignalChannel.pending() })
        }
        do { try ALSAEnvironment.check() } catch { throw WakeFailure(.unavailable, error.description) }
        let check: DeviceCheck.Report
        let mixer: MixerCheck.Report
        do {
            check = try DeviceCheck.run(settings.device, sound: sound, dryRun: true, signals: signals)
            mixer = try MixerCheck.run(device: settings.device, policy: settings.mixer, signals: signals)
        } catch {
            throw error.asAdding
        }
        if let warning = check.warning { console.error(warning) }
        // A muted or quiet output is worth knowing tonight; the mixer guard raises it at ring time.
        if mixer.notable { console.error("warning: mixer: " + mixer.text) }

        let store = context.store
        let given = c.name
        let added: String?
        do {
            added = try store.update { alarms -> String? in
                let taken = Set(alarms.map(\.name))
                if let given { if taken.contains(given) { return nil } } else { alarm.name = generatedName(alarm, taken: taken) }
                alarms.append(alarm)
                return alarm.name
            }
        } catch {
            throw storeError(error)
        }
        guard let name = added else {
            throw usage("an alarm named '\((given ?? "").printable)' exists already; remove it first or choose another --name")
        }
        // Its first ring, the calendar's days passed over said (the first few, and a count).
        let reasons = StandingSchedule.shortened(StandingSchedule.reasons(first.passedOver, skipsAhead: 0, now: now, zone: zone),
                                                 complete: first.passedOver.count < StandingSchedule.passedOverKept)
        console.info("added '\(name)': \(rule(alarm)); next \(Formatting.ringsAt(next.instant, now: now, zone: zone))"
                     + reasons.map { "; " + $0.printable }.joined())
        if let note = Formatting.gapNote(next, zone: zone) { console.info(note) }
        // Whether the daemon can arm it on the RTC, as far as can be told from here.
        let look = WakeSystemPlan.lookNow()
        if !look.wakesSystem, let obstacle = look.obstacle { console.error("warning: " + WakeSystemSupport.warning(obstacle)) }
        if !context.daemonRunning() {
            console.info("no daemon is running to ring it: start one with 'systemctl --user enable --now wake', or run 'wake daemon'")
        }
        return name
    }

    /// The holiday calendars `wake add` was given (or config.toml gives): each must read, now
    /// rather than at 06:30 on a holiday (exit 78 naming the file and line); one that runs out
    /// within 60 days is said. `stored`: the option's text with absolute names, for alarms.toml.
    static func checkCalendars(_ given: [String], recurring: Bool, config: ConfigDefaults, zone: TimeZoneRules, now: Instant,
                               console: Console) throws(WakeFailure) -> (stored: String?, calendars: DayOffCalendars) {
        let flag = AlarmOption.skipDays.flag
        if !given.isEmpty && !recurring {
            throw usage("\(flag) is for an alarm that repeats: a one-off rings on the day it names; add --days, or leave out \(flag)")
        }
        var paths: [String] = []
        for name in given {
            if case .failure(let problem) = AlarmOption.skipDays.parse(name) { throw usage(problem.message) }
            if name.contains(AlarmOption.listSeparator) { throw usage("\(flag): the file name '\(name.printable)' holds a line break; rename the file") }
            do {
                let path = try WorkingDirectory.absolute(name)
                if !paths.contains(path) { paths.append(path) }
            } catch {
                throw WakeFailure(.config, "\(flag): cannot make '\(name.printable)' an absolute name: \(error); give the calendar's full path")
            }
        }
        let text = paths.isEmpty ? (recurring ? DayOffCalendars.configured(config) : nil)
                                 : paths.joined(separator: String(AlarmOption.listSeparator))
        let calendars = DayOffCalendars.read(text, zone: zone)
        if let problem = calendars.problems.first { throw WakeFailure(.config, problem) }
        for warning in calendars.runningOut(today: zone.localTime(at: now).date) { console.error("warning: " + warning) }
        return (paths.isEmpty ? nil : text, calendars)
    }

    /// `wake add` (and the D-Bus API's Add) refusing a calendar that leaves the alarm no day to
    /// ring in the next year: exit 78, naming the calendar and where it was given (`--skip-days`,
    /// or config.toml's `skip-days` when the command gave none: `config` is then that file).
    static func noDayInAYear(_ plan: StandingSchedule.Plan, calendars: DayOffCalendars, fromConfig config: ConfigDefaults?, now: Instant,
                             zone: TimeZoneRules) -> WakeFailure {
        let files = calendars.paths(holding: plan.passedOver, zone: zone)
        let named = files.isEmpty ? "its calendars leave" : files.joined(separator: ", ") + (files.count == 1 ? " leaves" : " leave")
        let when = plan.next.map { "its first day to ring is \(Formatting.datePhrase($0.instant, now: now, zone: zone))" }
            ?? StandingSchedule.noDayPhrase(until: plan.noDayUntil ?? now, files: files, now: now, zone: zone)
        let problem = "\(named) the alarm no day to ring in the next year (\(when)); "
            + "correct the calendar (is an event's DTEND or RRULE mistyped?) or "
        guard let config else { return WakeFailure(.config, "\(AlarmOption.skipDays.flag): " + problem + "give another") }
        let key = AlarmOption.skipDays.name
        let at = config.entry(key).map { " line \($0.line), \(key)" } ?? ", \(key)"
        return WakeFailure(.config, "config file '\((config.path ?? "config.toml").printable)'\(at): " + problem + "take it out of \(key)")
    }

    /// `0630`, `0630-weekdays`, `0630-mon-wed-fri`, then `-2`, `-3` ... while taken.
    static func generatedName(_ a: StandingAlarm, taken: Set<String>) -> String {
        var base = a.shortTimeText.filter { $0 != ":" }
        if a.days != 0 { base += "-" + a.daySet.canonical.replacingCommas() }
        if let d = a.dateText { base += "-" + d }
        base = String(base.prefix(28))
        var name = base
        var n = 2
        while taken.contains(name) { name = "\(base)-\(n)"; n += 1 }
        return name
    }

    /// `06:30 on weekdays`, `06:30 once`, `06:30 on 2026-11-24`.
    static func rule(_ a: StandingAlarm) -> String {
        if let d = a.dateText { return "\(a.shortTimeText) on \(d)" }
        if a.days == 0 { return "\(a.shortTimeText) once" }
        return "\(a.shortTimeText) on \(a.daySet.canonical)"
    }

    // MARK: list

    struct Row {
        var alarm: StandingAlarm
        var next: Deadline?
        var state: String
        var skipNext: Bool
        var missed: Instant?
        /// Until when `wake pause` keeps it quiet, while that is ahead.
        var pausedUntil: Instant?
        /// How the daemon rings it: its stored options over config.toml, read as the daemon
        /// reads them, and each option it sets aside or changes.
        var settings: RingSettings?
        var adjustments: [RingSettings.Adjustment] = []
        /// The occurrences passed over before `next`, and why, said as phrases (`reasons`).
        var passedOver: [StandingSchedule.PassedOver] = []
        var reasons: [String] = []
        /// `reasons` come from every occurrence passed over (not only the plan's first `passedOverKept`).
        var reasonsAll = true
        /// A recurring alarm with no day to ring (`Plan.noDayUntil`): why, as `DayOffCalendars.noDay` says it.
        var noDay: String?
        /// The skips asked for that lie ahead; the pause's start when it lies ahead.
        var skips: [Instant] = []
        var pausedFrom: Instant?
        /// Every pause that has not ended, in order (`pausedUntil`, `pausedFrom`: the first).
        var pauses: [Pause] = []
        /// Whether an occurrence after `next` rings: the record's skips and pause, the calendars' days off.
        var rings: (Instant) -> Bool = { _ in true }
    }

    /// `Mon 7 Dec 00:00`, `tomorrow 12:00`: when a pause ends.
    static func pauseText(_ t: Instant, now: Instant, zone: TimeZoneRules) -> String {
        "\(Formatting.dayPhrase(t, now: now, zone: zone)) \(Formatting.clockTime(t, zone: zone))"
    }

    static func rows(_ alarms: [StandingAlarm], history: [String: AlarmRecord], zone: TimeZoneRules, now: Instant, daemon: Bool,
                     config: ConfigDefaults = ConfigDefaults(), daysOff: AlarmDaysOff? = nil) -> [Row] {
        let daysOff = daysOff ?? AlarmDaysOff([], config: config, now: now, zone: zone)
        return alarms.sorted { $0.name < $1.name }.map { a in
            let record = history[a.name] ?? AlarmRecord(name: a.name)
            let read = try? RingSettings.tolerating(stored: a.options, defaults: config)
            // The next occurrence as the daemon will see it: skips, the pause and holidays passed over.
            let dayOffs = daysOff[a.name]
            let plan = StandingSchedule.plan(a, record: record, lateLimit: RingSettings.lateLimit(of: a, config: config), now: now,
                                             zone: zone, dayOff: dayOffs.dayOff)
            let upcoming = plan.next
            let ahead = plan.ahead(of: now)
            let skips = record.skipInstants(of: a, zone: zone).filter { $0 > now }
            let skipNext = ahead.contains { $0.reason == .requested } || (record.lastSkipped.map { $0 > now } ?? false)
            let reasons = StandingSchedule.reasons(ahead, skipsAhead: skips.count, now: now, zone: zone)
            let reasonsAll = plan.passedOver.count < StandingSchedule.passedOverKept
            let noDay = daysOff.noDay(a.name, plan)
            var state = "waiting"
            // The pause in force, or else the next one planned.
            let pause = record.pauses.first { $0.until > now }
            let pausedFrom = pause.flatMap { $0.hasBegun(at: now) ? nil : $0.from }
            let paused = pause.flatMap { $0.hasBegun(at: now) ? $0.until : nil }
            if daemon, record.ringingSince != nil { state = "ringing" }
            else if daemon, let s = record.snoozedUntil, s > now {
                state = "snoozed until \(Formatting.clockTimeAndDay(s, now: now, zone: zone, alwaysSeconds: true))"
            }
            else if let noDay { state = "no day rings: " + noDay }
            else if let p = paused, plan.keptUntil == p, let due = oneOffTime(a, zone: zone), due <= now {
                // A one-off whose time passed inside the pause: kept, and shown, until the pause ends.
                state = "skipped by the pause until \(pauseText(p, now: now, zone: zone))"
            } else if let p = paused { state = "paused until \(pauseText(p, now: now, zone: zone))" }
            else if !reasons.isEmpty { state = StandingSchedule.shortened(reasons, complete: reasonsAll).joined(separator: "; ") }
            else if skipNext { state = "skipped-next" }
            else if let f = pausedFrom, let u = pause?.until {
                state = "waiting; paused from \(pauseText(f, now: now, zone: zone)) until \(pauseText(u, now: now, zone: zone))"
            }
            else if let m = record.missed ?? plan.missed.last, m > (record.lastFired ?? Instant(nanoseconds: Int64.min)) {
                // Recorded by the daemon, or passed while none ran (it will record it at start).
                state = "missed at \(Formatting.dayPhrase(m, now: now, zone: zone)) \(Formatting.clockTime(m, zone: zone, alwaysSeconds: true))"
            } else if upcoming == nil {
                state = "done"  // a one-off that has rung, or whose time passed: nothing left to ring
            }
            return Row(alarm: a, next: upcoming, state: state, skipNext: skipNext, missed: record.missed ?? plan.missed.last,
                       pausedUntil: pause?.until, settings: read?.settings, adjustments: read?.adjustments ?? [],
                       passedOver: ahead, reasons: reasons, reasonsAll: reasonsAll, noDay: noDay, skips: skips, pausedFrom: pausedFrom,
                       pauses: record.pauses.filter { $0.until > now },
                       rings: { t in
                           !record.isSkipped(t, zone: zone) && !record.isPaused(t)
                               && (a.days == 0 || dayOffs.dayOff(zone.localTime(at: t).date) == nil)
                       })
        }
    }

    /// A one-off's one occurrence, whether or not it has passed; nil for a recurring alarm.
    static func oneOffTime(_ a: StandingAlarm, zone: TimeZoneRules) -> Instant? {
        a.days == 0 ? StandingSchedule.occurrence(of: a, after: a.created, zone: zone)?.instant : nil
    }

    /// One line of `wake list`: a standing alarm, or a one-off alarm some process is running.
    struct Entry {
        var id: String
        var pid: Int32?
        var standing: Row?
        var time: String
        var days: String
        var next: Instant?
        var state: String
        /// The state as the table shows it, when it says more than `state` (the snooze count).
        var shownState: String?
        var sound: String?
        var device: String
        /// Whether the RTC wakes a suspended machine for it: what the process that runs it said,
        /// or, for a standing alarm no daemon has armed, what a daemon started now would do; nil
        /// when not known (a wake too old to say).
        var wakesSystem: Bool?
        var message: String?
        /// Ringing or snoozed, as the process that runs it said; and since when it rings.
        var phase: NextAlarm.State = .waiting
        var ringingSince: Instant?
        /// The snoozes its ringing or snoozed occurrence has used, as the process that runs it
        /// said; nil while it waits, or when no process says.
        var snoozesUsed: Int?
        /// `--snooze-limit`: as the running process said, or as the daemon would ring it; nil for none.
        var snoozeLimit: Int?
    }

    /// Where a running wake said one of its alarms is (`silent` is ringing with no device and no bell).
    static func phase(_ r: ControlRecord?) -> NextAlarm.State {
        switch r?["state"] {
        case "ringing"?, "silent"?: return .ringing
        case "snoozed"?: return .snoozed
        case "pre-ringing"?: return .preRinging
        default: return .waiting
        }
    }

    /// What a running wake said about one of its alarms, as `wake list` shows it. `counted`: with
    /// the occurrence's snoozes of its limit, when it has one (`snoozed 2 of 3 until 07:18:00`,
    /// `ringing (snoozed 1 of 3)`), as the table shows it so a limit is never a surprise at
    /// 07:00; the JSON's `state` keeps its words and has the count in fields of its own.
    static func liveState(_ r: ControlRecord, zone: TimeZoneRules, now: Instant, counted: Bool = false) -> String {
        let count = counted ? r.snoozes ?? SnoozeCount() : SnoozeCount()
        switch r["state"] {
        case "snoozed":
            let until = r.instant("next").map { " until " + Formatting.clockTimeAndDay($0, now: now, zone: zone, alwaysSeconds: true) }
            return count.snoozed + (until ?? "")
        case let s? where s == "ringing" || s == "silent": return s + (count.ofLimit.map { " (snoozed \($0))" } ?? "")
        case let s?: return s.printable
        case nil: return "?"
        }
    }

    /// `wouldWake`: whether an alarm armed now would wake the machine, for the alarms no daemon
    /// has said so for (`WakeLook`, asked at most once).
    static func entries(_ rows: [Row], running: [ControlRecord], zone: TimeZoneRules, now: Instant, wouldWake: () -> Bool) -> [Entry] {
        func said(_ r: ControlRecord?) -> Bool? { r?["wakes_system"].map { $0 == "1" } }
        var live: [String: ControlRecord] = [:]
        for r in running where r["kind"] == "alarm" && r["standing"] == "1" { if let id = r["id"] { live[id] = r } }
        var entries = rows.map { row -> Entry in
            let a = row.alarm
            let r = live[a.name]
            // The daemon's own word beats the history file while it runs the alarm.
            var state = row.state
            var shown: String?
            var next = row.next?.instant
            if let r, r["state"] != "waiting" {
                state = liveState(r, zone: zone, now: now)
                shown = liveState(r, zone: zone, now: now, counted: true)
                next = r.instant("next")
            }
            // What the daemon rings with, config.toml and set-aside options included.
            let s = row.settings
            return Entry(id: a.name, pid: r?["pid"].flatMap { Int32($0) }, standing: row, time: a.timeText,
                         days: a.dateText ?? (a.days == 0 ? "once" : a.daySet.canonical), next: next, state: state,
                         shownState: shown, sound: s.map { $0.soundPath } ?? a.options["sound"], device: s?.device ?? a.options["device"] ?? Defaults.device,
                         wakesSystem: said(r) ?? wouldWake(), message: s.map { $0.message } ?? a.options["message"],
                         phase: phase(r), ringingSince: r?.instant("since"),
                         snoozesUsed: phase(r) == .waiting ? nil : r?.snoozes?.used,
                         snoozeLimit: r?.snoozes.map(\.limit) ?? s?.engine.snoozeLimit)
        }
        for r in running where r["kind"] == "alarm" && r["standing"] != "1" {
            entries.append(Entry(id: r["id"] ?? "?", pid: r["pid"].flatMap { Int32($0) }, standing: nil, time: r["time"] ?? "",
                                 days: "once", next: r.instant("next"),
                                 state: liveState(r, zone: zone, now: now), shownState: liveState(r, zone: zone, now: now, counted: true),
                                 sound: r["sound"].flatMap { $0.isEmpty ? nil : $0 },
                                 device: r["device"] ?? "", wakesSystem: said(r), message: r["message"].flatMap { $0.isEmpty ? nil : $0 },
                                 phase: phase(r), ringingSince: r.instant("since"),
                                 snoozesUsed: phase(r) == .waiting ? nil : r.snoozes?.used,
                                 snoozeLimit: r.snoozes?.limit))
        }
        return entries
    }

    /// What `wake list` and `wake next` show: every standing alarm and every running one-off.
    struct Overview {
        var entries: [Entry]
        var standingCount: Int
        var daemon: Bool
        var zone: TimeZoneRules
        var now: Instant
        /// What the daemon sets aside in the files, said as warnings (`wake list` exits 78).
        var problems: [String]
        /// Whether an alarm armed now would wake the machine, looked at once for the WAKES column
        /// and the note under it (the look reads /proc and two directories).
        var wakeLook: WakeLook
    }

    /// `WakeSystemPlan.lookNow()`, asked at most once.
    final class WakeLook {
        private var looked: (wakesSystem: Bool, obstacle: WakeSystemSupport.Obstacle?)?
        var now: (wakesSystem: Bool, obstacle: WakeSystemSupport.Obstacle?) {
            if let looked { return looked }
            let look = WakeSystemPlan.lookNow()
            looked = look
            return look
        }
    }

    static func overview(console: Console, in context: StandingContext) throws(WakeFailure) -> Overview {
        let store = context.store
        // What the daemon rings: a broken alarm set aside, the rest shown, and why (exit 78).
        let read = store.loadTolerant()
        guard let alarms = read.alarms else {
            do { _ = try store.load() } catch { throw storeError(error) }
            throw WakeFailure(.config, read.problems.first ?? "cannot read the alarms")
        }
        let history: [String: AlarmRecord]
        do { history = try store.loadHistory() } catch { throw storeError(error) }
        let config = context.config()
        let zone = context.zone(console)
        let now = context.now()
        let daemon = context.daemonRunning()
        // Each alarm's holiday calendars; one the daemon cannot read is a problem too, one running out a warning.
        let daysOff = AlarmDaysOff(alarms, config: config, now: now, zone: zone)
        let calendarProblems = daysOff.problems.filter { $0.kind == .unreadable }.map { $0.line + AlarmDaysOff.meanwhile }
        let runningOut = daysOff.problems.filter { $0.kind == .runningOut }.map(\.line)
        let rows = rows(alarms, history: history, zone: zone, now: now, daemon: daemon, config: config, daysOff: daysOff)
        // An option the daemon sets aside is a problem in the file, as a broken alarm is.
        let problems = read.problems + config.problems + calendarProblems + rows.flatMap { row in row.adjustments.map { $0.line(alarm: row.alarm.name) } }
        // A skipped comment (read.notes) is said too, but costs nothing: not a problem.
        defer { for p in problems + read.notes + runningOut { console.error("warning: " + p) } }
        var running: [ControlRecord] = []
        do { running = try ControlActions.ask(.list, in: try context.controlDirectory(), console: console) } catch {
            console.error("warning: \(error.message); running alarms are not shown")
        }
        let look = WakeLook()
        let entries = entries(rows, running: running, zone: zone, now: now, wouldWake: { look.now.wakesSystem })
        return Overview(entries: entries, standingCount: alarms.count, daemon: daemon, zone: zone, now: now, problems: problems,
                        wakeLook: look)
    }

    static let noDaemonNote = "note: no daemon is running, so the standing alarms do not ring; start one with 'systemctl --user enable --now wake'"

    /// `wake next`: what rings now, else the soonest alarm to ring, one line (or one JSON
    /// object); exit 1 when none.
    public static func next(json asJSON: Bool, console: Console, in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        let look = try soonest(console: console, in: try StandingContext.given(context))
        guard let next = look.alarm else { return .failed(.nothingMatched) }
        if asJSON { console.json(next.json(now: look.now, zone: look.zone)) } else { console.result(next.line(now: look.now, zone: look.zone)) }
        if let note = look.note { console.error(note) }
        return .done
    }

    /// What `wake next` answers, and when and where it looked.
    struct NextLook {
        var alarm: NextAlarm?
        var now: Instant
        var zone: TimeZoneRules
        /// Said under the answer: a standing alarm is next, but no daemon runs to ring it.
        var note: String?
    }

    /// The alarm that rings now, else the soonest to ring, of every standing alarm and running
    /// one-off; the files' problems said on `console` as warnings.
    static func soonest(console: Console, in context: StandingContext) throws(WakeFailure) -> NextLook {
        let o = try overview(console: console, in: context)
        let candidates = o.entries.compactMap { e -> NextAlarm? in
            // A ringing alarm has no next time: it is the answer, since when it rings (a wake too
            // old to say since when: now).
            if e.phase == .ringing {
                return NextAlarm(id: e.id, standing: e.standing != nil, at: e.ringingSince ?? o.now, message: e.message, state: .ringing)
            }
            guard let at = e.next else { return nil }
            // Why the days before it do not ring (a snoozed alarm rings on the day it rang).
            let skipped = e.phase == .waiting ? e.standing?.reasons ?? [] : []
            return NextAlarm(id: e.id, standing: e.standing != nil, at: at, message: e.message, state: e.phase, skipped: skipped,
                             skippedAll: e.standing?.reasonsAll ?? true)
        }
        let next = NextAlarm.soonest(candidates)
        let note = next.map { $0.standing && !o.daemon } == true ? noDaemonNote : nil
        return NextLook(alarm: next, now: o.now, zone: o.zone, note: note)
    }

    public static func list(json asJSON: Bool, console: Console, in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        let o = try overview(console: console, in: try StandingContext.given(context))
        let (entries, zone, now, daemon, problems) = (o.entries, o.zone, o.now, o.daemon, o.problems)
        if asJSON {
            console.json(JSONText.array(entries.map { json($0, zone: zone) }))
            return problems.isEmpty ? .done : .doneWithProblems
        }
        if entries.isEmpty {
            console.result("no alarms; set one with 'wake 07:00', or add a standing one with 'wake add 06:30 --days weekdays'")
        } else {
            // WAKES: whether the RTC wakes a suspended machine (a closed lid) for it.
            var table = [["ID", "TIME", "DAYS", "NEXT", "WAKES", "STATE", "PID", "DEVICE", "SOUND", "MESSAGE"]]
            for e in entries {
                let next = e.next.map { Formatting.ringsAt($0, now: now, zone: zone) } ?? "-"
                // What the daemon sets aside or changes is marked where the state is read.
                let marks = e.standing?.adjustments.map(\.mark) ?? []
                let shown = e.shownState ?? e.state
                let state = marks.isEmpty ? shown : shown + " (" + marks.joined(separator: ", ") + ")"
                table.append([e.id.printable, e.time.printable, e.days, next, e.wakesSystem.map { $0 ? "yes" : "no" } ?? "?",
                              state, e.pid.map(String.init) ?? "-", e.device.printable, e.sound.map { $0.printable } ?? "built-in",
                              e.message.map { TerminalText.printable($0, limit: AlarmMessage.limit) } ?? "-"])
            }
            let last = table[0].count - 1
            let widths = (0...last).map { col in table.map { $0[col].count }.max() ?? 0 }
            console.results(table.map { line in
                line.enumerated().map { i, cell in i == last ? cell : cell.padding(to: widths[i]) }.concatenated(separator: "  ")
            })
            if entries.contains(where: { $0.wakesSystem == false }) {
                let why = o.wakeLook.now.obstacle.map { ": " + $0.description } ?? ""
                console.error("note: a closed lid or a suspend will delay the alarms marked no under WAKES" + why)
            }
        }
        if !daemon && o.standingCount > 0 { console.error(noDaemonNote) }
        return problems.isEmpty ? .done : .doneWithProblems
    }

    static func json(_ e: Entry, zone: TimeZoneRules) -> String {
        func iso(_ i: Instant?) -> String { i.map { JSONText.quote(Formatting.iso8601($0, zone: zone)) } ?? "null" }
        var fields: [(String, String)] = [
            ("id", JSONText.quote(e.id)),
            ("kind", JSONText.quote(e.standing == nil ? "one-off" : "standing")),
            ("pid", e.pid.map(String.init) ?? "null"),
        ]
        if let r = e.standing {
            let a = r.alarm
            var options: [(String, String)] = []
            for k in a.options.keys.sorted() { options.append((k, JSONText.quote(a.options[k] ?? ""))) }
            fields += [
                ("name", JSONText.quote(a.name)),
                ("time", JSONText.quote(a.timeText)),
                ("days", JSONText.array(a.daySet.names.map(JSONText.quote))),
                ("date", a.dateText.map(JSONText.quote) ?? "null"),
                ("next", iso(e.next)),
                ("skip_next", r.skipNext ? "true" : "false"),
                ("state", JSONText.quote(e.state)),
                ("missed", iso(r.missed)),
                ("paused_until", iso(r.pausedUntil)),
                ("paused_from", iso(r.pausedFrom)),
                ("pauses", JSONText.array(r.pauses.map { p in
                    JSONText.object([("from", iso(p.from)), ("until", iso(p.until))])
                })),
                ("skips", JSONText.array(r.skips.map { JSONText.quote(Formatting.iso8601($0, zone: zone)) })),
                ("skipped", JSONText.array(r.passedOver.map { p in
                    var holiday = "null"
                    if case .dayOff(let h) = p.reason { holiday = JSONText.quote(h) }
                    return JSONText.object([("occurrence", JSONText.quote(Formatting.iso8601(p.instant, zone: zone))),
                                            ("reason", JSONText.quote(StandingSchedule.kind(p.reason))), ("holiday", holiday)])
                })),
                ("options", JSONText.object(options)),
                ("set_aside", JSONText.array(r.adjustments.map { a in
                    JSONText.object([("option", JSONText.quote(a.option)), ("value", JSONText.quote(a.value)),
                                     ("reason", JSONText.quote(a.reason)), ("instead", JSONText.quote(a.instead))])
                })),
            ]
        } else {
            fields += [
                ("name", "null"),
                ("time", JSONText.quote(e.time)),
                ("days", "[]"),
                ("date", "null"),
                ("next", iso(e.next)),
                ("skip_next", "false"),
                ("state", JSONText.quote(e.state)),
                ("missed", "null"),
                ("paused_until", "null"),
                ("paused_from", "null"),
                ("pauses", "[]"),
                ("skips", "[]"),
                ("skipped", "[]"),
                ("options", "{}"),
                ("set_aside", "[]"),
            ]
        }
        fields += [("sound", e.sound.map(JSONText.quote) ?? "null"), ("device", JSONText.quote(e.device)),
                   ("wakes_system", e.wakesSystem.map { $0 ? "true" : "false" } ?? "null"),
                   ("message", e.message.map(JSONText.quote) ?? "null"),
                   ("snoozes", e.snoozesUsed.map(String.init) ?? "null"), ("snooze_limit", e.snoozeLimit.map(String.init) ?? "null")]
        return JSONText.object(fields)
    }

    // MARK: skip and remove

    /// What `wake skip` was asked: the next occurrence (`count` 1), the next `count`, or the
    /// occurrences on `dates` (local dates, as `2026-12-24`); `undo` takes skips back (those on
    /// `dates`, or every one ahead).
    public struct SkipRequest {
        public var name: String
        public var undo: Bool
        public var count: Int?
        public var dates: [String]
        public init(name: String, undo: Bool = false, count: Int? = nil, dates: [String] = []) {
            self.name = name; self.undo = undo; self.count = count; self.dates = dates
        }
    }

    /// The most occurrences one `wake skip --count` passes over: a year of a daily alarm.
    public static let skipCountLimit = 366
    /// What `--count` takes, said when it is refused.
    public static let skipCountRule = "give a count from 1 to \(skipCountLimit): the number of occurrences to skip"

    public static func skip(name: String, undo: Bool, console: Console, in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        try skip(SkipRequest(name: name, undo: undo), console: console, in: context)
    }

    public static func skip(_ request: SkipRequest, console: Console, in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        let context = try StandingContext.given(context)
        let store = context.store
        let zone = context.zone(console)
        let now = context.now()
        if let n = request.count, !(1...skipCountLimit).contains(n) { throw usage("--count \(n): \(skipCountRule)") }
        if request.count != nil && !request.dates.isEmpty { throw usage("--count and --on do not go together; give one") }
        if request.undo && request.count != nil { throw usage("--undo takes back every skip ahead, or those --on dates; leave out --count") }
        let alarms: [StandingAlarm]
        do { alarms = try store.load() } catch { throw storeError(error) }
        guard let alarm = alarms.first(where: { $0.name == request.name }) else { throw unknown(request.name) }
        let config = context.config()
        let lateLimit = RingSettings.lateLimit(of: alarm, config: config)
        let calendars = AlarmDaysOff([alarm], config: config, now: now, zone: zone)[alarm.name]
        var onDates: [Instant] = []
        for text in request.dates {
            for day in text.split(separator: ",", omittingEmptySubsequences: false) {
                let t = try skipped(alarm, onDate: String(day), now: now, zone: zone)
                if !onDates.contains(t) { onDates.append(t) }  // a day given twice is one skip
            }
        }
        func when(_ t: Instant) -> String { "\(Formatting.datePhrase(t, now: now, zone: zone)) \(Formatting.clockTime(t, zone: zone))" }
        do {
            let (changed, record, tooMany) = try store.updateHistory { history -> ([Instant], AlarmRecord, Bool) in
                var record = (history[alarm.name] ?? AlarmRecord(name: alarm.name)).migratingSkips(zone: zone)
                var changed: [Instant] = []
                func day(_ t: Instant) -> CivilDate { zone.localTime(at: t).date }
                if request.undo {
                    // Taken back, whether or not a daemon has already passed over it.
                    let ahead = record.skipInstants(of: alarm, zone: zone).filter { $0 > now }
                        + [record.lastSkipped].compactMap { $0 }.filter { $0 > now }
                    changed = Array(Set(onDates.isEmpty ? ahead : ahead.filter(onDates.contains))).sorted()
                    let days = Set(changed.map(day))
                    record.skips.removeAll(where: days.contains)
                    if let l = record.lastSkipped, changed.contains(l) { record.lastSkipped = nil }
                } else if !onDates.isEmpty {
                    changed = onDates.filter { !record.isSkipped($0, zone: zone) }
                    record.skips = Array(Set(record.skips + onDates.map(day))).sorted()
                } else {
                    // The next occurrences that would ring, one by one: what is already skipped,
                    // paused or a holiday is passed over, not counted.
                    var trial = record
                    for _ in 0..<(request.count ?? 1) {
                        guard let next = StandingSchedule.plan(alarm, record: trial, lateLimit: lateLimit, now: now, zone: zone,
                                                               dayOff: calendars.dayOff).next?.instant else { break }
                        trial.skips.append(day(next))
                        changed.append(next)
                    }
                    record.skips = Array(Set(record.skips + changed.map(day))).sorted()
                }
                // Left as it was: the history could not be read back with more.
                if record.skips.count > AlarmHistory.skipsKept { return ([], record, true) }
                history[alarm.name] = record
                return (changed.sorted(), record, false)
            }
            if tooMany {
                throw usage("'\(alarm.name)' would have more than \(AlarmHistory.skipsKept) skips; take some back with 'wake skip \(alarm.name) --undo'")
            }
            let next = StandingSchedule.plan(alarm, record: record, lateLimit: lateLimit, now: now, zone: zone, dayOff: calendars.dayOff).next
            let rings = next.map { "; it rings next at \(Formatting.ringsAt($0.instant, now: now, zone: zone))" } ?? ""
            guard !changed.isEmpty else {
                if request.undo { console.info("'\(alarm.name)' has no skipped occurrence ahead" + (onDates.isEmpty ? "" : " on those dates") + rings) }
                else if onDates.isEmpty { console.info("'\(alarm.name)' has no occurrence left to skip") }
                else { console.info("'\(alarm.name)' already skips " + onDates.map(when).joined(separator: ", ") + rings) }
                return .done
            }
            // A long run is said by its ends; `wake list --json` lists every one.
            let list = changed.count > 3 ? "\(changed.count) occurrences, \(when(changed[0])) to \(when(changed[changed.count - 1]))"
                : changed.map(when).joined(separator: ", ")
            if request.undo {
                console.info("'\(alarm.name)' rings again at \(list)" + rings)
            } else {
                console.info("skipping '\(alarm.name)' at \(list)" + rings)
            }
        } catch let error as WakeFailure {
            throw error
        } catch let error as StoreError {
            throw storeError(error)
        } catch {
            throw WakeFailure(.cantCreate, "\(error)")
        }
        return .done
    }

    /// The alarm's occurrence on the local date `text` (`2026-12-24`), which must lie ahead and
    /// be one of its days: a skip on a day it does not ring would change nothing, and is more
    /// likely a wrong date than an intent.
    static func skipped(_ alarm: StandingAlarm, onDate text: String, now: Instant, zone: TimeZoneRules) throws(WakeFailure) -> Instant {
        let shown = TerminalText.printable(text, limit: 40)
        let date = try onDate(text, example: "2026-12-24 (several: --on 2026-12-24,2026-12-31)")
        guard let o = StandingSchedule.occurrence(of: alarm, on: date, zone: zone) else {
            let days = alarm.dateText.map { "it rings once, on \($0)" }
                ?? (alarm.days == 0 ? "it rings once, at \(alarm.shortTimeText)" : "it rings on \(alarm.daySet.canonical)")
            throw usage("--on \(shown): '\(alarm.name)' does not ring that day (\(days)); give a day it rings on")
        }
        guard o.instant > now else { throw usage("--on \(shown): '\(alarm.name)' has already rung or passed that day; give a later date") }
        return o.instant
    }

    /// `--on DATE` of `wake skip` and `wake resume`: a local date alone (`2026-12-24`), no time.
    /// `example`: the form the refusal shows, with what the verb does with it.
    static func onDate(_ text: String, example: String) throws(WakeFailure) -> CivilDate {
        guard let local = PauseEnd.parse(text), local.hour == 0, local.minute == 0, local.second == 0, !text.contains("T") else {
            throw usage("--on: invalid date '\(TerminalText.printable(text, limit: 40))'; give a local date, as \(example)")
        }
        return local.date
    }

    // MARK: pause and resume

    /// `wake pause [--from DATE] --until DATE [NAME...]`: every standing alarm, or the named
    /// ones, quiet from DATE (default: now) until DATE (recorded in the history, as skips are, so
    /// the daemon honours it across restarts). `long`: `--long`, for a pause of more than a year.
    public static func pause(until text: String, from fromText: String? = nil, long: Bool = false, names: [String], console: Console,
                             in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        let context = try StandingContext.given(context)
        let store = context.store
        let zone = context.zone(console)
        let now = context.now()
        let until: Instant
        do { until = try PauseEnd.resolve(text, now: now, zone: zone, long: long) } catch { throw usage(error.description) }
        var from: Instant?
        if let fromText {
            let shown = TerminalText.printable(fromText, limit: 40)
            guard let local = PauseEnd.parse(fromText) else { throw usage("--from: invalid date '\(shown)'; \(PauseEnd.forms)") }
            let start = zone.instant(for: local)
            guard start < until else {
                throw usage("--from \(shown) is not before --until \(TerminalText.printable(text, limit: 40)); give a start before the end")
            }
            // A start already passed is a pause that is on now, as without --from.
            from = start > now ? start : nil
        }
        let chosen = try chosenAlarms(names, store: store, verb: "pause")
        let new = Pause(from: from, until: until)
        let records: [String: AlarmRecord]
        var outcomes: [String: Pause.Outcome] = [:]
        var full: String?
        do {
            records = try store.updateHistory { history in
                var changed = history
                for a in chosen {
                    // A second pause is kept beside the first, or joined with it where they meet.
                    var record = (changed[a.name] ?? AlarmRecord(name: a.name)).pruningPauses(now: now)
                    // One that starts now covers all before it: a pause already over is not "joined".
                    if new.from == nil { record.pauses.removeAll { $0.until <= now } }
                    let (pauses, outcome) = Pause.adding(new, to: record.pauses)
                    guard pauses.count <= AlarmHistory.pausesKept else { full = a.name; return history }
                    record.pauses = pauses
                    changed[a.name] = record
                    outcomes[a.name] = outcome
                }
                history = changed
                return history
            }
        } catch {
            throw storeError(error)
        }
        if let full {
            throw usage("'\(full)' already has \(AlarmHistory.pausesKept) pauses; "
                        + "lift some with 'wake resume \(full) --all', then pause again")
        }
        let config = context.config()
        let daysOff = AlarmDaysOff(chosen, config: config, now: now, zone: zone)
        for a in chosen {
            let record = records[a.name] ?? AlarmRecord(name: a.name)
            var line: String
            var result = new
            switch outcomes[a.name] ?? .added {
            case .added:
                line = "'\(a.name)' paused \(span(new, now: now, zone: zone))"
            case .joined(let there, let into):
                result = into
                line = "'\(a.name)' paused \(span(into, now: now, zone: zone)) (joined with "
                    + there.map { "the pause \(span($0, now: now, zone: zone))" }.joined(separator: " and ") + " already there)"
            case .covered(let by):
                result = by
                line = "'\(a.name)' is already paused \(span(by, now: now, zone: zone)), which covers it; nothing changed"
            }
            let next = nextRing(a, record: record, config: config, daysOff: daysOff)
            if let next {
                line += "; it rings next at \(Formatting.ringsAt(next.instant, now: now, zone: zone))"
            } else if let due = oneOffTime(a, zone: zone), due > now {
                // Kept, never deleted: the daemon holds it back until the pause ends.
                line += "; its time, \(Formatting.ringsAt(due, now: now, zone: zone)), is inside the pause: it stays listed and "
                    + "does not ring, unless 'wake resume' comes before it"
            }
            // (A recurring alarm always has an occurrence after the pause: PauseEnd.latest.)
            let others = record.pauses.filter { $0 != result && $0.until > now }
            if !others.isEmpty { line += "; also paused " + others.map { span($0, now: now, zone: zone) }.joined(separator: ", ") }
            console.info(line)
        }
        return .done
    }

    /// `from Mon 21 Dec 00:00 until Mon 4 Jan 00:00`, or `until Thu 3 Dec 00:00` once it has begun.
    static func span(_ p: Pause, now: Instant, zone: TimeZoneRules) -> String {
        let start = p.from.flatMap { $0 > now ? "from \(pauseText($0, now: now, zone: zone)) " : nil } ?? ""
        return start + "until \(pauseText(p.until, now: now, zone: zone))"
    }

    /// `wake resume [--all | --on DATE] [NAME...]`: the pause in force ends now (what passed
    /// during it stays quiet); `all`: every pause, those planned ahead too (dropped: nothing passed
    /// in them); `on`: the pause that the local date DATE falls in, on now or ahead. Each line says
    /// which pause it lifted, and which are left.
    public static func resume(names: [String], all: Bool = false, on dateText: String? = nil, console: Console,
                              in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        let context = try StandingContext.given(context)
        let store = context.store
        let zone = context.zone(console)
        let now = context.now()
        if all && dateText != nil { throw usage("--all lifts every pause and --on the one on a date; give one") }
        var day: (start: Instant, end: Instant)?
        if let dateText {
            let date = try onDate(dateText, example: "2026-12-21: the pause that day falls in is lifted")
            day = (zone.instant(for: LocalDateTime(date: date, hour: 0, minute: 0, second: 0)),
                   zone.instant(for: LocalDateTime(date: date.adding(days: 1), hour: 0, minute: 0, second: 0)))
        }
        let chosen = try chosenAlarms(names, store: store, verb: "resume")
        var lifted: [String: [Pause]] = [:]
        let records: [String: AlarmRecord]
        do {
            records = try store.updateHistory { history in
                for a in chosen {
                    guard var record = history[a.name] else { continue }
                    let targets = record.pauses.filter { p in
                        guard p.until > now else { return false }
                        if all { return true }
                        if let day { return p.start < day.end && day.start < p.until }
                        return p.hasBegun(at: now)
                    }
                    guard !targets.isEmpty else { continue }
                    // One on now ends now; one not begun is dropped: nothing passed during it.
                    record.pauses = record.pauses.compactMap { p in
                        guard targets.contains(p) else { return p }
                        // (One that begins this very instant has nothing before now: dropped, never FROM/FROM.)
                        return p.start < now ? Pause(from: p.from, until: now) : nil
                    }
                    history[a.name] = record
                    lifted[a.name] = targets
                }
                return history
            }
        } catch {
            throw storeError(error)
        }
        func left(_ a: StandingAlarm) -> [Pause] { (records[a.name]?.pauses ?? []).filter { $0.until > now } }
        func leftText(_ a: StandingAlarm) -> String {
            left(a).map { span($0, now: now, zone: zone) }.joined(separator: ", ")
        }
        if lifted.isEmpty {
            let who = names.isEmpty ? "no standing alarm is"
                : names.map { "'\($0)'" }.joined(separator: ", ") + (names.count > 1 ? " are not" : " is not")
            let planned = chosen.filter { !left($0).isEmpty }
            let none = day.map { _ in "\(who) paused on \(TerminalText.printable(dateText ?? "", limit: 40))" }
                ?? (names.isEmpty ? "no standing alarm is paused" : "not paused: " + names.map { "'\($0)'" }.joined(separator: ", "))
            guard !planned.isEmpty else {
                console.info(none)
                return .done
            }
            // A pause ahead is not lifted by a bare `wake resume`: say it is there, and how to lift it.
            let there = planned.map { "'\($0.name)' is paused \(leftText($0))" }.joined(separator: "; ")
            // The first pause planned ahead, by its start date; else the one on now, by the bare verb.
            let ahead = planned.lazy.compactMap { a in left(a).first { !$0.hasBegun(at: now) } }.first
            let many = planned.count > 1 || planned.contains { left($0).count > 1 }
            console.info((day == nil ? "no pause is on now" : none) + "; \(there): lift \(many ? "one" : "it") with 'wake resume"
                         + names.map { " " + $0.printable }.joined() + (ahead?.startDay(in: zone).map { " --on \($0)" } ?? "")
                         + "', or every pause with 'wake resume --all" + names.map { " " + $0.printable }.joined() + "'")
            return .done
        }
        let config = context.config()
        let daysOff = AlarmDaysOff(chosen, config: config, now: now, zone: zone)
        for a in chosen {
            guard let gone = lifted[a.name] else { continue }
            let record = records[a.name]
            var line = "'\(a.name)' resumed: lifted the pause "
                + gone.map { span($0, now: now, zone: zone) }.joined(separator: " and the pause ")
            if let s = record?.snoozedUntil, s > now {
                // The snooze holds through a pause and its end: it rings then.
                line += "; snoozed until \(Formatting.clockTimeAndDay(s, now: now, zone: zone)); it rings then"
            } else if let due = oneOffTime(a, zone: zone), due <= now {
                line += "; its time, \(Formatting.clockTime(due, zone: zone)), passed during the pause, so it does not ring; "
                        + "the daemon removes it"
            } else if let next = nextRing(a, record: record, config: config, daysOff: daysOff)?.instant {
                line += "; it rings next at \(Formatting.ringsAt(next, now: now, zone: zone))"
            }
            if !left(a).isEmpty { line += "; still paused \(leftText(a))" }
            console.info(line)
        }
        return .done
    }

    /// The next ring as the daemon will plan it and `wake list` shows it: the alarm's own late
    /// limit, its skips and pause, and its calendars' days off passed over.
    static func nextRing(_ a: StandingAlarm, record: AlarmRecord?, config: ConfigDefaults, daysOff: AlarmDaysOff) -> Deadline? {
        StandingSchedule.plan(a, record: record ?? AlarmRecord(name: a.name), lateLimit: RingSettings.lateLimit(of: a, config: config),
                              now: daysOff.now, zone: daysOff.zone, dayOff: daysOff[a.name].dayOff).next
    }

    /// The named alarms (each must exist), or every one when no name is given.
    static func chosenAlarms(_ names: [String], store: AlarmStore, verb: String) throws(WakeFailure) -> [StandingAlarm] {
        let alarms: [StandingAlarm]
        do { alarms = try store.load() } catch { throw storeError(error) }
        guard !alarms.isEmpty else { throw usage("no standing alarms to \(verb); add one with 'wake add 06:30 --days weekdays'") }
        if names.isEmpty { return alarms }
        var chosen: [StandingAlarm] = []
        for name in names {
            guard let a = alarms.first(where: { $0.name == name }) else { throw unknown(name) }
            if !chosen.contains(where: { $0.name == name }) { chosen.append(a) }
        }
        return chosen
    }

    public static func remove(name: String, console: Console, in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        let context = try StandingContext.given(context)
        let store = context.store
        do {
            let removed = try store.update { alarms -> Bool in
                let before = alarms.count
                alarms.removeAll { $0.name == name }
                return alarms.count < before
            }
            guard removed else { throw unknown(name) }
            try store.updateHistory { history in history[name] = nil }
        } catch let error as WakeFailure {
            throw error
        } catch let error as StoreError {
            throw storeError(error)
        } catch {
            throw WakeFailure(.cantCreate, "\(error)")
        }
        console.info("removed '\(name)'")
        return .done
    }

    static func unknown(_ name: String) -> WakeFailure {
        usage("no standing alarm named '\(name.printable)'; see 'wake list'")
    }
}

extension String {
    func padding(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func replacingCommas() -> String { String(map { $0 == "," ? "-" : $0 }) }
}
