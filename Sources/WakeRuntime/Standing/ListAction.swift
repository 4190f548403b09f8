import WakeCore
import WakeSystem

extension StandingAlarmActions {
    /// `wake list [--json]`: every standing alarm and every running one-off, a table or a JSON
    /// array; exit 78 (after the list) when the files hold something the daemon sets aside.
    public static func list(json asJSON: Bool, order: ListOrder = .next, console: Console,
                            in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        if asJSON && (MessageCatalogue.current != nil || ClockStyle.current != .twentyFourHour) {
            return try MachineText.written { () throws(WakeFailure) in try list(json: true, order: order, console: console, in: context) }
        }
        let o = try overview(console: console, in: try StandingContext.given(context))
        let (zone, now, daemon, problems) = (o.zone, o.now, o.daemon, o.problems)
        let entries = ordered(o.entries, by: order)
        if asJSON {
            console.json(.array(entries.map { json($0, zone: zone, now: now) }))
            return problems.isEmpty ? .done : .doneWithProblems
        }
        if entries.isEmpty {
            console.result(localized("no alarms; set one with 'wake 07:00', or add a standing one with 'wake add 06:30 --days weekdays'"))
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
            console.results(columns(table))
            if entries.contains(where: { $0.wakesSystem == false }) {
                let why = o.wakeLook.now.obstacle.map { ": " + $0.description } ?? ""
                console.error(localized("note: a closed lid or a suspend will delay the alarms marked no under WAKES") + why)
            }
        }
        if !daemon && o.standingCount > 0 { console.error(noDaemonNote) }
        return problems.isEmpty ? .done : .doneWithProblems
    }

    /// `wake list --sort`: by the next ring (what rings now first, then the soonest; those with
    /// nothing to ring last), or by name (standing alarms, then one-offs, as before).
    public enum ListOrder: String, CaseIterable, Sendable {
        case next, name
    }

    /// The entries in `order`; those alike by it keep their name order.
    static func ordered(_ entries: [Entry], by order: ListOrder) -> [Entry] {
        guard order == .next else { return entries }
        func key(_ e: Entry) -> (Int, Instant) {
            if e.phase == .ringing { return (0, e.ringingSince ?? .distantPast) }
            return e.next.map { (1, $0) } ?? (2, .distantFuture)
        }
        return entries.enumerated().sorted { a, b in
            let (ka, kb) = (key(a.element), key(b.element))
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element)
    }

    /// The table's rows as lines, each column as wide as its widest cell and two spaces apart,
    /// the last left as it is. Widths counted in characters, by bytes where a cell is ASCII (most
    /// are: counting characters, padding and joining were a fifth of `wake list` with 2,000 alarms).
    static func columns(_ table: [[String]]) -> [String] {
        guard let header = table.first else { return [] }
        let last = header.count - 1
        let widths = table.map { $0.map(\.displayWidth) }
        var widest = [Int](repeating: 0, count: header.count)
        for row in widths { for (i, w) in row.enumerated() where i < widest.count { widest[i] = max(widest[i], w) } }
        let spaces = [UInt8](repeating: UInt8(ascii: " "), count: (widest.max() ?? 0) + 2)
        return table.indices.map { r in
            var line: [UInt8] = []
            line.reserveCapacity(widest.reduce(0, +) + 2 * last + 8)
            for (i, cell) in table[r].enumerated() {
                line.append(contentsOf: cell.utf8)
                guard i < last else { break }
                line.append(contentsOf: spaces[0..<(max(0, widest[i] - widths[r][i]) + 2)])
            }
            return String(decoding: line, as: UTF8.self)
        }
    }

    /// One entry of `wake list --json`: the same keys, in the same order, for a standing alarm
    /// and a running one-off (which has no name, days, skips or pauses).
    static func json(_ e: Entry, zone: TimeZoneRules, now: Instant? = nil) -> JSONValue {
        func iso(_ i: Instant?) -> JSONValue { .optional(i.map { Formatting.iso8601($0, zone: zone) }) }
        var fields: [(String, JSONValue)] = [
            ("id", .string(e.id)),
            ("kind", .string(e.standing == nil ? "one-off" : "standing")),
            ("pid", .optional(e.pid)),
        ]
        if let r = e.standing {
            let a = r.alarm
            fields += [
                ("name", .string(a.name)),
                ("time", .string(a.timeText)),
                ("days", .array(a.daySet.names.map { .string($0) })),
                ("date", .optional(a.dateText)),
                ("next", iso(e.next)),
                ("skip_next", .bool(r.skipNext)),
                ("state", .string(e.state)),
                ("enabled", .bool(!a.isOff)),
                ("group", .optional(a.group)),
                ("missed", iso(r.missed)),
                ("paused_until", iso(r.pausedUntil)),
                ("paused_from", iso(r.pausedFrom)),
                ("pauses", .array(r.pauses.map { p in .object([("from", iso(p.from)), ("until", iso(p.until))]) })),
                ("skips", .array(r.skips.map { iso($0) })),
                ("skipped", .array(r.passedOver.map { p in
                    var holiday = JSONValue.null
                    if case .dayOff(let h) = p.reason { holiday = .string(h) }
                    return .object([("occurrence", iso(p.instant)), ("reason", .string(StandingSchedule.kind(p.reason))),
                                    ("holiday", holiday)])
                })),
                ("timer", timerJSON(a, now: now)),
                ("options", .object(a.options.keys.sorted().map { ($0, .string(a.options[$0] ?? "")) })),
                ("set_aside", .array(r.adjustments.map { a in
                    .object([("option", .string(a.option)), ("value", .string(a.value)), ("reason", .string(a.reason)),
                             ("instead", .string(a.instead))])
                })),
            ]
        } else {
            fields += [
                ("name", .null),
                ("time", .string(e.time)),
                ("days", .array([])),
                ("date", .null),
                ("next", iso(e.next)),
                ("skip_next", .bool(false)),
                ("state", .string(e.state)),
                ("enabled", .bool(true)),
                ("group", .null),
                ("missed", .null),
                ("paused_until", .null),
                ("paused_from", .null),
                ("pauses", .array([])),
                ("skips", .array([])),
                ("skipped", .array([])),
                ("options", .object([])),
                ("set_aside", .array([])),
            ]
        }
        fields += [("sound", .optional(e.sound)), ("device", .string(e.device)),
                   ("wakes_system", e.wakesSystem.map { .bool($0) } ?? .null),
                   ("message", .optional(e.message)),
                   ("snoozes", .optional(e.snoozesUsed)), ("snooze_limit", .optional(e.snoozeLimit))]
        return .object(fields)
    }
}
