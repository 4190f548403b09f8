import WakeCore
import WakeSystem

extension StandingAlarmActions {
    /// What `wake change NAME` was given: what it replaces, and what it resets to the default.
    public struct ChangeRequest {
        public var name: String
        /// A new WHEN; empty keeps the alarm's time (and date).
        public var when: [String]
        public var days: String?
        public var newName: String?
        /// The ring options the command line gave, by long name (`volume`), with the flags given.
        public var values: [String: String]
        public var given: Set<String>
        public var skipDays: [String]
        /// `AlarmOption.kept` given (`--group`, `--bedtime`), by name.
        public var kept: [String: String]
        /// `--weeks`, `--every`, `--from`, `--before-first-event`, `--lead` given (`AlarmOption.dayRules`), by name.
        public var rules: [String: String]
        /// `--force`: changed to ring at the same moments as another alarm (`DuplicateAlarms`).
        public var force: Bool
        /// `--reset OPTION`: options (by long name, `days` too) taken back to their default.
        public var reset: [String]

        public init(name: String, when: [String] = [], days: String? = nil, newName: String? = nil, values: [String: String] = [:],
                    given: Set<String> = [], skipDays: [String] = [], kept: [String: String] = [:], rules: [String: String] = [:],
                    reset: [String] = [], force: Bool = false) {
            self.force = force
            self.rules = rules
            self.name = name
            self.when = when
            self.days = days
            self.newName = newName
            self.values = values
            self.given = given
            self.skipDays = skipDays
            self.kept = kept
            self.reset = reset
        }
    }

    /// What `--reset` takes: every stored option but the switch (`wake on`), and `days`.
    public static var resettable: [String] { ["days"] + AlarmOption.all(.stored).map(\.name).filter { $0 != AlarmOption.switchState.name } }

    public static func change(_ c: ChangeRequest, console: Console, signals: SignalChannel?,
                              in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        _ = try changeAlarm(c, console: console, signals: signals, in: context)
        return .done
    }

