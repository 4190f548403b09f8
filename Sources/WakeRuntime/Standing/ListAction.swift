import WakeCore
import WakeSystem

extension StandingAlarmActions {
    /// `wake list [--json]`: every standing alarm and every running one-off, a table or a JSON
    /// array; exit 78 (after the list) when the files hold something the daemon sets aside.
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
}
