/// What the daemon does next for one standing alarm, decided from the alarm, what has already
/// happened to it, and "now". Pure, so the rules are tested without a clock or a file:
/// - each occurrence rings at most once: one recorded as fired (or skipped, or missed) is never
///   looked at again, so a restart after a crash rings nothing twice;
/// - an occurrence that passed while no daemon ran rings at once if it is within the alarm's
///   late limit (0: no limit), else it is missed, and the next one is planned;
/// - a skipped occurrence (`record.skips`: its local date) is passed over; a one-off is done once it has rung or
///   been missed;
/// - an occurrence inside one of the record's pauses (`pauses`) passes quietly,
///   neither rung nor missed, as a skipped one does (`wake pause`);
/// - a recurring alarm's occurrence on a day off (`dayOff`: its holiday calendars) passes over
///   too; a one-off names its own moment and rings whatever the calendar says;
/// - every occurrence passed over on the way to the next says why (`Plan.passedOver`), so
///   `wake list` and `wake next` can;
/// - skip and pause never delete: a one-off whose occurrence is skipped, or inside a pause, is
///   kept (`keptUntil`) until that occurrence (skip) or the pause's end passes, so `wake skip
///   --undo` and `wake resume` before its time bring it back, and `wake list` shows it meanwhile.
///   One whose time passed inside a pause is passed over as a skipped one once the pause ends
///   (recorded as skipped, so a restored alarms.toml does not bring it back), and then done.
/// - an alarm at an instant (`at`: `wake add +25m`, a running timer) is a one-off there, done
///   once that instant is dealt with; a paused timer (`StandingTimer.remaining`) is held: nothing
///   armed, never done (`Plan.held`). A repeating timer's next round is a later `at` (the daemon's).
/// - only a one-off is ever done: a recurring alarm whose every occurrence in the walk
///   (`walkLimit` of them) is passed over, as a calendar whose days cover them all does, has
///   nothing to arm (`Plan.noDayUntil`) and stays in the alarms file.
public enum StandingSchedule {
    /// Why an occurrence does not ring.
    public enum SkipReason: Hashable, Sendable {
        /// `wake skip` (`--count`, `--on`).
        case requested
        /// `wake pause`, until then.
        case paused(until: Instant)
        /// A day of a holiday calendar: the holiday and the calendar, as `Easter Monday (holidays-de-by.ics)`.
        case dayOff(String)
        /// No timed event that day in the calendar of `--before-first-event` (its file name).
        case noEvent(String)
    }

    /// An occurrence passed over, and why.
    public struct PassedOver: Hashable, Sendable {
        public var instant: Instant
        public var reason: SkipReason
        public init(instant: Instant, reason: SkipReason) { self.instant = instant; self.reason = reason }
    }

    public struct Plan: Equatable, Sendable {
        /// The occurrence to arm: in the future, or passed but within the late limit (the engine
        /// then rings at once). Nil: nothing to arm now (a one-off that is done or kept, or a
        /// recurring alarm with no day to ring in the walk).
        public var next: Deadline?
        /// Occurrences that passed beyond the late limit while nothing rang them, the latest last
        /// (at most `missedKept` of them).
        public var missed: [Instant]
        /// The latest occurrence passed over by a skip or a day off, or a one-off's whose time
        /// passed inside a pause that has ended: what the history records as skipped once it
        /// has passed (it may still lie ahead).
        public var skipped: Instant?
        /// The latest occurrence passed over (a skip, a day off, a one-off's inside an ended
        /// pause) at or before now: what the history records as skipped now. `skipped` may lie
        /// ahead while an earlier one has passed; a passed skip the daemon prunes from `skips`
        /// without recording it would be planned again, and rung late or missed.
        public var skippedPassed: Instant?
        /// A one-off with nothing to arm that stays in the alarms file until this instant: its
        /// skipped occurrence, or the end of the pause its occurrence falls in.
        public var keptUntil: Instant?
        /// A recurring alarm with nothing to arm: every occurrence the walk looked at, up to this
        /// last one, is passed over (a calendar covering every day, a mistyped DTEND). Not done:
        /// it stays in the alarms file, unarmed, and rings again once the calendar leaves a day.
        public var noDayUntil: Instant?
        /// The occurrences passed over since the last one dealt with, in order, with their
        /// reasons (a pause's run of them as its first; at most `passedOverKept`).
        public var passedOver: [PassedOver]
        /// True when the alarm is a one-off that has nothing left: it can be removed. Never for a
        /// recurring alarm (`noDayUntil`).
        public var isDone: Bool { next == nil && keptUntil == nil && noDayUntil == nil && !switchedOff && !held }
        /// The alarm is switched off (`wake off`): nothing armed, nothing missed, never done.
        public var switchedOff = false
        /// A paused timer: nothing to arm until `wake resume`, kept in the alarms file.
        public var held = false

