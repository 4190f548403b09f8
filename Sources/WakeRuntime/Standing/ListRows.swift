import WakeCore
import WakeSystem

extension StandingAlarmActions {
    /// One standing alarm as `wake list`, `wake next` and `wake doctor` see it, planned as the daemon
    /// plans it (`rows`).
    struct Row {
        var alarm: StandingAlarm
        var next: Deadline?
        var state: String
        /// Nothing to say of it but that it waits for its next ring (`state` is "waiting", in
        /// the reader's language): known as a fact, never by comparing the words.
        var isWaiting = false
        var skipNext: Bool
        var missed: Instant?
        /// Until when `wake pause` keeps it quiet, while that is ahead.
        var pausedUntil: Instant?
        /// How the daemon rings it: its stored options over config.toml, read as the daemon
        /// reads them, and each option it sets aside or changes.
        var settings: RingSettings?
        var adjustments: [RingSettings.Adjustment] = []
        /// `settings.engine`, made once.
        var engine: AlarmEngine.Settings?
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

    /// The alarms by name, each planned as the daemon plans it; `daysOff` is read on the same
    /// `now` and `zone` (`AlarmDaysOff`), for these alarms or more.
    static func rows(_ alarms: [StandingAlarm], history: [String: AlarmRecord], zone: TimeZoneRules, now: Instant, daemon: Bool,
                     config: ConfigDefaults, daysOff: AlarmDaysOff) -> [Row] {
        var reader = StoredSettingsReader(defaults: config)
        return alarms.sorted { $0.name < $1.name }.map { a in
            let record = history[a.name] ?? AlarmRecord(name: a.name)
            let read = try? reader.read(a.options)
            // The next occurrence as the daemon will see it: skips, the pause and holidays passed over.
            let dayOffs = daysOff[a.name]
            // The settings just read, not read again (`RingSettings.lateLimit(of:config:)`, the same rules):
            // the read is most of a row's cost.
            let lateLimit = read?.settings.lateLimit ?? Defaults.lateLimit
            let plan = StandingSchedule.plan(a, record: record, lateLimit: lateLimit, now: now,
                                             zone: zone, dayOff: dayOffs.dayOff, firstEvent: dayOffs.firstEvent)
            let upcoming = plan.next
            let ahead = plan.ahead(of: now)
            let skips = record.skipInstants(of: a, zone: zone, firstEvent: dayOffs.firstEvent).filter { $0 > now }
            let skipNext = ahead.contains { $0.reason == .requested } || (record.lastSkipped.map { $0 > now } ?? false)
            let reasons = StandingSchedule.reasons(ahead, skipsAhead: skips.count, now: now, zone: zone)
            let reasonsAll = plan.passedOver.count < StandingSchedule.passedOverKept
            let noDay = daysOff.noDay(a.name, plan)
            var state: String?  // nil: waiting
            // The pause in force, or else the next one planned.
            let pause = record.pauses.first { $0.until > now }
            let pausedFrom = pause.flatMap { $0.hasBegun(at: now) ? nil : $0.from }
            let paused = pause.flatMap { $0.hasBegun(at: now) ? $0.until : nil }
            if a.isOff { state = localized("off") }  // wake off: kept, never rung
            else if daemon, record.ringingSince != nil { state = localized("ringing") }
            else if daemon, let s = record.snoozedUntil, s > now {
                state = localized("snoozed until {time}", Formatting.clockTimeAndDay(s, now: now, zone: zone))
            }
            else if let noDay { state = localized("no day rings: {reason}", noDay) }
            else if let p = paused, plan.keptUntil == p, let due = oneOffTime(a, zone: zone), due <= now {
                // A one-off whose time passed inside the pause: kept, and shown, until the pause ends.
                state = localized("skipped by the pause until {time}", pauseText(p, now: now, zone: zone))
            } else if let p = paused { state = localized("paused until {time}", pauseText(p, now: now, zone: zone)) }
            else if !reasons.isEmpty { state = StandingSchedule.shortened(reasons, complete: reasonsAll).joined(separator: "; ") }
            else if skipNext { state = "skipped-next" }
            else if let f = pausedFrom, let u = pause?.until {
                state = localized("waiting; paused from {start} until {end}", pauseText(f, now: now, zone: zone), pauseText(u, now: now,
                                                                                                                            zone: zone))
            }
            else if let m = record.missed ?? plan.missed.last, m > (record.lastFired ?? Instant(nanoseconds: Int64.min)) {
                // Recorded by the daemon, or passed while none ran (it will record it at start).
                state = localized("missed at {day} {time}", Formatting.dayPhrase(m, now: now, zone: zone),
                                  Formatting.clockTime(m, zone: zone))
            } else if upcoming == nil {
                state = localized("done")  // a one-off that has rung, or whose time passed: nothing left to ring
            }
            if !a.isOff, let timer = timerState(a, waiting: state == nil, now: now) { state = timer }
            return Row(alarm: a, next: upcoming, state: state ?? localized("waiting"), isWaiting: state == nil, skipNext: skipNext,
                       missed: record.missed ?? plan.missed.last,
                       pausedUntil: pause?.until, settings: read?.settings, adjustments: read?.adjustments ?? [], engine: read?.engine,
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
    /// the occurrence's snoozes of its limit, when it has one (`snoozed 2 of 3 until 07:18`,
    /// `ringing (snoozed 1 of 3)`), as the table shows it so a limit is never a surprise at
    /// 07:00; the JSON's `state` keeps its words and has the count in fields of its own.
    static func liveState(_ r: ControlRecord, zone: TimeZoneRules, now: Instant, counted: Bool = false) -> String {
        let count = counted ? r.snoozes ?? SnoozeCount() : SnoozeCount()
        // `--unattended`'s round, in the table: `snoozed until 07:19 (unanswered, round 2 of 3)`.
        let unanswered = { (state: String) -> String in
            guard counted, let round = r["round"], let rounds = r["rounds"] else { return state }
            return localized("{state} (unanswered, round {round} of {rounds})", state, round.printable, rounds.printable)
        }
        switch r["state"] {
        case "snoozed":
            guard let until = r.instant("next") else { return unanswered(count.snoozed) }
            return unanswered(localized("{state} until {time}", count.snoozed, Formatting.clockTimeAndDay(until, now: now, zone: zone)))
        case let s? where s == "ringing" || s == "silent":
            let said = s == "ringing" ? localized("ringing") : localized("silent")
            return unanswered(count.ofLimit.map { localized("{state} (snoozed {count})", said, $0) } ?? said)
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
            let days = a.dateText ?? (a.days == 0 ? "once" : a.daysText(zone: zone))
            return Entry(id: a.name, pid: r?["pid"].flatMap { Int32($0) }, standing: row,
                         // A paused timer has no time to ring at until it is resumed.
                         time: a.isPausedTimer ? "-"
                             : a.options[AlarmOption.beforeFirstEvent.name] == nil ? a.shownTime() : "by event",
                         days: days, next: next, state: state,
                         shownState: shown, sound: s.map { $0.soundPath } ?? a.options["sound"],
                         device: s?.device ?? a.options["device"] ?? Defaults.device,
                         wakesSystem: said(r) ?? wouldWake(), message: s.map { $0.message } ?? a.options["message"],
                         phase: phase(r), ringingSince: r?.instant("since"),
                         snoozesUsed: phase(r) == .waiting ? nil : r?.snoozes?.used,
                         snoozeLimit: r?.snoozes.map(\.limit) ?? s?.snoozeLimit)
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
        let problems = read.problems + config.problems + calendarProblems
            + rows.flatMap { row in row.adjustments.map { $0.line(alarm: row.alarm.name) } }
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

    static var noDaemonNote: String {
        localized("note: no daemon is running, so the standing alarms do not ring; start one with 'systemctl --user enable --now wake'")
    }
}
