/// What a change of the machine's time zone means for an alarm that waits. Pure: the old and
/// new zones, the deadline it is armed for and "now" in, one decision out.
///
/// - An alarm set as a local reading (`wake 07:00`, `wake 2026-11-24T07:00`) keeps that reading:
///   the same local date and time, resolved again in the new zone with its own DST rules (a
///   reading in a spring-forward gap rings at the gap's end, as `Schedule` resolves it).
/// - A span (`wake +8h`), `now` and a date and time with its own UTC offset keep their instant.
/// - A reading that has already passed in the new zone (travelling east past the alarm time)
///   follows the late limit, as a resume does: it rings now when within the limit (0: no
///   limit), else it is missed. It is never silently dropped.
///
/// Standing alarms take the same rules through `StandingSchedule.plan` in the new zone.
public enum ZoneChange {
    public enum Decision: Equatable, Sendable {
        /// The alarm keeps its instant.
        case keep
        /// The same reading in the new zone, still ahead: armed for it.
        case move(Deadline)
        /// The same reading in the new zone passed `late` ago, within the late limit: rung now.
        case ringNow(Deadline, late: Duration)
        /// The same reading in the new zone passed `late` ago, beyond the late limit.
        case missed(Deadline, late: Duration)

        /// The deadline to arm, when it changed (a missed one is armed too: the engine records it).
        public var deadline: Deadline? {
            switch self {
            case .keep: return nil
            case .move(let d), .ringNow(let d, _), .missed(let d, _): return d
            }
        }
    }

    /// Whether what was typed is a local reading that follows the zone.
    public static func follows(_ spec: WakeSpec) -> Bool {
        switch spec {
        case .timeOfDay, .dateTime, .dayTime: return true
        case .now, .relative, .zonedDateTime: return false
        }
    }

    /// The local reading a wall-clock deadline was resolved from in `zone`: the one asked for,
    /// also when a spring-forward gap moved the deadline off it.
    public static func reading(of deadline: Deadline, in zone: TimeZoneRules) -> LocalDateTime {
        deadline.shiftedFrom ?? zone.localTime(at: deadline.instant)
    }

    /// The decision for an alarm typed as `spec`, armed for `armed` (resolved in `old`), when the
    /// zone becomes `new` at `now`. `lateLimit` is the alarm's own (0: no limit).
    public static func follow(_ spec: WakeSpec, armed: Deadline, from old: TimeZoneRules, to new: TimeZoneRules,
                              now: Instant, lateLimit: Duration) -> Decision {
        guard follows(spec), armed.clock == .wall else { return .keep }
        let asked = reading(of: armed, in: old)
        let t = new.instant(for: asked)
        let deadline = Deadline(instant: t, clock: .wall, shiftedFrom: Schedule.shift(asked, t, new))
        if t > now { return .move(deadline) }
        let late = now - t
        if lateLimit == .zero || late <= lateLimit { return .ringNow(deadline, late: late) }
        return .missed(deadline, late: late)
    }
}
