/// The days an iCalendar file (RFC 5545) marks, for an alarm that skips holidays: what a
/// calendar program exports and what `python3-holidays` can write. Read: all-day `VEVENT`s
/// (`DTSTART;VALUE=DATE`, with `DTEND` or `DURATION`), timed ones for the days they cover (their
/// wall dates as written, or in `zone` for UTC times), `RRULE:FREQ=YEARLY` (with `UNTIL`,
/// `COUNT` and `INTERVAL`) and `EXDATE`. A rule this reading cannot follow (a weekday rule such
/// as "the last Monday of May") is refused with its line rather than read wrongly: an alarm
/// that skips the wrong day is as bad as one that rings on a holiday. Pure: the file's text in,
/// dates out.
public struct HolidayCalendar: Equatable, Sendable {
    public struct Event: Equatable, Sendable {
        public var summary: String
        public var start: CivilDate
        /// Days it covers from `start` (1 for an all-day event).
        public var days: Int
        /// Every `interval` years from `start`, while before `until` and within `count`.
        public var yearly: (interval: Int, until: CivilDate?, count: Int?)?
        public var exceptions: Set<CivilDate>
        /// A weekly or daily repeat: read only for `--before-first-event`'s calendars (`parse(series:)`).
        public var series: EventSeries?

        public static func == (a: Event, b: Event) -> Bool {
            a.summary == b.summary && a.start == b.start && a.days == b.days && a.exceptions == b.exceptions && a.series == b.series
                && a.yearly?.interval == b.yearly?.interval && a.yearly?.until == b.yearly?.until && a.yearly?.count == b.yearly?.count
        }
    }

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    public var events: [Event]

    /// The longest event read (a holiday of several weeks is still a holiday; a year is a typo).
    public static let longestEvent = 366

    public init(events: [Event]) { self.events = events }

    /// The event covering `date`, if any: the first in the file's order.
    public func event(on date: CivilDate) -> Event? {
        events.first { $0.covers(date) }
    }

    /// The last day any event covers on or after `from` within `horizon` days, for "the calendar
    /// has no days beyond the next 60": nil when none does.
    public func lastDay(from: CivilDate, within horizon: Int) -> CivilDate? {
        var last: CivilDate?
        var d = from
        for _ in 0..<max(0, horizon) {
            if event(on: d) != nil { last = d }
            d = d.nextDay
        }
        return last
    }

    /// `series`: weekly and daily `RRULE`s read too (`EventSeries`), for a calendar of meetings;
    /// a holiday calendar refuses them.
    public static func parse(_ text: String, zone: TimeZoneRules, series: Bool = false) throws(ParseError) -> HolidayCalendar {
        var events: [Event] = []
        var current: [(line: Int, name: String, params: [String: String], value: String)]?
        var begun = 0
        var sawCalendar = false
        for (number, line) in unfolded(text) {
            guard let colon = line.firstIndex(of: ":") else {
                if line.isEmpty { continue }
                throw ParseError(line: number, message: "not a 'NAME:value' line")
            }
            let head = line[..<colon].split(separator: ";", omittingEmptySubsequences: false)
            let name = head.first.map { $0.uppercased() } ?? ""
            var params: [String: String] = [:]
            for p in head.dropFirst() {
                let kv = p.split(separator: "=", maxSplits: 1)
                if kv.count == 2 { params[kv[0].uppercased()] = kv[1].uppercased() }
            }
            let value = String(line[line.index(after: colon)...])
            switch (name, value.uppercased()) {
            case ("BEGIN", "VCALENDAR"): sawCalendar = true
            case ("BEGIN", "VEVENT"):
                if current != nil { throw ParseError(line: number, message: "a VEVENT inside a VEVENT") }
                current = []
                begun = number
            case ("END", "VEVENT"):
                guard let props = current else { throw ParseError(line: number, message: "END:VEVENT without BEGIN:VEVENT") }
                events.append(try event(props, endLine: number, zone: zone, series: series))
                current = nil
            default:
                current?.append((number, name, params, value))
            }
        }
        guard sawCalendar else { throw ParseError(line: 1, message: "not an iCalendar file (no BEGIN:VCALENDAR)") }
        if current != nil { throw ParseError(line: begun, message: "the VEVENT begun here is not ended (no END:VEVENT)") }
        return HolidayCalendar(events: events)
    }

