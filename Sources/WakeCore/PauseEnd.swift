/// `wake pause --until DATE`: DATE as a person writes it, a local date (the pause ends at its
/// midnight, so the alarms ring again on that day) or a local date and time, and the bounds a
/// pause's end is held to.
public enum PauseEnd {
    /// `2026-12-07` (00:00 that day), `2026-12-07T12:00` or `2026-12-07T12:00:30`; nil otherwise.
    /// Given `today`, a day word too (`tomorrow`, `mon`, `dec 24`: `NamedDay.parse`), from
    /// tomorrow on when `after`.
    public static func parse(_ text: String, today: CivilDate? = nil, after: Bool = false) -> LocalDateTime? {
        if let d = TOMLSubset.date(text) { return LocalDateTime(date: d, hour: 0, minute: 0, second: 0) }
        if let today, let day = NamedDay.parse(text) {
            // A pause's end is never today's midnight, which has passed: `mon` on a Monday is the next one.
            let from = after && day != .today && day != .tomorrow ? today.nextDay : today
            return day.date(from: from).map { LocalDateTime(date: $0, hour: 0, minute: 0, second: 0) }
        }
        let u = Array(text.utf8)
        guard u.count > 11, u[10] == UInt8(ascii: "T"), let d = TOMLSubset.date(u, 0),
              let t = TOMLSubset.timeOfDay(String(decoding: u[11...], as: UTF8.self)) else { return nil }
        return LocalDateTime(date: d, hour: t.0, minute: t.1, second: t.2)
    }

    public static let forms = "give a local date, as 2026-12-07, tomorrow, mon or 'dec 24' (the alarms ring again from that day), "
        + "or a date and time, as 2026-12-07T12:00"

    /// The longest pause taken without `--long`: a year, leap day included. A longer one is
    /// more often a typo in the year (2062 for 2026) than a plan, and it silences every alarm.
    public static let longest: Duration = .seconds(366 * 86_400)

    /// The latest end wake takes: a week before the last instant it can represent (2262-04-11),
    /// so that the first occurrence after the pause can still be computed. Later dates used to
    /// be clamped to that instant without a word, and a daily alarm then had no next occurrence.
    public static let latest = Instant.distantFuture - .seconds(8 * 86_400)

    /// Why a pause's end is refused; `description` is the line to print (exit 64).
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The instant `text` ends a pause at, read in `zone`, or why it cannot: not a date, not
    /// after `now`, beyond `latest`, or more than `longest` ahead without `long`.
    public static func resolve(_ text: String, now: Instant, zone: TimeZoneRules, long: Bool) throws(Refusal) -> Instant {
        let shown = TerminalText.printable(text, limit: 40)
        guard let local = parse(text, today: zone.localTime(at: now).date, after: true) else {
            throw Refusal(description: "--until: invalid date '\(shown)'; \(forms)")
        }
        // A date past what an instant holds comes back saturated, so it is caught here too.
        let until = zone.instant(for: local)
        guard until <= latest else {
            let last = TOMLSubset.dateText(zone.localTime(at: latest).date)
            throw Refusal(description: "--until \(shown) is later than wake can represent (the last date it takes is \(last)); give an earlier date")
        }
        guard until > now else { throw Refusal(description: "--until \(shown) is not in the future; give a later date to pause until") }
        if !long && until - now > longest {
            let days = ((until - now).secondsRoundedUp + 86_399) / 86_400
            throw Refusal(description: "--until \(shown) is \(days) days away, more than a year; give an earlier date, or add --long to pause that long")
        }
        return until
    }
}
