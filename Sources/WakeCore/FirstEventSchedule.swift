/// The timed events of an iCalendar file, for an alarm that rings a lead before the first
/// event of each day (`--before-first-event FILE --lead 90m`, issue 54). The file is read by
/// the holiday reader (`HolidayCalendar.parse`: the same structure, the same refusals with their
/// line, yearly `RRULE`s with `INTERVAL`, `COUNT`, `UNTIL` and `EXDATE`, and here weekly and
/// daily ones, `EventSeries`; a monthly rule is refused rather than read wrongly); this adds each
/// event's start time:
/// floating (the wall time of the alarm's zone), UTC (`Z`) or in the zone its `TZID` names
/// (`zones` finds it; one it cannot is refused with its line). All-day events are no events
/// here. Pure: text and zones in, instants out.
public struct EventCalendar: Equatable, Sendable {
    public struct Event: Equatable, Sendable {
        public var summary: String
        /// The start's wall date and second of the day, in `zone`.
        public var start: CivilDate
        public var second: Int
        /// The zone of the start: nil for a floating time (the alarm's zone), `.utc` for `Z`.
        public var zone: TimeZoneRules?
        /// The holiday reader's event: its yearly rule and exceptions, by wall date.
        public var dates: HolidayCalendar.Event

        /// Whether the event, or a yearly repeat of it, starts on the wall date `date`.
        func starts(on date: CivilDate) -> Bool {
            guard !dates.exceptions.contains(date) else { return false }
            if let series = dates.series { return series.includes(date, start: start) }
            guard date.month == start.month, date.day == start.day, date.year >= start.year else { return false }
            guard let rule = dates.yearly else { return date == start }
            let years = date.year - start.year
            guard years % rule.interval == 0 else { return false }
            if let count = rule.count, years / rule.interval >= count { return false }
            if let until = rule.until, until < date { return false }
            return true
        }
    }

    public var events: [Event] { didSet { (index, series) = Self.index(events) } }
    /// The events by the month and day they start on (`month * 32 + day`): a day looks only at its
    /// own, and at the weekly and daily series (`series`), which fall on many.
    private var index: [Int: [Int]]
    private var series: [Int]

    public init(events: [Event]) { self.events = events; (index, series) = Self.index(events) }

    public static func == (a: EventCalendar, b: EventCalendar) -> Bool { a.events == b.events }

    private static func index(_ events: [Event]) -> ([Int: [Int]], [Int]) {
        var out: [Int: [Int]] = [:]
        var series: [Int] = []
        for (i, e) in events.enumerated() {
            if e.dates.series != nil { series.append(i) } else { out[e.start.month * 32 + e.start.day, default: []].append(i) }
        }
        return (out, series)
    }

