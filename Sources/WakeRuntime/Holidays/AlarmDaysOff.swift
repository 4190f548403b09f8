import WakeCore

/// Every standing alarm's holiday calendars (`skip-days`), read at once on one clock: the one
/// reader the daemon, `wake list` and `next`, `skip`, `pause` and `resume`, and `wake doctor`
/// use, so each calendar file is read once a run and its problems are found the same way
/// everywhere. Each caller words the problems for its own reader (the daemon adds what it does
/// meanwhile; `wake list` warns).
public struct AlarmDaysOff {
    /// A calendar an alarm cannot use as it is.
    public struct Problem: Equatable {
        public enum Kind: Equatable, Sendable {
            /// The file cannot be read, is not UTF-8, or does not parse: the alarm rings on its days.
            case unreadable
            /// No day beyond the next `DayOffCalendars.reachDays`: it skips nothing more soon.
            case runningOut
            /// `--before-first-event`'s calendar cannot be used: the alarm is not armed.
            case events
        }
        public var alarm: String
        public var kind: Kind
        /// The calendar's own line, naming the file (and the line at fault).
        public var text: String
        /// `alarm 'work' --skip-days: calendar '...' ...`.
        public var line: String { "alarm '\(alarm)' \(text)" }
    }

    /// Per alarm that has calendars, by name.
    public private(set) var calendars: [String: DayOffCalendars] = [:]
    /// The names of the alarms that have calendars, in the order given.
    public private(set) var names: [String] = []
    /// In the alarms' order, each alarm's unreadable calendars before its running-out ones.
    public private(set) var problems: [Problem] = []
    /// The clock and zone the calendars were read and judged on.
    public let now: Instant
    public let zone: TimeZoneRules

    /// Reads the calendars of `alarms` (their own `skip-days`, else config.toml's; a one-off has
    /// none), each file once however many alarms name it.
    public init(_ alarms: [StandingAlarm], config: ConfigDefaults, now: Instant, zone: TimeZoneRules) {
        self.now = now
        self.zone = zone
        let cache = DayOffCalendars.Cache()
        let today = zone.localTime(at: now).date
        for a in alarms where calendars[a.name] == nil {
            let paths = DayOffCalendars.paths(for: a, config: config)
            let events = DayOffCalendars.firstEvent(of: a, zone: zone)
            guard paths != nil || events != nil else { continue }
            var read = DayOffCalendars.read(paths, zone: zone, cache: cache)
            switch events {
            case .success(let schedule): read.firstEvent = schedule
            case .failure(let f):
                read.unreadableEvents = a.options[AlarmOption.beforeFirstEvent.name]
                problems.append(Problem(alarm: a.name, kind: .events, text: f.message))
            case nil: break
            }
            calendars[a.name] = read
            names.append(a.name)
            problems += read.problems.map { Problem(alarm: a.name, kind: .unreadable, text: $0) }
            problems += read.runningOut(today: today).map { Problem(alarm: a.name, kind: .runningOut, text: $0) }
        }
    }

    /// The alarm's calendars; none for one without (a one-off, or no `skip-days`).
    public subscript(_ name: String) -> DayOffCalendars { calendars[name] ?? DayOffCalendars() }

    /// The calendar files read without a problem, each once.
    public var files: Set<String> { Set(calendars.values.flatMap { $0.calendars.map(\.path) }) }

    /// Why the alarm's plan rings on no day (`DayOffCalendars.noDay`), on this reading's clock;
    /// nil when it has a day to ring.
    public func noDay(_ name: String, _ plan: StandingSchedule.Plan) -> String? {
        calendars[name]?.noDay(plan, now: now, zone: zone)
    }

    /// What a problem changes, said after it where the alarm keeps being planned.
    public static let meanwhile = "; meanwhile it rings on that calendar's days"

    /// `meanwhile`, or for `--before-first-event`'s calendar, what its problem changes.
    public static func meanwhile(_ p: Problem) -> String { p.kind == .events ? DayOffCalendars.eventsMeanwhile : meanwhile }
}