    /// Lines with folding undone (a line starting with a space or tab continues the one before),
    /// each with its first physical line's number.
    static func unfolded(_ text: String) -> [(Int, String)] {
        var out: [(Int, String)] = []
        var number = 0
        // "\r\n" is one Character in Swift: split on it as on "\n".
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            var line = Substring(raw)
            if line.hasSuffix("\r") { line = line.dropLast() }
            // By scalar, not by character: a continuation may start with a space and a combining
            // mark (a character longer than a line, broken between its scalars), one character.
            if let first = line.unicodeScalars.first, first == " " || first == "\t", !out.isEmpty {
                out[out.count - 1].1 += String(line.unicodeScalars.dropFirst())
            } else {
                out.append((number, String(line)))
            }
        }
        return out
    }

    private static func event(_ props: [(line: Int, name: String, params: [String: String], value: String)], endLine: Int,
                              zone: TimeZoneRules, series allowsSeries: Bool) throws(ParseError) -> Event {
        func first(_ name: String) -> (line: Int, name: String, params: [String: String], value: String)? { props.first { $0.name == name } }
        guard let dtstart = first("DTSTART") else { throw ParseError(line: endLine, message: "a VEVENT without DTSTART") }
        let start = try dateOf(dtstart.value, line: dtstart.line, zone: zone)
        let allDay = dtstart.params["VALUE"] == "DATE" || dtstart.value.count == 8
        var days = 1
        if let dtend = first("DTEND") {
            let (end, endTime) = try dateAndTime(dtend.value, line: dtend.line, zone: zone)
            let span = end.daysSinceEpoch.minus(start.daysSinceEpoch)
            // DTEND is exclusive for an all-day event; a timed one covers the day it ends on, unless it ends at midnight.
            let covered = allDay || endTime == 0 ? span : span.plus(1)
            guard covered >= 1, covered <= Int64(longestEvent) else {
                throw ParseError(line: dtend.line, message: "DTEND '\(TerminalText.printable(dtend.value))' is not after DTSTART, or more than a year later")
            }
            days = Int(covered)
        } else if let duration = first("DURATION") {
            guard let d = durationDays(duration.value), d >= 1, d <= longestEvent else {
                throw ParseError(line: duration.line, message: "DURATION '\(TerminalText.printable(duration.value))' is not a span of 1 to \(longestEvent) days (P1D, P2W)")
            }
            days = d
        }
        var yearly: (interval: Int, until: CivilDate?, count: Int?)?
        var series: EventSeries?
        if let rrule = first("RRULE") {
            var parts: [String: String] = [:]
            for p in rrule.value.uppercased().split(separator: ";") {
                let kv = p.split(separator: "=", maxSplits: 1)
                if kv.count == 2 { parts[String(kv[0])] = String(kv[1]) }
            }
            if parts["UNTIL"] != nil, parts["COUNT"] != nil {
                throw ParseError(line: rrule.line, message: "RRULE has both UNTIL and COUNT; keep one")
            }
            var until: CivilDate?
            if let u = parts["UNTIL"] { until = try dateOf(u, line: rrule.line, zone: zone) }
            if allowsSeries, let frequency = parts["FREQ"].flatMap(EventSeries.Frequency.init(rawValue:)) {
                series = try EventSeries(frequency, parts: parts, start: start, until: until, line: rrule.line)
            } else {
                yearly = try yearlyRule(parts, start: start, until: until, line: rrule.line, series: allowsSeries)
            }
        }
        var exceptions = Set<CivilDate>()
        for ex in props where ex.name == "EXDATE" {
            for v in ex.value.split(separator: ",") { exceptions.insert(try dateOf(String(v), line: ex.line, zone: zone)) }
        }
        let summary = unescape(first("SUMMARY")?.value ?? "")
        return Event(summary: summary.isEmpty ? "a day of the calendar" : summary, start: start, days: days, yearly: yearly,
                     exceptions: exceptions, series: series)
    }

    /// A `FREQ=YEARLY` rule's interval, end and count; any other frequency, or a part that moves
    /// the day, refused with its line. `series`: weekly and daily rules are read elsewhere.
    private static func yearlyRule(_ parts: [String: String], start: CivilDate, until: CivilDate?, line: Int,
                                   series: Bool) throws(ParseError) -> (interval: Int, until: CivilDate?, count: Int?) {
        guard parts["FREQ"] == "YEARLY" else {
            let read = series ? "only FREQ=YEARLY, WEEKLY and DAILY rules are read" : "only FREQ=YEARLY rules are read"
            throw ParseError(line: line, message: "RRULE 'FREQ=\(TerminalText.printable(parts["FREQ"] ?? ""))' is not yearly; \(read)")
        }
        let understood: Set<String> = ["FREQ", "UNTIL", "COUNT", "INTERVAL", "BYMONTH", "BYMONTHDAY", "WKST"]
        if let other = parts.keys.sorted().first(where: { !understood.contains($0) }) {
            throw ParseError(line: line, message: "RRULE part \(other) is not read (a weekday rule moves the day each year); "
                             + "export the dates instead")
        }
        if let m = parts["BYMONTH"], Int(m) != start.month {
            throw ParseError(line: line, message: "RRULE's BYMONTH differs from DTSTART's month")
        }
        if let d = parts["BYMONTHDAY"], Int(d) != start.day {
            throw ParseError(line: line, message: "RRULE's BYMONTHDAY differs from DTSTART's day")
        }
        let interval = parts["INTERVAL"].flatMap { Int($0) } ?? 1
        guard interval >= 1, interval <= 100 else { throw ParseError(line: line, message: "RRULE's INTERVAL must be 1 to 100") }
        var count: Int?
        if let c = parts["COUNT"] {
            guard let n = Int(c), n >= 1 else { throw ParseError(line: line, message: "RRULE's COUNT must be a positive number") }
            count = n
        }
        return (interval, until, count)
    }

    /// The date of `20261224`, `20261224T090000` (wall time as written) or `20261224T090000Z` (UTC, in `zone`).
    static func dateOf(_ value: String, line: Int, zone: TimeZoneRules) throws(ParseError) -> CivilDate {
        try dateAndTime(value, line: line, zone: zone).date
    }

    /// The date and, for a time, its second of the day (nil for a date alone).
    static func dateAndTime(_ value: String, line: Int, zone: TimeZoneRules) throws(ParseError) -> (date: CivilDate, second: Int?) {
        let bytes = Array(value.utf8)
        func number(_ r: Range<Int>) -> Int? {
            guard r.upperBound <= bytes.count else { return nil }
            var n = 0
            for b in bytes[r] { guard b >= 48, b <= 57 else { return nil }; n = n * 10 + Int(b - 48) }
            return n
        }
        guard let y = number(0..<4), let m = number(4..<6), let d = number(6..<8) else {
            throw ParseError(line: line, message: "'\(TerminalText.printable(value))' is not a date (YYYYMMDD)")
        }
        let date = CivilDate(year: y, month: m, day: d)
        guard date.isValid else { throw ParseError(line: line, message: "'\(TerminalText.printable(value))' is not a calendar date") }
        guard bytes.count >= 15, bytes[8] == UInt8(ascii: "T"),
              let h = number(9..<11), let mi = number(11..<13), let s = number(13..<15), h < 24, mi < 60, s < 61 else { return (date, nil) }
        let second = h * 3600 + mi * 60 + s
        guard bytes.count == 16, bytes[15] == UInt8(ascii: "Z") else { return (date, second) }
        let local = zone.localTime(at: Instant(seconds: date.daysSinceEpoch.times(86_400).plus(Int64(second))))
        return (local.date, local.hour * 3600 + local.minute * 60 + local.second)
    }

    /// `P1D`, `P2W`, `P1DT12H` (whole days counted; hours round up a day): nil when not a span.
    static func durationDays(_ value: String) -> Int? {
        var rest = Substring(value.uppercased())
        guard rest.hasPrefix("P") else { return nil }
        rest = rest.dropFirst()
        var days = 0, digits = 0, inTime = false, partial = false, any = false
        for c in rest {
            if let v = c.wholeNumberValue { digits = digits.multipliedReportingOverflow(by: 10).partialValue + v; guard digits < 10_000 else { return nil }; continue }
            switch (c, inTime) {
            case ("W", false): days += digits * 7
            case ("D", false): days += digits
            case ("T", false): inTime = true; digits = 0; continue
            case ("H", true), ("M", true), ("S", true): if digits > 0 { partial = true }
            default: return nil
            }
            any = true
            digits = 0
        }
        guard any, digits == 0 else { return nil }
        return days + (partial ? 1 : 0)
    }

    /// TEXT values: `\,` `\;` `\\` and `\n`.
    static func unescape(_ s: String) -> String {
        var out = "", escaped = false
        for c in s {
            if escaped { out.append(c == "n" || c == "N" ? " " : c); escaped = false } else if c == "\\" { escaped = true } else { out.append(c) }
        }
        return out
    }
}

extension HolidayCalendar.Event {
    /// Whether the event, or one of its yearly repeats, covers `date`.
    public func covers(_ date: CivilDate) -> Bool {
        func within(_ s: CivilDate) -> Bool {
            let offset = date.daysSinceEpoch.minus(s.daysSinceEpoch)
            return offset >= 0 && offset < Int64(days)
        }
        guard let rule = yearly else { return !exceptions.contains(start) && within(start) }
        // The repeats that could cover it: those starting this year or the year before (an event over New Year).
        for year in [date.year - 1, date.year] {
            let years = year - start.year
            guard years >= 0, years % rule.interval == 0 else { continue }
            if let count = rule.count, years / rule.interval >= count { continue }
            // 29 February repeats only in leap years, as calendar programs do.
            let s = CivilDate(year: year, month: start.month, day: start.day)
            guard s.isValid, !exceptions.contains(s) else { continue }
            if let until = rule.until, until < s { continue }
            if within(s) { return true }
        }
        return false
    }
}