    /// `wake change`'s work (and the D-Bus API's Update): the alarm as changed, checked as
    /// `wake add` checks a new one, stored in its place; its record follows a rename and loses
    /// the skips of days it no longer rings on. Returns its name.
    public static func changeAlarm(_ c: ChangeRequest, console: Console, signals: SignalChannel?,
                                   in context: StandingContext? = nil) throws(WakeFailure) -> String {
        let context = try StandingContext.given(context)
        let old = try chosenAlarms([c.name], store: context.store, verb: "change")[0]
        // A timer, or a one-off at an instant (`+25m`), holds a span, not a time of day: a new
        // WHEN, days or rules would make it something else. Its ring options, name and group change.
        let held = old.timer != nil || old.at != nil
        if held, !c.when.isEmpty || c.days != nil || !c.rules.isEmpty || !c.skipDays.isEmpty {
            let extend = old.timer != nil ? "'wake extend \(old.name) 5m' lengthens it; or " : ""
            throw usage("'\(old.name)' is \(old.timer != nil ? "a timer" : "a one-off at an instant"), which wake change cannot move: "
                        + extend + "remove it and add the alarm you want")
        }
        let request = try addRequest(for: c, from: old, config: context.config(), now: context.now())
        var checked = try checkedAlarm(request, console: console, signals: signals, in: context)
        if held {
            // Checked as the same span from now; kept at its own instant, round and time shown.
            (checked.alarm.at, checked.alarm.timer, checked.alarm.created) = (old.at, old.timer, old.created)
            (checked.alarm.hour, checked.alarm.minute, checked.alarm.second) = (old.hour, old.minute, old.second)
            if let at = old.at { checked.next = Deadline(instant: at, clock: .wall) }
        }
        let alarm = checked.alarm
        let newName = alarm.name
        enum Outcome { case done, gone, raced, taken, copies(StandingAlarm) }
        let outcome: Outcome
        do {
            outcome = try context.store.update { alarms -> Outcome in
                guard let i = alarms.firstIndex(where: { $0.name == c.name }) else { return .gone }
                // Checked outside the lock (the device check takes seconds): another change meanwhile is not overwritten.
                guard alarms[i] == old else { return .raced }
                if newName != c.name, alarms.contains(where: { $0.name == newName }) { return .taken }
                // As `wake add` refuses a copy: skipping or pausing one would leave the other ringing.
                let others = alarms.filter { $0.name != c.name }
                if !c.force, let copy = DuplicateAlarms.existing(alarm, among: others) { return .copies(copy) }
                alarms[i] = alarm
                return .done
            }
        } catch {
            throw storeError(error)
        }
        switch outcome {
        case .gone: throw unknown(c.name)
        case .raced: throw WakeFailure(.nothingMatched, "'\(c.name)' was changed by another command meanwhile; nothing changed: "
                                       + "see 'wake list' and change it again")
        case .taken: throw usage("--name: an alarm named '\(newName.printable)' exists already; choose another name, or remove it first")
        case .copies(let copy):
            throw copyRefused(alarm, copy, force: "use --force to have both")
        case .done: break
        }
        var dropped: [CivilDate] = []
        do {
            try context.store.updateHistory { history in
                // A record left under the new name (a one-off removed lately) is not this alarm's.
                let record = history[c.name]
                history[c.name] = nil
                history[newName] = nil
                guard let record else { return }
                let (changed, gone) = record.changed(to: alarm, zone: checked.zone, firstEvent: checked.events)
                dropped = gone
                if !changed.isEmpty { history[newName] = changed }
            }
        } catch {
            throw storeError(error)
        }
        checked.alarm = alarm
        let what = newName == c.name ? "changed '\(newName)'" : "changed '\(c.name)', now '\(newName)'"
        announce(what, checked, console: console, context: context)
        if !dropped.isEmpty {
            let dates = dropped.map(\.isoText).joined(separator: ", ")
            console.info("dropped \(dropped.count == 1 ? "the skip" : "the skips") of \(dates): '\(newName)' no longer rings "
                         + (dropped.count == 1 ? "that day" : "on those days"))
        }
        return newName
    }

