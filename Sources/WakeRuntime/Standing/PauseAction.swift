import WakeCore
import WakeSystem

extension StandingAlarmActions {
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
            guard let local = PauseEnd.parse(fromText, today: zone.localTime(at: now).date) else {
                throw usage("--from: invalid date '\(shown)'; \(PauseEnd.forms)")
            }
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
}