        public init(next: Deadline?, missed: [Instant], skipped: Instant?, keptUntil: Instant? = nil, passedOver: [PassedOver] = []) {
            self.next = next; self.missed = missed; self.skipped = skipped; self.keptUntil = keptUntil; self.passedOver = passedOver
        }

        /// Those passed over after `now`: what `wake list` and `wake next` explain.
        public func ahead(of now: Instant) -> [PassedOver] { passedOver.filter { $0.instant > now } }
    }

    /// How many missed occurrences a plan lists (a week away from a daily alarm lists the last few).
    public static let missedKept = 8
    /// How many passed-over occurrences a plan lists: a few weeks of holidays and skips.
    public static let passedOverKept = 64
    /// How many occurrences a plan looks at, at most: a daily alarm's eleven years.
    public static let walkLimit = 4096

    /// The first occurrence strictly after `after`, with the one-off rules.
    /// An alarm of `--before-first-event` rings by `firstEvent`, its calendar read; none while it cannot be read.
    public static func occurrence(of alarm: StandingAlarm, after: Instant, zone: TimeZoneRules,
                                  firstEvent: FirstEventSchedule? = nil) -> Deadline? {
        if alarm.at != nil || alarm.timer != nil {
            // At an instant (`+25m`, a timer): once; a paused timer has none.
            guard let at = alarm.at, at > after else { return nil }
            return Deadline(instant: at, clock: .wall)
        }
        if alarm.days != 0, alarm.options[AlarmOption.beforeFirstEvent.name] != nil {
            return firstEvent?.next(after: after, days: alarm.daySet, rules: alarm.dayRules(zone: zone), zone: zone).ring
        }
        if let date = alarm.date {
            // A one-off on a date: that date's time (a gap moves it to the gap's end), once.
            let local = LocalDateTime(date: date, hour: alarm.hour, minute: alarm.minute, second: alarm.second)
            let t = zone.instant(for: local)
            guard t > after else { return nil }
            return Deadline(instant: t, clock: .wall, shiftedFrom: zone.localTime(at: t) == local ? nil : local)
        }
        // `--weeks`, `--every`: the days they refuse are none of the alarm's (`DayRules`).
        if let rules = alarm.dayRules(zone: zone) {
            return rules.next(after: after, hour: alarm.hour, minute: alarm.minute, second: alarm.second, days: alarm.daySet, zone: zone)
        }
        return Recurrence.next(after: after, hour: alarm.hour, minute: alarm.minute, second: alarm.second,
                               days: DaySet(bits: alarm.days), zone: zone)
    }

    /// The occurrence of `alarm` on the local date `date` in `zone`, if it rings that day
    /// (`firstEvent`: its calendar read, as `occurrence(of:after:)` takes it).
    public static func occurrence(of alarm: StandingAlarm, on date: CivilDate, zone: TimeZoneRules,
                                  firstEvent: FirstEventSchedule? = nil) -> Deadline? {
        let dayStart = zone.instant(for: LocalDateTime(date: date, hour: 0, minute: 0, second: 0))
        guard let o = occurrence(of: alarm, after: dayStart - .nanoseconds(1), zone: zone, firstEvent: firstEvent),
              zone.localTime(at: o.instant).date == date else {
            return nil
        }
        return o
    }