    /// The alarm as changed, as a `wake add` of it: the options given over those stored, less
    /// those reset; the time, days, calendars and group kept unless given or reset.
    static func addRequest(for c: ChangeRequest, from old: StandingAlarm, config: ConfigDefaults,
                           now: Instant) throws(WakeFailure) -> AddRequest {
        let ringGiven = AlarmOption.all(.ring).contains { c.given.contains($0.flag) }
        if c.when.isEmpty, c.days == nil, c.newName == nil, !ringGiven, c.skipDays.isEmpty, c.kept.isEmpty, c.rules.isEmpty,
           c.reset.isEmpty {
            throw usage("nothing to change in '\(old.name.printable)'; give a new WHEN, --days, --name, a ring option or --reset OPTION")
        }
        var reset = Set<String>()
        for word in c.reset {
            let key = word.hasPrefix("--") ? String(word.dropFirst(2)) : word
            guard resettable.contains(key) else {
                throw usage("--reset: no option '\(word.printable)' to reset; give one of \(resettable.joined(separator: ", "))")
            }
            let flag = "--" + key
            if c.given.contains(flag) || (key == "days" && c.days != nil) || (key == "skip-days" && !c.skipDays.isEmpty)
                || c.kept[key] != nil || c.rules[key] != nil {
                throw usage("--reset \(key) and \(flag) contradict each other; give one of them")
            }
            reset.insert(key)
        }
        // The calendar and its lead go together, and without them the alarm needs a time of its own.
        let (events, lead) = (AlarmOption.beforeFirstEvent.name, AlarmOption.lead.name)
        if reset.contains(events) || reset.contains(lead), old.options[events] != nil {
            reset.formUnion([events, lead])
            if c.when.isEmpty {
                throw usage("--reset \(events): its calendar set the time; give the new WHEN too, "
                            + "as 'wake change \(old.name.printable) 06:30 --reset \(events)'")
            }
        }
        // The ring options: stored, less those reset, with those given on top.
        var values = old.options.filter { key, _ in AlarmOption.named(key)?.scope.contains(.ring) == true && !reset.contains(key) }
        let ring = AlarmOption.all(.ring)
        for option in ring where c.given.contains(option.flag) { values[option.name] = c.values[option.name] }
        // Where to ring is one choice, as on the command line: a --device given drops a stored --sink.
        let (device, sink) = (AlarmOption.device, AlarmOption.sink)
        if c.given.contains(device.flag), !c.given.contains(sink.flag) { values[sink.name] = nil }
        if c.given.contains(sink.flag), !c.given.contains(device.flag) { values[device.name] = nil }
        let given = Set(values.keys.map { "--" + $0 })
        let settings = try RingSettings(layering: values, under: config, given: given)
        // WHEN and the days: a new time keeps the days; days alone keep the time (a date gives way to them).
        var days = reset.contains("days") ? nil : c.days ?? (old.days == 0 ? nil : old.daySet.canonical)
        var when = c.when
        if when.isEmpty {
            when = [old.date.map { $0.isoText + "T" + old.timeText } ?? old.timeText]
            if c.days != nil { when = [old.timeText] }
        }
        if c.days == nil, !c.when.isEmpty, (try? WakeSpec(parsing: c.when)).map(Self.namesADay) == true { days = nil }
        // A one-off on a date given a new time of day alone stays on its date.
        if c.days == nil, let date = old.date, case .timeOfDay(let h, let m, let sec)? = try? WakeSpec(parsing: c.when) {
            var moved = old
            (moved.hour, moved.minute, moved.second) = (h, m, sec)
            when = [date.isoText + "T" + moved.timeText]
        }
        let skipDays = !c.skipDays.isEmpty ? c.skipDays
            : reset.contains(AlarmOption.skipDays.name) ? [] : AlarmOption.list(old.options[AlarmOption.skipDays.name] ?? "")
        var other: [String: String] = [:]
        for option in AlarmOption.kept where !reset.contains(option.name) {
            if let value = c.kept[option.name] ?? old.options[option.name] { other[option.name] = value }
        }
        if let state = old.options[AlarmOption.switchState.name] { other[AlarmOption.switchState.name] = state }
        // The day rules kept, less those reset (`--from` as the date it stored); a calendar's
        // first event sets its time, so no WHEN goes with one.
        var rules: [String: String] = [:]
        for option in AlarmOption.dayRules where !reset.contains(option.name) {
            rules[option.name] = c.rules[option.name] ?? old.options[option.name]
        }
        if rules[AlarmOption.beforeFirstEvent.name] != nil, c.when.isEmpty { when = [] }
        // A timer or an instant's one-off: checked as the span it has left, from now (at least a second).
        if old.timer != nil || old.at != nil {
            let left = old.remaining(at: now) ?? .zero
            when = ["+" + DurationText.format(.seconds(max(1, left.secondsRoundedUp)))]
            days = nil
        }
        var request = AddRequest(when: when, days: days, name: c.newName ?? old.name, ring: settings, given: given, skipDays: skipDays,
                                 rules: rules, other: other)
        // Checked running (a paused one's plan has no ring to check); its pause is put back after.
        request.timer = old.timer.map { StandingTimer(span: $0.span, repeats: $0.repeats) }
        return request
    }

    /// Whether WHEN names a day of its own (a date, `tomorrow 6:30`): a one-off, so the days stored give way.
    static func namesADay(_ spec: WakeSpec) -> Bool {
        switch spec {
        case .dateTime, .dayTime: return true
        default: return false
        }
    }
}
