import WakeCore
import WakeSystem

extension StandingAlarmActions {
    /// `wake resume [--all | --on DATE] [NAME...]`: the pause in force ends now (what passed
    /// during it stays quiet); `all`: every pause, those planned ahead too (dropped: nothing passed
    /// in them); `on`: the pause that the local date DATE falls in, on now or ahead. Each line says
    /// which pause it lifted, and which are left.
    public static func resume(names: [String], all: Bool = false, on dateText: String? = nil, console: Console,
                              in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        let context = try StandingContext.given(context)
        var names = names
        // Timers hold no dated pause: the paused ones start again, and the rest is resumed as alarms are.
        var timersResumed = false
        if dateText == nil {
            let timers = try chosenAlarms(names, store: context.store, verb: "resume").filter { $0.timer != nil }
            let strict = !names.isEmpty && timers.count == Set(names).count
            try resumeTimers(timers, strict: strict, console: console, in: context)
            if strict { return .done }
            timersResumed = timers.contains { $0.isPausedTimer }
            names.removeAll { n in timers.contains { $0.name == n } }
        }
        let store = context.store
        let zone = context.zone(console)
        let now = context.now()
        if all && dateText != nil { throw usage("--all lifts every pause and --on the one on a date; give one") }
        var day: (start: Instant, end: Instant)?
        if let dateText {
            let date = try onDate(dateText, example: "2026-12-21 or mon: the pause that day falls in is lifted",
                                  today: zone.localTime(at: now).date)
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
        if lifted.isEmpty, timersResumed, chosen.allSatisfy({ left($0).isEmpty }) { return .done }
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
}