    /// The timed events of `text`. `zones`: the zone a `TZID` names, or nil when none is known.
    public static func parse(_ text: String, zones: (String) -> TimeZoneRules?) throws(HolidayCalendar.ParseError) -> EventCalendar {
        // Dates as written: UTC ones are kept in UTC here, and placed in the alarm's zone when asked.
        let holidays = try HolidayCalendar.parse(text, zone: .utc, series: true)
        var events: [Event] = []
        var index = 0
        var inEvent = false
        var start: (line: Int, value: String, tzid: String?)?
        for (number, line) in HolidayCalendar.unfolded(text) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let head = line[..<colon].split(separator: ";", omittingEmptySubsequences: false)
            let name = head.first.map { $0.uppercased() } ?? ""
            let value = String(line[line.index(after: colon)...])
            if name == "BEGIN", value.uppercased() == "VEVENT" { inEvent = true; start = nil; continue }
            if name == "END", value.uppercased() == "VEVENT" {
                inEvent = false
                defer { index += 1 }
                guard let s = start, index < holidays.events.count else { continue }
                let (date, second) = try HolidayCalendar.dateAndTime(s.value, line: s.line, zone: .utc)
                guard let second else { continue }  // all day: no event to ring before
                var zone: TimeZoneRules?
                if s.value.uppercased().hasSuffix("Z") {
                    zone = .utc
                } else if let id = s.tzid {
                    guard let z = zones(id) else {
                        let why = "TZID '\(TerminalText.printable(id))' is not a time zone this machine knows (as Europe/Berlin); "
                            + "export the calendar in UTC or with zone names"
                        throw HolidayCalendar.ParseError(line: s.line, message: why)
                    }
                    zone = z
                }
                let d = holidays.events[index]
                events.append(Event(summary: d.summary, start: date, second: second, zone: zone, dates: d))
                continue
            }
            guard inEvent, name == "DTSTART", start == nil else { continue }
            var tzid: String?
            for p in head.dropFirst() {
                let kv = p.split(separator: "=", maxSplits: 1)
                if kv.count == 2, kv[0].uppercased() == "TZID" { tzid = String(kv[1]).trimmingQuotes }
                if kv.count == 2, kv[0].uppercased() == "VALUE", kv[1].uppercased() == "DATE" { tzid = nil }
            }
            start = (number, value, tzid)
        }
        return EventCalendar(events: events)
    }

    /// The first timed event that starts on the local date `date` in `zone`, and its start.
    public func first(on date: CivilDate, zone: TimeZoneRules) -> (start: Instant, summary: String)? {
        var best: (start: Instant, summary: String)?
        // Starts on the wall dates around `date` in their own zones (offsets differ by a day at most).
        for k: Int64 in -1...1 {
            let wall = CivilDate(daysSinceEpoch: date.daysSinceEpoch.plus(k))
            for i in (index[wall.month * 32 + wall.day] ?? []) + series {
                let e = events[i]
                let own = e.zone ?? zone
                guard e.starts(on: wall) else { continue }
                let t = own.instant(for: LocalDateTime(date: wall, hour: e.second / 3600, minute: e.second / 60 % 60,
                                                       second: e.second % 60))
                guard zone.localTime(at: t).date == date else { continue }
                if best.map({ t < $0.start }) ?? true { best = (t, e.summary) }
            }
        }
        return best
    }
}

/// An alarm that rings `lead` before the first timed event of each of its days: the ring of the
/// local date `date`, or nil when the day has no timed event (a reason, not a ring: `wake list`
/// and `wake next` say it).
public struct FirstEventSchedule: Sendable {
    public var calendar: EventCalendar
    public var lead: Duration
    /// The calendar's file name, as reasons name it (`no event in work.ics`).
    public var label: String

    /// The longest lead: a ring for a day's first event stays within a day of it.
    public static let longestLead: Duration = .seconds(12 * 3600)

    public init(calendar: EventCalendar, lead: Duration, label: String) {
        self.calendar = calendar
        self.lead = lead
        self.label = label
    }

    /// The instant `date` rings at, and the event it is for; nil: no timed event that day.
    public func ring(on date: CivilDate, zone: TimeZoneRules) -> (instant: Instant, summary: String)? {
        calendar.first(on: date, zone: zone).map { ($0.start - lead, $0.summary) }
    }
}

extension FirstEventSchedule {
    /// How far ahead the next ring is looked for: a calendar with no event within a year has none.
    public static let searchDays = 366

    /// The first ring strictly after `after` on a local date in `days` that passes `rules`, and
    /// the dates before it with no timed event (said as reasons); nil ring: none within `searchDays`.
    public func next(after: Instant, days: DaySet, rules: DayRules?, zone: TimeZoneRules) -> (ring: Deadline?, noEvent: [CivilDate]) {
        var noEvent: [CivilDate] = []
        // A ring may fall on the day before its event: begin a day early.
        var date = CivilDate(daysSinceEpoch: zone.localTime(at: after).date.daysSinceEpoch.minus(1))
        for _ in 0...Self.searchDays {
            defer { date = date.nextDay }
            guard days.contains(date.weekday), rules?.allows(date) ?? true else { continue }
            guard let r = ring(on: date, zone: zone) else {
                if zone.instant(for: LocalDateTime(date: date, hour: 23, minute: 59, second: 59)) > after { noEvent.append(date) }
                continue
            }
            if r.instant > after { return (Deadline(instant: r.instant, clock: .wall), noEvent) }
        }
        return (nil, noEvent)
    }
}

private extension String {
    var trimmingQuotes: String {
        count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : self
    }
}
