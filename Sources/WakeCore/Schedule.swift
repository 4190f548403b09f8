/// Which kernel clock a deadline is measured on.
public enum DeadlineClock: String, Sendable, Hashable {
    /// Wall-clock deadlines follow clock steps and time-zone changes (`CLOCK_REALTIME`).
    case wall = "realtime"
    /// Spans from now count suspend and ignore clock steps (`CLOCK_BOOTTIME`).
    case elapsed = "boottime"
}

/// A resolved alarm time: one absolute instant, plus how to wait for it.
public struct Deadline: Hashable, Sendable {
    /// The instant on the UTC time line (what the wall clock will read when it rings).
    public var instant: Instant
    public var clock: DeadlineClock
    /// For `.elapsed` deadlines: the span from the moment of resolution.
    public var span: Duration?

    public init(instant: Instant, clock: DeadlineClock, span: Duration? = nil) {
        self.instant = instant; self.clock = clock; self.span = span
    }
}

public enum ScheduleError: Error, Equatable, CustomStringConvertible {
    case inThePast(String, LocalDateTime)
    public var description: String {
        switch self {
        case .inThePast(let token, _):
            return "time '\(token.printable)' is in the past; give a future date and time, or a time of day for its next occurrence"
        }
    }
}

public enum Schedule {
    /// Resolves what was typed against "now" in a zone. Pure: the caller supplies both.
    public static func resolve(_ spec: WakeSpec, token: String = "", now: Instant, zone: TimeZoneRules) throws(ScheduleError) -> Deadline {
        switch spec {
        case .now:
            return Deadline(instant: now, clock: .elapsed, span: .zero)
        case .relative(let seconds):
            let span = Duration.seconds(seconds)
            return Deadline(instant: now + span, clock: .elapsed, span: span)
        case .dateTime(let local):
            let t = zone.instant(for: local)
            guard t > now else { throw .inThePast(token, local) }
            return Deadline(instant: t, clock: .wall)
        case .timeOfDay(let h, let m, let s):
            var date = zone.localTime(at: now).date
            // Two rounds are enough: today's occurrence, else tomorrow's; a third covers a day
            // whose only matching reading is swallowed by a transition at the end of "tomorrow".
            for _ in 0..<3 {
                let t = zone.instant(for: LocalDateTime(date: date, hour: h, minute: m, second: s))
                if t > now { return Deadline(instant: t, clock: .wall) }
                date = date.nextDay
            }
            // Unreachable for real zones; ringing a day late is never right, so fail loudly.
            preconditionFailure("no future occurrence of \(h):\(m):\(s) within three days")
        }
    }
}
