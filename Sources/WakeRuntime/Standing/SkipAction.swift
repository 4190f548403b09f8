import WakeCore
import WakeSystem

extension StandingAlarmActions {
    /// What `wake skip` was asked: the next occurrence (`count` 1), the next `count`, or the
    /// occurrences on `dates` (local dates, as `2026-12-24`); `undo` takes skips back (those on
    /// `dates`, or every one ahead).
    public struct SkipRequest {
        /// Nil (or empty, as the API gives it): the alarm that rings next, or for `undo` the one
        /// with skips ahead (`skipTarget`).
        public var name: String?
        public var undo: Bool
        public var count: Int?
        public var dates: [String]
        public init(name: String?, undo: Bool = false, count: Int? = nil, dates: [String] = []) {
            self.name = name; self.undo = undo; self.count = count; self.dates = dates
        }
    }

    /// The most occurrences one `wake skip --count` passes over: a year of a daily alarm.
    public static let skipCountLimit = 366
    /// What `--count` takes, said when it is refused.
    public static let skipCountRule = "give a count from 1 to \(skipCountLimit): the number of occurrences to skip"

    public static func skip(name: String, undo: Bool, console: Console,
                            in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        try skip(SkipRequest(name: name, undo: undo), console: console, in: context)
    }

    public static func skip(_ request: SkipRequest, console: Console,
                            in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        let context = try StandingContext.given(context)
        let store = context.store
        let zone = context.zone(console)
        let now = context.now()
        if let n = request.count, !(1...skipCountLimit).contains(n) { throw usage("--count \(n): \(skipCountRule)") }
        if request.count != nil && !request.dates.isEmpty { throw usage("--count and --on do not go together; give one") }
        if request.undo && request.count != nil {
            throw usage("--undo takes back every skip ahead, or those --on dates; leave out --count")
        }
        let alarms: [StandingAlarm]
        do { alarms = try store.load() } catch { throw storeError(error) }
        let config = context.config()
        let name: String
        if let given = request.name, !given.isEmpty { name = given } else {
            name = try skipTarget(request, alarms: alarms, context: context, config: config, zone: zone, now: now)
        }
        guard let alarm = alarms.first(where: { $0.name == name }) else { throw unknown(name) }
        if alarm.timer != nil {
            throw usage("'\(name)' is a timer: it has no occurrence to skip; 'wake pause \(name)' holds it, 'wake remove \(name)' ends it")
        }
        let lateLimit = RingSettings.lateLimit(of: alarm, config: config)
        let calendars = AlarmDaysOff([alarm], config: config, now: now, zone: zone)[alarm.name]
        let onDates = try skipped(alarm, on: request.dates, now: now, zone: zone, firstEvent: calendars.firstEvent)
        func when(_ t: Instant) -> String { "\(Formatting.datePhrase(t, now: now, zone: zone)) \(Formatting.clockTime(t, zone: zone))" }
        do {
            let (changed, record, tooMany) = try store.updateHistory { history -> ([Instant], AlarmRecord, Bool) in
                var record = (history[alarm.name] ?? AlarmRecord(name: alarm.name)).migratingSkips(zone: zone)
                var changed: [Instant] = []
                func day(_ t: Instant) -> CivilDate { zone.localTime(at: t).date }
                if request.undo {
                    // Taken back, whether or not a daemon has already passed over it.
                    let ahead = record.skipInstants(of: alarm, zone: zone, firstEvent: calendars.firstEvent).filter { $0 > now }
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
                                                               dayOff: calendars.dayOff,
                                                               firstEvent: calendars.firstEvent).next?.instant else { break }
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
                throw usage("'\(alarm.name)' would have more than \(AlarmHistory.skipsKept) skips; "
                            + "take some back with 'wake skip \(alarm.name) --undo'")
            }
            let next = StandingSchedule.plan(alarm, record: record, lateLimit: lateLimit, now: now, zone: zone,
                                             dayOff: calendars.dayOff, firstEvent: calendars.firstEvent).next
            let rings = next.map { "; it rings next at \(Formatting.ringsAt($0.instant, now: now, zone: zone))" } ?? ""
            guard !changed.isEmpty else {
                if request.undo {
                    console.info("'\(alarm.name)' has no skipped occurrence ahead" + (onDates.isEmpty ? "" : " on those dates") + rings)
                } else if onDates.isEmpty {
                    console.info("'\(alarm.name)' has no occurrence left to skip")
                } else {
                    console.info("'\(alarm.name)' already skips " + onDates.map(when).joined(separator: ", ") + rings)
                }
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

    /// The alarm a `wake skip` without a name means: the standing alarm that rings next, or for
    /// `--undo` the one alarm with skips ahead. Never a guess: none, or several with skips to
    /// take back, is refused with the names to choose from.
    static func skipTarget(_ request: SkipRequest, alarms: [StandingAlarm], context: StandingContext, config: ConfigDefaults,
                           zone: TimeZoneRules, now: Instant) throws(WakeFailure) -> String {
        if !request.dates.isEmpty { throw usage("--on needs the alarm's name, as 'wake skip work --on 2026-12-24'") }
        let history: [String: AlarmRecord]
        do { history = try context.store.loadHistory() } catch { throw storeError(error) }
        let rows = rows(alarms, history: history, zone: zone, now: now, daemon: false, config: config,
                        daysOff: AlarmDaysOff(alarms, config: config, now: now, zone: zone))
        if request.undo {
            let skipping = rows.filter { !$0.skips.isEmpty || $0.skipNext }.map(\.alarm.name)
            guard skipping.count == 1 else {
                throw WakeFailure(.nothingMatched, skipping.isEmpty ? "no standing alarm has a skip ahead; see 'wake list'"
                                  : "several alarms have skips ahead (\(skipping.joined(separator: ", "))); "
                                      + "name one, as 'wake skip \(skipping[0]) --undo'")
            }
            return skipping[0]
        }
        // A timer is no morning to skip: the next alarm is.
        let soonest = rows.filter { $0.alarm.timer == nil }.compactMap { row in row.next.map { (row.alarm.name, $0.instant) } }
            .filter { $0.1 > now }
            .min { ($0.1, $0.0) < ($1.1, $1.0) }
        guard let (name, _) = soonest else {
            throw WakeFailure(.nothingMatched, "no standing alarm rings ahead: nothing to skip; see 'wake list'")
        }
        return name
    }

    /// The occurrences of `alarm` on the dates of `--on` (each may hold several, `2026-12-24,2026-12-31`), in the order given.
    static func skipped(_ alarm: StandingAlarm, on dates: [String], now: Instant, zone: TimeZoneRules,
                        firstEvent: FirstEventSchedule?) throws(WakeFailure) -> [Instant] {
        var onDates: [Instant] = []
        for text in dates {
            for day in text.split(separator: ",", omittingEmptySubsequences: false) {
                let t = try skipped(alarm, onDate: String(day), now: now, zone: zone, firstEvent: firstEvent)
                if !onDates.contains(t) { onDates.append(t) }  // a day given twice is one skip
            }
        }
        return onDates
    }

    /// `wake skip --group NAME`: each alarm of the group skipped as `request` says, its timers
    /// passed over (they have no occurrence to skip); every member's dates are checked before any
    /// is written, so a date one of them does not ring on leaves the group as it was.
    public static func skipGroup(_ request: SkipRequest, group: String, console: Console,
                                 in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        let context = try StandingContext.given(context)
        let names = try alarms(named: request.name.map { [$0] } ?? [], group: group, store: context.store, verb: "skip",
                               console: console)
        let all: [StandingAlarm]
        do { all = try context.store.load() } catch { throw storeError(error) }
        let members = all.filter { names.contains($0.name) }
        let (now, zone, config) = (context.now(), context.zone(console), context.config())
        let daysOff = AlarmDaysOff(members, config: config, now: now, zone: zone)
        for a in members where a.timer == nil && !request.undo {
            _ = try skipped(a, on: request.dates, now: now, zone: zone, firstEvent: daysOff[a.name].firstEvent)
        }
        var result = CommandResult.done
        for a in members {
            if a.timer != nil {
                console.info("'\(a.name)' is a timer, passed over: it has no occurrence to skip")
                continue
            }
            var one = request
            one.name = a.name
            result = try skip(one, console: console, in: context)
        }
        return result
    }

    /// The alarm's occurrence on the local date `text` (`2026-12-24`), which must lie ahead and
    /// be one of its days: a skip on a day it does not ring would change nothing, and is more
    /// likely a wrong date than an intent.
    /// `firstEvent`: the calendar of a `--before-first-event` alarm, read (nil: unreadable, refused as such).
    static func skipped(_ alarm: StandingAlarm, onDate text: String, now: Instant, zone: TimeZoneRules,
                        firstEvent: FirstEventSchedule? = nil) throws(WakeFailure) -> Instant {
        let shown = TerminalText.printable(text, limit: 40)
        let date = try onDate(text, example: "2026-12-24 or fri (several: --on 2026-12-24,2026-12-31)",
                              today: zone.localTime(at: now).date)
        let calendar = alarm.options[AlarmOption.beforeFirstEvent.name]
        if let calendar, firstEvent == nil {
            throw WakeFailure(.config, "--on \(shown): '\(alarm.name)' rings by calendar '\(calendar.printable)', "
                              + "which cannot be read now; 'wake doctor' says why")
        }
        guard let o = StandingSchedule.occurrence(of: alarm, on: date, zone: zone, firstEvent: firstEvent) else {
            let events = firstEvent.map { " before the first event in \($0.label.printable), and that day has none" } ?? ""
            let days = alarm.dateText.map { "it rings once, on \($0)" }
                ?? (alarm.days == 0 ? "it rings once, at \(alarm.shownTime())"
                   : "it rings on \(alarm.daySet.canonical)\(alarm.dayRules(zone: zone)?.phrase ?? "")\(events)")
            throw usage("--on \(shown): '\(alarm.name)' does not ring that day (\(days)); give a day it rings on")
        }
        guard o.instant > now else { throw usage("--on \(shown): '\(alarm.name)' has already rung or passed that day; give a later date") }
        return o.instant
    }
}
