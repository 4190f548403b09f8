/// The phrases that tell a sleeper when the alarm will ring, in words they can check at a
/// glance: which day, how long from now, and whether a daylight-saving change moved it.
extension Formatting {
    /// A weekday's abbreviation as the reader reads it (0: Sunday): `Mon`, `Mo` (German).
    static func weekdayName(_ weekday: Int) -> String {
        switch weekday {
        case 0: localized("Sun")
        case 1: localized("Mon")
        case 2: localized("Tue")
        case 3: localized("Wed")
        case 4: localized("Thu")
        case 5: localized("Fri")
        default: localized("Sat")
        }
    }

    /// A month's name (`March`) or abbreviation (`Mar`) as the reader reads it.
    static func monthName(_ m: Int, short: Bool) -> String {
        switch (m, short) {
        case (1, true): localized("Jan")
        case (2, true): localized("Feb")
        case (3, true): localized("Mar")
        case (4, true): localized("Apr")
        case (5, _): localized("May")
        case (6, true): localized("Jun")
        case (7, true): localized("Jul")
        case (8, true): localized("Aug")
        case (9, true): localized("Sep")
        case (10, true): localized("Oct")
        case (11, true): localized("Nov")
        case (12, true): localized("Dec")
        case (1, false): localized("January")
        case (2, false): localized("February")
        case (3, false): localized("March")
        case (4, false): localized("April")
        case (6, false): localized("June")
        case (7, false): localized("July")
        case (8, false): localized("August")
        case (9, false): localized("September")
        case (10, false): localized("October")
        case (11, false): localized("November")
        case (12, false): localized("December")
        default: "month \(m)"
        }
    }

    /// The day `target` falls on as seen from `now`, both read in `zone`: "today", "tomorrow",
    /// "yesterday", else the weekday and date ("Wed 25 Nov"), with the year when it is not
    /// now's year ("Mon 3 Jan 2028").
    public static func dayPhrase(_ target: Instant, now: Instant, zone: TimeZoneRules, style: ClockStyle = .current) -> String {
        let day = zone.localTime(at: target).date, today = zone.localTime(at: now).date
        switch day.daysSinceEpoch.minus(today.daysSinceEpoch) {
        case 0: return localized("today")
        case 1: return localized("tomorrow")
        case -1: return localized("yesterday")
        default: return weekdayDate(day, year: day.year == today.year ? nil : day.year, style: style)
        }
    }

    /// When something ends or comes back, as a snooze's end is said ("snoozed until ..."): the
    /// clock time (`clockTime`), then the day (`dayPhrase`) when it is not `now`'s, so a time
    /// tomorrow or days away never reads as today's: `16:03:57`, `16:03:57 tomorrow`,
    /// `16:03:57 Sat 14 Mar`.
    public static func clockTimeAndDay(_ target: Instant, now: Instant, zone: TimeZoneRules, alwaysSeconds: Bool = false) -> String {
        let time = clockTime(target, zone: zone, alwaysSeconds: alwaysSeconds)
        let sameDay = zone.localTime(at: target).date.daysSinceEpoch == zone.localTime(at: now).date.daysSinceEpoch
        return sameDay ? time : localized("{time} {day}", time, dayPhrase(target, now: now, zone: zone))
    }

    /// How long until something, in the two largest units that matter: "in 2d 3h",
    /// "in 23h 58m", "in 12m 5s", "in 45s". Rounded up to the second, then cut to the units
    /// shown, so a wait is never shown as more than it is once those units are read.
    /// A wait of zero or less is "now".
    public static func waitPhrase(_ wait: Duration) -> String {
        waitSpan(wait).map { localized("in {span}", $0) } ?? localized("now")
    }

    /// The two largest units of `waitPhrase` (`2d 3h`, `12m 5s`); nil for a wait of zero or less.
    public static func waitSpan(_ wait: Duration) -> String? {
        let t = wait.secondsRoundedUp
        guard t > 0 else { return nil }
        let (d, h, m, s) = (t / 86_400, t / 3600 % 24, t / 60 % 60, t % 60)
        if d > 0 { return h > 0 ? "\(d)d \(h)h" : "\(d)d" }
        return t >= 3600 ? "\(t / 3600)h \(m)m" : m > 0 ? "\(m)m \(s)s" : "\(s)s"
    }

    /// The armed line's account of a deadline: "07:00 tomorrow, in 23h 58m" (the clock
    /// time, with its seconds only when it has any, the day phrase, the wait phrase).
    public static func ringsAt(_ target: Instant, now: Instant, zone: TimeZoneRules) -> String {
        localized("{time} {day}, {wait}", clockTime(target, zone: zone), dayPhrase(target, now: now, zone: zone),
                  waitPhrase(target - now))
    }

    /// When `Schedule.resolve` moved a deadline out of a spring-forward gap: "02:30 does not
    /// exist on 29 March (clocks go forward); ringing at 03:00" (with the date of the ringing
    /// too when the jump carries it to another day, as Samoa's skipped day did). Nil when the
    /// deadline was not moved.
    public static func gapNote(_ deadline: Deadline, zone: TimeZoneRules) -> String? {
        guard let asked = deadline.shiftedFrom else { return nil }
        let rings = zone.localTime(at: deadline.instant)
        let askedText = wallTime(hour: asked.hour, minute: asked.minute, second: asked.second)
        func date(_ d: CivilDate) -> String {
            ClockStyle.current.monthFirst ? "\(monthName(d.month, short: false)) \(d.day)" : "\(d.day) \(monthName(d.month, short: false))"
        }
        var note = "\(askedText) does not exist on \(date(asked.date)) (clocks go forward); "
        note += "ringing at \(clockTime(deadline.instant, zone: zone))"
        if rings.date != asked.date { note += " on \(date(rings.date))" }
        return note
    }
}
