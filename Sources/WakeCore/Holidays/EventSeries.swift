/// A meeting's weekly or daily repeat, as calendar programs export a series:
/// `RRULE:FREQ=WEEKLY;BYDAY=MO,WE;INTERVAL=2;UNTIL=20270630T000000Z`, `RRULE:FREQ=DAILY;COUNT=10`.
/// Read for `--before-first-event`'s calendars only (a holiday does not repeat weekly): `BYDAY`
/// with plain weekdays (a numbered one, `1MO`, is a monthly rule and refused), `INTERVAL`,
/// `UNTIL` or `COUNT`, `WKST`. By date: the start's time of day is the event's, and an
/// occurrence moved by a `RECURRENCE-ID` event is read as one more event, so that morning rings
/// for the earlier of the two. Pure: the rule's parts in, dates out.
public struct EventSeries: Equatable, Sendable {
    public enum Frequency: String, Equatable, Sendable { case daily = "DAILY", weekly = "WEEKLY" }

    public var frequency: Frequency
    public var interval: Int
    /// The weekdays it falls on (`CivilDate.weekday`, 0 Sunday): `BYDAY`, else every day for a
    /// daily rule and the start's weekday for a weekly one.
    public var weekdays: Set<Int>
    /// The last date it may fall on: `UNTIL`'s, or the date of `COUNT`'s last occurrence.
    public var last: CivilDate?
    /// `WKST`, the weekday a week begins on (for `INTERVAL` above 1): 1 Monday (the default), 0 Sunday.
    public var weekStart: Int

    static let dayNames = ["SU": 0, "MO": 1, "TU": 2, "WE": 3, "TH": 4, "FR": 5, "SA": 6]
    /// The parts read; any other (`BYMONTH`, `BYSETPOS` ...) is refused with its line.
    static let understood: Set<String> = ["FREQ", "INTERVAL", "BYDAY", "UNTIL", "COUNT", "WKST"]
    /// The most occurrences `COUNT` takes: decades of a daily meeting.
    static let countLimit = 20_000

    /// The series of the event starting on `start`, from its `RRULE`'s parts (upper-cased);
    /// `until`: `UNTIL`'s date, read by the caller.
    init(_ frequency: Frequency, parts: [String: String], start: CivilDate, until: CivilDate?,
         line: Int) throws(HolidayCalendar.ParseError) {
        func fail(_ m: String) -> HolidayCalendar.ParseError { HolidayCalendar.ParseError(line: line, message: m) }
        if let other = parts.keys.sorted().first(where: { !Self.understood.contains($0) }) {
            throw fail("RRULE part \(other) is not read in a \(frequency.rawValue.lowercased()) rule; export the dates instead")
        }
        self.frequency = frequency
        interval = parts["INTERVAL"].flatMap { Int($0) } ?? 1
        guard (1...366).contains(interval) else { throw fail("RRULE's INTERVAL must be 1 to 366") }
        switch parts["WKST"] {
        case nil, "MO": weekStart = 1
        case "SU": weekStart = 0
        case let other?: throw fail("RRULE's WKST '\(TerminalText.printable(other))' is not read; only MO and SU are")
        }
        if let byDay = parts["BYDAY"] {
            var days = Set<Int>()
            for word in byDay.split(separator: ",") {
                guard let d = Self.dayNames[String(word)] else {
                    throw fail("RRULE's BYDAY '\(TerminalText.printable(String(word)))' is not a plain weekday (MO, TU ...); "
                               + "a numbered one is a monthly rule: export the dates instead")
                }
                days.insert(d)
            }
            guard !days.isEmpty else { throw fail("RRULE's BYDAY is empty") }
            weekdays = days
        } else {
            weekdays = frequency == .daily ? Set(0...6) : [start.weekday]
        }
        last = until
        if let c = parts["COUNT"] {
            guard let n = Int(c), (1...Self.countLimit).contains(n) else {
                throw fail("RRULE's COUNT must be 1 to \(Self.countLimit)")
            }
            last = lastOf(count: n, from: start)
        }
    }

    /// Whether the series started on `start` has an occurrence on `date`.
    public func includes(_ date: CivilDate, start: CivilDate) -> Bool {
        guard date >= start, last.map({ date <= $0 }) ?? true, weekdays.contains(date.weekday) else { return false }
        switch frequency {
        case .daily: return date.daysSinceEpoch.minus(start.daysSinceEpoch) % Int64(interval) == 0
        case .weekly: return (week(of: date) - week(of: start)) % Int64(interval) == 0
        }
    }

    /// The week a date is in, counted from the epoch in weeks that begin on `weekStart`.
    private func week(of date: CivilDate) -> Int64 {
        // 1970-01-01 was a Thursday: the epoch's day 4 is a Monday, its day 3 a Sunday.
        let firstStart: Int64 = weekStart == 1 ? 4 : 3
        let days = date.daysSinceEpoch.minus(firstStart)
        return days >= 0 ? days / 7 : (days - 6) / 7
    }

    /// The date of the `count`th occurrence from `start` (the start, when it is one, the first).
    private func lastOf(count: Int, from start: CivilDate) -> CivilDate {
        var found = 0
        var last = start
        switch frequency {
        case .daily:
            // Every `interval`th day; a BYDAY that none of them falls on leaves the start alone.
            var d = start
            for _ in 0..<(count * 7 + 7) {
                if weekdays.contains(d.weekday) {
                    found += 1
                    last = d
                    if found >= count { return last }
                }
                d = d.adding(days: interval)
            }
        case .weekly:
            // Every `interval`th week from the start's, each week's days in order.
            var first = start.adding(days: -((start.weekday - weekStart + 7) % 7))
            for _ in 0..<count {
                for k in 0..<7 {
                    let d = first.adding(days: k)
                    guard d >= start, weekdays.contains(d.weekday) else { continue }
                    found += 1
                    last = d
                    if found >= count { return last }
                }
                first = first.adding(days: 7 * interval)
            }
        }
        return last
    }
}