    /// The plan for `alarm` at `now`. `lateLimit` is the alarm's own (`--late-limit`); `dayOff`
    /// names the holiday a local date is, if it is one (the alarm's calendars).
    public static func plan(_ alarm: StandingAlarm, record: AlarmRecord, lateLimit: Duration, now: Instant,
                            zone: TimeZoneRules, dayOff: (CivilDate) -> String? = { _ in nil },
                            firstEvent: FirstEventSchedule? = nil) -> Plan {
        if alarm.isOff {
            var off = Plan(next: nil, missed: [], skipped: nil)
            off.switchedOff = true
            return off
        }
        // Everything up to the latest occurrence already dealt with is history.
        var handled = alarm.created
        for t in [record.lastFired, record.missed, record.lastSkipped].compactMap({ $0 }) where t > handled { handled = t }
        let isOneOff = alarm.days == 0
        // A paused timer holds its span: nothing to arm, and not done.
        if alarm.timer?.remaining != nil {
            var p = Plan(next: nil, missed: [], skipped: nil)
            p.held = true
            return p
        }
        // At an instant: done once that instant is dealt with (a repeating timer's next round is a later one).
        if isOneOff && (alarm.at.map { handled >= $0 } ?? (handled > alarm.created)) {
            // Its skip, recorded ahead by a wake before `skips`, still ahead: kept for `wake skip --undo`.
            if let s = record.lastSkipped, s == handled, s > now { return Plan(next: nil, missed: [], skipped: nil, keptUntil: s) }
            return Plan(next: nil, missed: [], skipped: nil)
        }

        var missed: [Instant] = []
        var skipped: Instant?
        var skippedPassed: Instant?
        var passedOver: [PassedOver] = []
        var after = handled
        func plan(_ next: Deadline?, keptUntil: Instant? = nil) -> Plan {
            var p = Plan(next: next, missed: Array(missed.suffix(missedKept)), skipped: skipped, keptUntil: keptUntil, passedOver: passedOver)
            p.skippedPassed = skippedPassed
            // A recurring alarm is never done: with nothing to arm, it waits for a day to ring.
            if !isOneOff && next == nil { p.noDayUntil = after }
            return p
        }
        func skip(_ t: Instant) {
            skipped = t
            if t <= now { skippedPassed = t }
        }
        func pass(_ t: Instant, _ reason: SkipReason) {
            if passedOver.count < passedOverKept { passedOver.append(PassedOver(instant: t, reason: reason)) }
        }
        // A daemon away for years would walk every day since: start a little before the late
        // limit's reach instead, and count what lies before as missed.
        let reach = lateLimit > .zero ? lateLimit : .seconds(366 * 86_400)
        let horizon = now - reach - .seconds(8 * 86_400)
        if after < horizon, !isOneOff {
            if let first = occurrence(of: alarm, after: after, zone: zone, firstEvent: firstEvent), first.instant < horizon,
               !record.isPaused(first.instant) {
                missed.append(first.instant)
            }
            after = horizon
        }
        for _ in 0..<walkLimit {
            // The days of `--before-first-event` with no event before it are said, as skips are.
            if !isOneOff, let firstEvent, alarm.options[AlarmOption.beforeFirstEvent.name] != nil {
                for d in firstEvent.next(after: after, days: alarm.daySet, rules: alarm.dayRules(zone: zone), zone: zone).noEvent {
                    pass(zone.instant(for: LocalDateTime(date: d, hour: 23, minute: 59, second: 59)), .noEvent(firstEvent.label))
                }
            }
            guard let o = occurrence(of: alarm, after: after, zone: zone, firstEvent: firstEvent) else { return plan(nil) }
            if let until = record.pause(containing: o.instant)?.until {
                pass(o.instant, .paused(until: until))
                if isOneOff {
                    // Kept while the pause lasts, then passed over as a skip once it has ended.
                    if until > now { return plan(nil, keptUntil: until) }
                    skip(o.instant)
                    return plan(nil)
                }
                // Quiet: every occurrence up to the pause's end at once (a pause may be long; the next may follow).
                after = until - .nanoseconds(1)
                continue
            }
            if record.isSkipped(o.instant, zone: zone) {
                // Passed over, in the past or ahead: the next plan starts after it.
                pass(o.instant, .requested)
                skip(o.instant)
                if isOneOff { return plan(nil, keptUntil: o.instant > now ? o.instant : nil) }
                after = o.instant
                continue
            }
            if !isOneOff, let holiday = dayOff(zone.localTime(at: o.instant).date) {
                pass(o.instant, .dayOff(holiday))
                skip(o.instant)
                after = o.instant
                continue
            }
            if o.instant > now { return plan(o) }
            if lateLimit == .zero || now - o.instant <= lateLimit {
                // The latest passed occurrence within the limit rings now, unless a later one
                // also passed (then this one is missed and the later one is considered).
                if let later = isOneOff ? nil : occurrence(of: alarm, after: o.instant, zone: zone, firstEvent: firstEvent),
                   later.instant <= now {
                    missed.append(o.instant)
                } else {
                    return plan(o)
                }
            } else {
                missed.append(o.instant)
            }
            if isOneOff { return plan(nil) }
            after = o.instant
        }
        return plan(nil)
    }
}
