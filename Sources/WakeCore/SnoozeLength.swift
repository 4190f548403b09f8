/// How long a snooze lasts: the alarm's own (`--snooze`), its long one (`--snooze-long`, the
/// notification's second button), or a length chosen when snoozing (`wake snooze 20m`,
/// `wake snooze --until 07:40`).
public enum SnoozeLength: Hashable, Sendable {
    case standard
    case long
    /// Elapsed time, on the boot clock as the alarm's own snooze: a suspend counts, a clock
    /// step does not.
    case span(Duration)
    /// A wall-clock instant, waited for as `wake 07:40` waits: it follows clock steps, so a
    /// time resolved across a daylight-saving change rings at the reading asked for.
    case until(Instant)

    /// The longest snooze that may be chosen. Further than this, a length is more likely a slip
    /// (`--until 07:40` typed at 07:41 means tomorrow; `20h` for `20m`) than a wish, and an alarm
    /// snoozed by mistake is an alarm that does not wake anyone.
    public static let longest: Duration = .seconds(12 * 3600)

    /// When a snooze taken at `now` ends, on the clock that measures it.
    public func wait(from now: ClockReading, settings: AlarmEngine.Settings) -> Wait {
        switch self {
        case .standard: return Wait(instant: now.boottime + settings.snooze, clock: .elapsed)
        case .long: return Wait(instant: now.boottime + settings.snoozeLong, clock: .elapsed)
        case .span(let d): return Wait(instant: now.boottime + d, clock: .elapsed)
        case .until(let t): return Wait(instant: t, clock: .wall)
        }
    }
}
