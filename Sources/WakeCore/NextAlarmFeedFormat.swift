/// What `wake next --follow` prints for each status bar: one line per update, each line whole in
/// itself, since a bar reading a persistent command replaces what it shows with every line.
/// Nothing in a line depends on the minute (no "in 7h 12m"): it changes only at a change of the
/// alarm or at an instant `NextAlarmFeed.nextChange` names (a day word such as "tomorrow"
/// becoming "today").
public enum NextAlarmFeedFormat: String, CaseIterable, Hashable, Sendable {
    /// `wake next`'s line without the wait (polybar's `tail = true`); an empty line when no alarm.
    case plain
    /// `wake next --json`'s object, one a line; `in_s` as at the moment printed; `null` when no alarm.
    case json
    /// waybar's custom module with `return-type: json`: `text`, `tooltip`, `class`, `alt`.
    case waybar
    /// i3blocks' `interval=persist` with `format=json`: `full_text`, `short_text`, `urgent`.
    /// (In persist mode the raw format takes every line as a new `full_text`, so a short text
    /// needs the JSON form.)
    case i3blocks

    /// The value list, as `--format` says it in its help and its error.
    public static var names: [String] { allCases.map(\.rawValue) }

    /// What is printed (`text`) and what decides whether it is printed again (`key`: the text
    /// without what goes stale on its own, JSON's `in_s`).
    public struct Line: Hashable, Sendable {
        public var text: String
        public var key: String
    }

    /// The line for `alarm` (nil: none will ring), as seen at `now`.
    public func line(_ alarm: NextAlarm?, now: Instant, zone: TimeZoneRules) -> Line {
        guard let a = alarm else {
            switch self {
            case .plain: return Line(text: "", key: "")
            case .json: return Line(text: JSONValue.null.text, key: JSONValue.null.text)
            case .waybar:
                let none = JSONValue.object([("text", .string("")), ("tooltip", .string(localized("no alarm"))), ("class", .string("none")),
                                             ("alt", .string("none"))]).text
                return Line(text: none, key: none)
            case .i3blocks:
                // An empty full_text hides the block.
                let none = JSONValue.object([("full_text", .string("")), ("short_text", .string(""))]).text
                return Line(text: none, key: none)
            }
        }
        // The line goes to a bar as it is: escaped here, where a terminal's console would.
        let full = TerminalText.sanitizeLine(a.line(now: now, zone: zone, wait: false))
        switch self {
        case .plain:
            return Line(text: full, key: full)
        case .json:
            // What a program reads: English (its `text` keeps the reader's clock, as `wake next --json`'s does).
            return MachineText.written(keepingClock: true) {
                Line(text: a.json(now: now, zone: zone, wait: false).text,
                     key: a.json(now: now, zone: zone, wait: false, inSeconds: false).text)
            }
        case .waybar:
            let state = JSONValue.string(a.state.rawValue)
            let text = JSONValue.object([("text", .string("⏰ " + Self.short(a, now: now, zone: zone))),
                                         ("tooltip", .string(full)), ("class", state), ("alt", state)]).text
            return Line(text: text, key: text)
        case .i3blocks:
            var fields: [(String, JSONValue)] = [("full_text", .string(full)), ("short_text", .string(Self.short(a, now: now, zone: zone)))]
            if a.state == .ringing { fields.append(("urgent", .bool(true))) }
            let text = JSONValue.object(fields).text
            return Line(text: text, key: text)
        }
    }

    /// A bar's few characters: `06:30` within a day, `Fri 06:30` within six, `4 Dec 06:30`
    /// beyond; `06:39 snoozed` today, `Sat 06:39 snoozed` another day (a snooze's end names its
    /// day when it is not today's, as every "snoozed until" does); `06:30 pre-alarm`; `06:30 ringing`.
    static func short(_ a: NextAlarm, now: Instant, zone: TimeZoneRules) -> String {
        let time = Formatting.clockTime(a.at, zone: zone)
        let date = zone.localTime(at: a.at).date
        let wait = a.at - now
        func dated() -> String {
            if wait <= .seconds(6 * Self.day) { return Formatting.weekdayName(date.weekday) + " " + time }
            let month = Formatting.monthName(date.month, short: true)
            return (ClockStyle.current.monthFirst ? "\(month) \(date.day)" : "\(date.day) \(month)") + " \(time)"
        }
        switch a.state {
        case .ringing: return localized("{time} ringing", time)
        case .snoozed:
            let today = date.daysSinceEpoch == zone.localTime(at: now).date.daysSinceEpoch
            return localized("{time} snoozed", today ? time : dated())
        case .preRinging: return localized("{time} pre-alarm", time)
        case .waiting:
            if wait <= .seconds(Self.day) { return time }
            return dated()
        }
    }

    static let day: Int64 = 86_400
}
