import WakeCore
import WakeSystem

extension StandingAlarmActions {
    /// `wake timer SPAN [NAME]`: `wake add +SPAN` made a timer (named `timer`, `timer-2` ... unless
    /// named), which `wake pause`, `wake resume` and `wake extend` hold, start and lengthen.
    public static func timer(span text: String, name: String?, repeats: Bool, ring: RingSettings, given: Set<String>,
                             console: Console, signals: SignalChannel?, in context: StandingContext? = nil) throws(WakeFailure) -> String {
        let span = try timerSpan(text, what: "SPAN")
        var request = AddRequest(when: ["+" + DurationText.format(span)], days: nil, name: name, ring: ring, given: given)
        request.timer = StandingTimer(span: span, repeats: repeats)
        return try addAlarm(request, console: console, signals: signals, in: context)
    }

    /// A timer's span (`4m`, `1h30m`, `90s`): more than nothing, at most `StandingTimer.longest`.
    static func timerSpan(_ text: String, what: String) throws(WakeFailure) -> Duration {
        let span: Duration
        do { span = try DurationText.parse(text) } catch { throw usage("\(what): \(error.description)") }
        guard span >= .seconds(1), span <= StandingTimer.longest else {
            throw usage("\(what): '\(text.printable)' is not from 1s to 366d; give a span such as 4m or 1h30m")
        }
        return span
    }

    /// `wake pause NAME...` (no --until) on timers: each holds the span it has left.
    public static func pauseTimers(_ names: [String], console: Console,
                                   in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        guard !names.isEmpty else {
            throw usage("pause: say until when, as 'wake pause --until mon' (every alarm) or 'wake pause work --until dec 24'; "
                        + "a timer is paused by its name, as 'wake pause tea'")
        }
        return try changeTimers(names, verb: "pause", console: console, in: context) { a, now, _ throws(WakeFailure) in
            guard let left = a.remaining(at: now), left >= .seconds(1) else {
                throw usage("timer '\(a.name)' is due now; 'wake stop' ends its ring, 'wake extend \(a.name) 2m' gives it more")
            }
            guard let paused = a.pausedTimer(at: now) else {
                throw usage("timer '\(a.name)' is paused already; 'wake resume \(a.name)' starts it")
            }
            return (paused, "paused '\(a.name)' with \(StandingTimer.remainingText(left)) left")
        }
    }

    /// `wake resume NAME...` on timers: each paused one starts again with its span kept. `strict`
    /// (every name given a timer): a running one is refused; else (a bare resume, or timers among
    /// alarms) it is passed over.
    static func resumeTimers(_ timers: [StandingAlarm], strict: Bool, console: Console,
                             in context: StandingContext) throws(WakeFailure) {
        let names = timers.filter { strict || $0.isPausedTimer }.map(\.name)
        guard !names.isEmpty else { return }
        _ = try changeTimers(names, verb: "resume", console: console, in: context) { a, now, local throws(WakeFailure) in
            guard let resumed = a.resumedTimer(at: now, local: local) else {
                throw usage("timer '\(a.name)' is running, not paused; 'wake pause \(a.name)' holds it")
            }
            let at = Formatting.clockTime(resumed.at ?? now, zone: context.zone(console))
            return (resumed, "resumed '\(a.name)': rings at \(at)")
        }
    }

    /// `wake extend NAME SPAN`: a timer's span left, and its span, longer (running or paused).
    public static func extend(name: String, by text: String, console: Console,
                              in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        let extra = try timerSpan(text, what: "SPAN")
        return try changeTimers([name], verb: "extend", console: console, in: context) { a, now, local throws(WakeFailure) in
            guard let longer = a.extendedTimer(by: extra, local: local), let left = longer.remaining(at: now) else {
                throw usage("'\(a.name)' is no timer; 'wake extend' lengthens a timer made by 'wake timer'")
            }
            guard longer.timer?.remaining != nil || a.remaining(at: now) ?? .zero > .zero else {
                throw usage("timer '\(a.name)' is due or ringing; 'wake snooze' gives a ring more time")
            }
            // The file keeps a timer of a year at most, as `wake timer` takes it.
            guard let span = longer.timer?.span, span <= StandingTimer.longest, left <= StandingTimer.longest else {
                throw usage("SPAN: '\(a.name)' extended by \(DurationText.format(extra)) would run longer than 366d; give a shorter SPAN")
            }
            return (longer, "extended '\(a.name)' by \(DurationText.format(extra)): \(StandingTimer.remainingText(left)) left")
        }
    }

    /// Each named timer changed under the file's lock, then its line said.
    private typealias TimerChange = (StandingAlarm, Instant, (Instant) -> LocalDateTime) throws(WakeFailure) -> (StandingAlarm, String)
    private static func changeTimers(_ names: [String], verb: String, console: Console, in context: StandingContext?,
                                     _ change: TimerChange) throws(WakeFailure) -> CommandResult {
        let context = try StandingContext.given(context)
        guard !names.isEmpty else { throw usage("\(verb): name the timers (see 'wake list')") }
        let now = context.now()
        let zone = context.zone(console)
        let chosen = try chosenAlarms(names, store: context.store, verb: verb)
        var lines: [String] = []
        var changed: [String: StandingAlarm] = [:]
        for a in chosen {
            guard a.timer != nil else {
                let instead = verb == "pause" ? "--until DATE pauses an alarm" : "works on timers"
                throw usage("'\(a.name)' is no timer; 'wake \(verb)' \(instead)")
            }
            let (new, line) = try change(a, now) { zone.localTime(at: $0) }
            changed[a.name] = new
            lines.append(line)
        }
        do {
            try context.store.update { alarms in
                for i in alarms.indices { if let new = changed[alarms[i].name] { alarms[i] = new } }
            }
        } catch {
            throw storeError(error)
        }
        for line in lines { console.info(line) }
        return .done
    }
}

extension StandingAlarmActions {
    /// A timer's state in `wake list`: `4m timer, 3m20s left`, `paused, 3m20s left`; nil for an
    /// alarm, or a timer whose state says more (ringing, snoozed, missed).
    static func timerState(_ a: StandingAlarm, waiting: Bool, now: Instant) -> String? {
        guard let t = a.timer, waiting || t.remaining != nil, let left = a.remaining(at: now) else { return nil }
        let span = DurationText.format(t.span)
        let remaining = StandingTimer.remainingText(left)
        switch (t.remaining != nil, t.repeats) {
        case (false, false): return localized("{span} timer, {left} left", span, remaining)
        case (false, true): return localized("{span} repeating timer, {left} left", span, remaining)
        case (true, false): return localized("paused, {span} timer, {left} left", span, remaining)
        case (true, true): return localized("paused, {span} repeating timer, {left} left", span, remaining)
        }
    }

    /// `wake list --json`'s `timer`: null for an alarm; else its span, the seconds left (rounded
    /// up), whether it is paused and whether it repeats.
    static func timerJSON(_ a: StandingAlarm, now: Instant?) -> JSONValue {
        guard let t = a.timer else { return .null }
        let left = now.flatMap { a.remaining(at: $0) }.map { ($0.milliseconds + 999) / 1000 }
        return .object([("span", .string(DurationText.format(t.span))), ("remaining_seconds", .optional(left.map { Int($0) })),
                        ("paused", .bool(t.remaining != nil)), ("repeat", .bool(t.repeats))])
    }
}
