import WakeCore
import WakeSystem

extension StandingAlarmActions {
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
        /// The stored options that are no ring options (`--group`; `switch` kept by `wake change`),
        /// by key, each checked by its row.
        public var other: [String: String]
        /// `--weeks`, `--every`, `--from`, `--before-first-event`, `--lead` as given, by option name (`DayRules`).
        public var rules: [String: String]
        /// `--force`: added beside an alarm that rings at the same moments (`DuplicateAlarms`).
        public var force: Bool
        /// `wake timer`: WHEN is `+SPAN`, and the alarm is a timer (StandingTimer.swift).
        public var timer: StandingTimer?

        public init(when: [String], days: String?, name: String?, ring: RingSettings, given: Set<String>, skipDays: [String] = [],
                    rules: [String: String] = [:], other: [String: String] = [:], force: Bool = false) {
            self.rules = rules
            self.force = force
            self.when = when
            self.days = days
            self.name = name
            self.ring = ring
            self.given = given
            self.skipDays = skipDays
            self.other = other
        }
    }

    public static func add(_ c: AddRequest, console: Console, signals: SignalChannel,
                           in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        _ = try addAlarm(c, console: console, signals: signals, in: context)
        return .done
    }

    /// `wake add`'s work, returning the name the alarm was stored under (given, or made from
    /// its time). `signals`: the channel whose signals end the device check; nil off the
    /// loop's thread (the daemon's D-Bus API), where the check is bounded by the stall limit alone.
    public static func addAlarm(_ c: AddRequest, console: Console, signals: SignalChannel?,
                                in context: StandingContext? = nil) throws(WakeFailure) -> String {
        let context = try StandingContext.given(context)
        var checked = try checkedAlarm(c, console: console, signals: signals, in: context)
        var alarm = checked.alarm
        let store = context.store
        let given = c.name
        enum Outcome { case added(String), nameTaken, copies(StandingAlarm) }
        let outcome: Outcome
        do {
            outcome = try store.update { alarms -> Outcome in
                let taken = Set(alarms.map(\.name))
                if let given { if taken.contains(given) { return .nameTaken } } else { alarm.name = generatedName(alarm, taken: taken) }
                // Checked under the store's lock: two adds at once cannot both pass it.
                if !c.force, let copy = DuplicateAlarms.existing(alarm, among: alarms) { return .copies(copy) }
                alarms.append(alarm)
                return .added(alarm.name)
            }
        } catch {
            throw storeError(error)
        }
        let name: String
        switch outcome {
        case .added(let added): name = added
        case .nameTaken:
            throw usage("an alarm named '\((given ?? "").printable)' exists already; remove it first or choose another --name")
        case .copies(let copy):
            throw copyRefused(alarm, copy, force: "use --force to add another")
        }
        checked.alarm = alarm
        announce("added '\(name)'", checked, console: console, context: context)
        return name
    }

    /// An alarm `wake add` (or `wake change`) would store, checked as `wake add` checks it, and its first ring.
    struct CheckedAlarm {
        var alarm: StandingAlarm
        var first: StandingSchedule.Plan
        var next: Deadline
        var now: Instant
        var zone: TimeZoneRules
        /// `--before-first-event`'s calendar, read: the events that set its time.
        var events: FirstEventSchedule?
    }

    /// Every check of `wake add`, in its order, up to the alarm to store (named `c.name`, or ""
    /// for one to be named from its time).
    static func checkedAlarm(_ c: AddRequest, console: Console, signals: SignalChannel?,
                             in context: StandingContext) throws(WakeFailure) -> CheckedAlarm {
        // `--before-first-event`: the calendar's events set the time (stored as 00:00, not used).
        let byEvents = c.rules[AlarmOption.beforeFirstEvent.name] != nil
        if byEvents, !c.when.isEmpty {
            throw usage("WHEN does not go with --before-first-event: its calendar's first event each day sets the time; "
                        + "leave out '\(c.when.joined(separator: " ").printable)'")
        }
        guard !c.when.isEmpty || byEvents else { throw usage("missing WHEN: say when it rings, as 'wake add 06:30 --days weekdays'") }
        let text = c.when.joined(separator: " ")
        let spec: WakeSpec
        do { spec = byEvents ? .timeOfDay(hour: 0, minute: 0, second: 0) : try WakeSpec(parsing: c.when) } catch {
            throw usage(error.description)
        }
        var date: CivilDate?
        var at: Instant?
        let (hour, minute, second): (Int, Int, Int)
        switch spec {
        case .relative(let span):
            // `+25m`, `in 20 minutes`: once, at that instant, the span's seconds kept.
            at = context.now() + span
            let local = context.zone(console).localTime(at: context.now() + span)
            (hour, minute, second) = (local.hour, local.minute, local.second)
        case .timeOfDay(let h, let m, let s):
            (hour, minute, second) = (h, m, s)
        case .dateTime(let local):
            (hour, minute, second) = (local.hour, local.minute, local.second)
            date = local.date
        case .dayTime(let day, let h, let m, let s):
            // `wake add tomorrow 6:30`: a one-off on the date the day names now.
            let local: LocalDateTime
            do {
                local = try Schedule.reading(day, hour: h, minute: m, second: s, token: text,
                                             now: context.now(), zone: context.zone(console))
            } catch {
                throw usage(error.description)
            }
            (hour, minute, second) = (h, m, s)
            date = local.date
        default:
            throw usage("a standing alarm needs a time of day (06:30), a day and a time (tomorrow 6:30), "
                        + "a span from now (+25m, in 20 minutes) or a local date and time (2026-11-24T06:30), not '\(text.printable)'")
        }
        var days = DaySet.none
        if let d = c.days {
            guard date == nil, at == nil else {
                throw usage("--days does not go with a date or a span: such an alarm rings once; give a time of day")
            }
            do { days = try DaySet(parsing: d) } catch { throw usage(error.description) }
        }
        if let name = c.name, !StandingAlarm.isValidName(name) {
            throw usage("--name: invalid name '\(name.printable)'; use 1 to 32 of a-z, 0-9, - and _")
        }
        if let name = c.name, SnoozeRequest.readsAsLength(name) {
            throw usage("--name: '\(name.printable)' reads as a length, "
                        + "so 'wake snooze \(name.printable)' would be a snooze of that length; "
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
                throw WakeFailure(.config, "\(option.flag): cannot make '\(typed.printable)' an absolute name: \(error); "
                    + "give the file's full path")
            }
        }
        // `--weeks`, `--every`, `--from`: checked, and stored with `--from` as the date it names today.
        let ruled = try checkRules(c.rules, days: days, dated: date != nil || at != nil, today: zone.localTime(at: now).date)
        days = ruled.days
        stored.merge(ruled.stored) { _, rule in rule }
        let config = context.config()
        let calendars = try checkCalendars(c.skipDays, recurring: !days.isEmpty, config: config, zone: zone, now: now, console: console)
        if let paths = calendars.stored { stored[AlarmOption.skipDays.name] = paths }
        for (key, value) in c.other {
            guard let option = AlarmOption.named(key), option.scope.contains(.stored) else {
                throw usage("unknown option '\(key.printable)'")
            }
            if case .failure(let problem) = option.parse(value) { throw usage(problem.message) }
            stored[key] = value
        }
        var alarm = StandingAlarm(name: c.name ?? "", hour: hour, minute: minute, second: second, days: days.bits, date: date,
                                  options: stored, created: now, at: at, timer: c.timer)
        let events = try checkFirstEvent(alarm, zone: zone)
        if let events, StandingSchedule.occurrence(of: alarm, after: now, zone: zone, firstEvent: events) == nil {
            throw WakeFailure(.config, "--before-first-event: calendar '\(c.rules[AlarmOption.beforeFirstEvent.name]?.printable ?? "")' "
                              + "has no timed event on the alarm's days in the next year; give a calendar with its events, or other --days")
        }
        if events == nil, let rules = alarm.dayRules(zone: zone),
           StandingSchedule.occurrence(of: alarm, after: now, zone: zone).map({ $0.instant - now > .seconds(366 * 86_400) }) ?? true {
            throw usage("--days \(days.canonical)\(rules.phrase) leave the alarm no day to ring in the next year; give other days or rules")
        }
        guard StandingSchedule.occurrence(of: alarm, after: now, zone: zone, firstEvent: events) != nil else {
            throw usage("'\(text.printable)' is in the past; give a future date and time, or a time of day")
        }
        // Its first ring as the daemon will plan it: the calendar's days passed over. A calendar
        // that leaves a recurring alarm no day in the next year is a mistake (a mistyped DTEND or
        // RRULE), said now; a one-off rings on its own day, however far ahead.
        // An alarm switched off (`wake change` of one) is planned as if on: what it would ring is checked, and the switch kept.
        var planned = alarm
        planned.options[AlarmOption.switchState.name] = nil
        let first = StandingSchedule.plan(planned, record: AlarmRecord(name: alarm.name), lateLimit: .zero, now: now, zone: zone,
                                          dayOff: calendars.calendars.dayOff, firstEvent: events)
        guard let next = first.next, alarm.days == 0 || next.instant - now <= .seconds(366 * 86_400) else {
            // The calendars are the command's own when it gave some, else config.toml's.
            throw noDayInAYear(first, calendars: calendars.calendars, fromConfig: calendars.stored == nil ? config : nil, now: now,
                               zone: zone)
        }

        // The checks a one-off alarm gets (ArmChecks, the same device and mixer checks), so
        // 07:00 finds nothing new wrong.
        // A folder or list: every file decoded and checked now, one warning per file refused.
        let checked = try ArmChecks.sound(settings.soundPath, volume: settings.volume, mode: .add,
                                          interrupt: { SignalChannel.pending() }, progress: { console.info($0) },
                                          builtIn: DefaultSound.open)
        let sound = checked.file
        for warning in checked.warnings { console.error(warning) }
        // Spoken once now, so a missing espeak-ng is said tonight; the daemon speaks it again before
        // each ring. Let go after: the daemon runs this for the D-Bus API's Add, and keeps no voice loaded.
        if settings.say {
            defer { Speech.release() }
            _ = try ArmChecks.speech(SpeechClip.text(message: settings.message, hour: hour, minute: minute), mode: .add, sounds: [])
        }
        if let pre = settings.engine.preAlarm {
            _ = try ArmChecks.preAlarmSound(settings.preAlarmSoundPath, volume: pre.volume(of: settings.volume), mode: .add,
                                            interrupt: { SignalChannel.pending() })
        }
        do { try ALSAEnvironment.check() } catch { throw WakeFailure(.unavailable, error.description) }
        // `--sink` by description is stored by the sink's name, which the daemon's ring opens.
        let placed = try ArmChecks.sink(settings, mode: .add).settings
        try ArmChecks.hooks(placed, config: config, given: c.given)
        if alarm.options[AlarmOption.sink.name] != nil { alarm.options[AlarmOption.sink.name] = placed.sink }
        let check: DeviceCheck.Report
        let mixer: MixerCheck.Report
        do {
            check = try DeviceCheck.run(placed.device, sound: sound, dryRun: true, signals: signals)
            mixer = try MixerCheck.run(device: placed.device, policy: placed.mixer, signals: signals)
        } catch {
            throw error.asAdding
        }
        if let warning = check.warning { console.error(warning) }
        // A muted or quiet output is worth knowing tonight; the mixer guard raises it at ring time.
        if mixer.notable { console.error("warning: mixer: " + mixer.text) }
        if let warning = LightCheck.warning(placed.light) { console.error(warning) }
        try LightCheck.sunrise(placed, wait: next.instant - now, given: c.given, standing: true, console: console)

        return CheckedAlarm(alarm: alarm, first: first, next: next, now: now, zone: zone, events: events)
    }

    /// The line of an alarm stored (`added 'work'`, `changed 'work'`): its rule and first ring, and
    /// what stands in its way.
    static func announce(_ what: String, _ checked: CheckedAlarm, console: Console, context: StandingContext) {
        let (alarm, first, next, now, zone) = (checked.alarm, checked.first, checked.next, checked.now, checked.zone)
        // Its first ring, the calendar's days passed over said (the first few, and a count).
        let reasons = StandingSchedule.shortened(StandingSchedule.reasons(first.passedOver, skipsAhead: 0, now: now, zone: zone),
                                                 complete: first.passedOver.count < StandingSchedule.passedOverKept)
        let ruleText = checked.events.map { firstEventRule(alarm, $0) } ?? rule(alarm)
        // An alarm switched off (changed while off) rings nothing until `wake on`, a paused timer
        // until `wake resume`: a next ring would mislead.
        let left = alarm.remaining(at: now).map(StandingTimer.remainingText) ?? ""
        let tail = alarm.isOff ? " off; 'wake on \(alarm.name)' to ring it again"
            : alarm.isPausedTimer ? " paused with \(left) left; 'wake resume \(alarm.name)' starts it"
            : " next \(Formatting.ringsAt(next.instant, now: now, zone: zone))" + reasons.map { "; " + $0.printable }.joined()
        console.info("\(what): \(ruleText)\(alarm.dayRules(zone: zone)?.phrase ?? "");" + tail)
        if alarm.isOff || alarm.isPausedTimer { return }
        if let note = Formatting.gapNote(next, zone: zone) { console.info(note) }
        if let rules = alarm.dayRules(zone: zone), let week = rules.weekFiftyThree(from: zone.localTime(at: now).date) {
            let end = week.adding(days: 13)
            console.info("note: \(week.isoWeek.year) has an ISO week 53: weeks 53 and 1 (\(week.isoText) to \(end.isoText)) are both odd, "
                         + "so '\(alarm.name)' rings in \(rules.weeks == .odd ? "both" : "neither")")
        }
        // Whether the daemon can arm it on the RTC, as far as can be told from here.
        let look = WakeSystemPlan.lookNow()
        if !look.wakesSystem, let obstacle = look.obstacle { console.error("warning: " + WakeSystemSupport.warning(obstacle)) }
        if !context.daemonRunning() {
            console.info("no daemon is running to ring it: start one with 'systemctl --user enable --now wake', or run 'wake daemon'")
        }
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
            if name.contains(AlarmOption.listSeparator) {
                throw usage("\(flag): the file name '\(name.printable)' holds a line break; rename the file")
            }
            do {
                let path = try WorkingDirectory.absolute(name)
                if !paths.contains(path) { paths.append(path) }
            } catch {
                throw WakeFailure(.config, "\(flag): cannot make '\(name.printable)' an absolute name: \(error); "
                    + "give the calendar's full path")
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

    /// A refusal of an alarm that would ring with `copy` (`DuplicateAlarms`); one switched off is said, with how to switch it on.
    static func copyRefused(_ alarm: StandingAlarm, _ copy: StandingAlarm, force: String) -> WakeFailure {
        let off = copy.isOff ? " (switched off: 'wake on \(copy.name)' rings it again)" : ""
        return usage("\(rule(alarm)) is already alarm '\(copy.name)'\(off); \(force), or 'wake remove \(copy.name)' first")
    }

    /// `0630`, `0630-weekdays`, `0630-mon-wed-fri`, then `-2`, `-3` ... while taken.
    static func generatedName(_ a: StandingAlarm, taken: Set<String>) -> String {
        var base = a.timer != nil ? "timer" : a.options[AlarmOption.beforeFirstEvent.name] != nil ? "event"
            : a.shortTimeText.filter { $0 != ":" }
        if a.days != 0 { base += "-" + a.daySet.canonical.replacingCommas() }
        // `0630-weekdays-odd`, `0630-daily-every3d`: an odd and an even week's alarm are two alarms.
        if let w = a.options[AlarmOption.weeks.name] { base += "-" + w }
        if let e = a.options[AlarmOption.every.name] { base += "-every" + e }
        if let d = a.dateText { base += "-" + d }
        base = String(base.prefix(28))
        var name = base
        var n = 2
        while taken.contains(name) { name = "\(base)-\(n)"; n += 1 }
        return name
    }

    /// `06:30 on weekdays`, `06:30 once`, `06:30 on 2026-11-24`.
    static func rule(_ a: StandingAlarm) -> String {
        if let t = a.timer { return "a \(DurationText.format(t.span)) timer" + (t.repeats ? " that repeats" : "") }
        if a.at != nil { return "\(a.shownTime()) once" }
        if let d = a.dateText { return "\(a.shownTime()) on \(d)" }
        if a.days == 0 { return "\(a.shownTime()) once" }
        return "\(a.shownTime()) on \(a.daySet.canonical)"
    }
}
