/// `wake next --follow`'s decisions, pure: given each look at the alarms (what `wake next` would
/// answer, and its warnings), whether to print a line, which warnings to say, and the one
/// instant the line changes by itself. The follower asks again only on a change of the files or
/// of the running wakes, or at that instant: never on a period.
public struct NextAlarmFeed: Sendable {
    public let format: NextAlarmFeedFormat
    /// The key of the line printed last; nil before the first.
    public private(set) var lastKey: String?
    /// The warnings of the last look: each is said once, and again only after a look without it.
    public private(set) var lastProblems: Set<String> = []

    public init(format: NextAlarmFeedFormat) { self.format = format }

    /// What one look leads to.
    public struct Update: Equatable, Sendable {
        /// The line to print (without its newline), or nil when it would repeat the last one.
        public var line: String?
        /// The warnings to say now (those the last look did not have).
        public var problems: [String]
        /// When to look again though nothing changed (the alarm's time, or the day words of
        /// the line turning); nil when only a change can change the line.
        public var lookAgainAt: Instant?
    }

    /// A look that found `alarm` (nil: none will ring) and `problems` (lines for stderr).
    public mutating func update(_ alarm: NextAlarm?, problems: [String], now: Instant, zone: TimeZoneRules) -> Update {
        let line = format.line(alarm, now: now, zone: zone)
        let printed = line.key == lastKey ? nil : line.text
        lastKey = line.key
        return Update(line: printed, problems: fresh(problems),
                      lookAgainAt: Self.nextChange(of: alarm, format: format, now: now, zone: zone))
    }

    /// A look that failed (an unreadable alarms file): the line stays as it was, since the
    /// daemon goes on ringing the alarms it last read; the failure is said once.
    public mutating func failed(_ problems: [String]) -> [String] { fresh(problems) }

    private mutating func fresh(_ problems: [String]) -> [String] {
        var seen = Set<String>()
        let new = problems.filter { !lastProblems.contains($0) && seen.insert($0).inserted }
        lastProblems = Set(problems)
        return new
    }

    /// The first instant after `now` at which the line for `alarm` would change with nothing
    /// else changing: its time (it rings, or its snooze ends), or a turn of the words that
    /// depend on the date (a day before it "tomorrow", that day "today", a day within six
    /// "Fri", the year said until it is this year's). Between the instants tried here the line
    /// cannot change (its only dependence on `now` is through them), so the follower wakes at
    /// most a few times an alarm, and not at all when its line would stay the same.
    public static func nextChange(of alarm: NextAlarm?, format: NextAlarmFeedFormat, now: Instant, zone: TimeZoneRules) -> Instant? {
        guard let a = alarm else { return nil }
        let due: Instant? = a.state != .ringing && a.at > now ? a.at : nil
        let shown = format.line(a, now: now, zone: zone).key
        let day = zone.localTime(at: a.at).date
        let today = zone.localTime(at: now).date
        func midnight(_ d: CivilDate) -> Instant { zone.instant(for: LocalDateTime(date: d, hour: 0, minute: 0, second: 0)) }
        let dayLength = NextAlarmFeedFormat.day
        let candidates = [
            a.at - .seconds(dayLength), a.at - .seconds(6 * dayLength),
            midnight(day.adding(days: -1)), midnight(day), midnight(day.adding(days: 1)),
            midnight(CivilDate(year: today.year.addingReportingOverflow(1).partialValue, month: 1, day: 1)),
        ].filter { $0 > now }.sorted()
        let turn = candidates.first { format.line(a, now: $0, zone: zone).key != shown }
        return [due, turn].compactMap { $0 }.min()
    }
}
