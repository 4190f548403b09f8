/// A timer's habits (`wake timer 4m tea`), kept in alarms.toml beside its alarm's `at`: the span
/// it was set for, the span a pause holds, and whether it starts again after each ring. The
/// arithmetic below takes "now" as a value; the alarm's `at` is when it rings while it runs.
public struct StandingTimer: Hashable, Sendable {
    /// The span it was set for, extensions added: each round of `--repeat` runs this long.
    public var span: Duration
    /// While paused: the span left (the alarm's `at` is then nil).
    public var remaining: Duration?
    /// `--repeat`: once a ring ends, the next round starts, `span` long.
    public var repeats: Bool

    public init(span: Duration, remaining: Duration? = nil, repeats: Bool = false) {
        self.span = span; self.remaining = remaining; self.repeats = repeats
    }

    /// The longest span a timer takes: a year (longer is an alarm on a date).
    public static let longest = Duration.seconds(366 * 86_400)
}

extension StandingAlarm {
    /// Whether it is a paused timer.
    public var isPausedTimer: Bool { timer?.remaining != nil }

    /// The span left at `now`: a paused timer's held span, else until `at` (zero once it has
    /// passed); nil for an alarm that rings at a time of day.
    public func remaining(at now: Instant) -> Duration? {
        if let held = timer?.remaining { return held }
        guard let at else { return nil }
        return at > now ? at - now : .zero
    }

    /// A running timer paused at `now`: the span left held, nothing armed. Nil when it is not a
    /// running timer.
    public func pausedTimer(at now: Instant) -> StandingAlarm? {
        guard var t = timer, t.remaining == nil, let left = remaining(at: now) else { return nil }
        // Held to the nearest second: alarms.toml keeps a span in whole seconds (`4m10s`), and a
        // fraction would not read back as written.
        let (whole, fraction) = left.components
        t.remaining = .seconds(max(1, whole + (fraction >= 500_000_000_000_000_000 ? 1 : 0)))
        var a = self
        a.timer = t
        a.at = nil
        return a
    }

    /// A paused timer started again at `now` with the span it held; the shown time of day is
    /// `local`'s (its new instant in the caller's zone). Nil when it is not a paused timer.
    public func resumedTimer(at now: Instant, local: (Instant) -> LocalDateTime) -> StandingAlarm? {
        guard var t = timer, let held = t.remaining else { return nil }
        t.remaining = nil
        var a = self
        a.timer = t
        a.setInstant(now + held, local: local)
        return a
    }

    /// A timer with `extra` more: later while it runs, a longer hold while it is paused; its span
    /// grows too, so a repeating timer's next rounds are as long. Nil for an alarm that is not a timer.
    public func extendedTimer(by extra: Duration, local: (Instant) -> LocalDateTime) -> StandingAlarm? {
        guard var t = timer else { return nil }
        t.span += extra
        var a = self
        if let held = t.remaining {
            t.remaining = held + extra
        } else if let at {
            a.setInstant(at + extra, local: local)
        }
        a.timer = t
        return a
    }

    /// A repeating timer's next round, started at `now` (its ring ended then): `span` from now, a
    /// new round (`created`), so the plan rings it again. Nil when it does not repeat.
    public func nextRound(at now: Instant, local: (Instant) -> LocalDateTime) -> StandingAlarm? {
        guard let t = timer, t.repeats, t.remaining == nil else { return nil }
        var a = self
        a.created = now
        a.setInstant(now + t.span, local: local)
        return a
    }

    /// Rings at `t`; the time of day shown (and written as `time`) is `t`'s local one.
    public mutating func setInstant(_ t: Instant, local: (Instant) -> LocalDateTime) {
        at = t
        let l = local(t)
        (hour, minute, second) = (l.hour, l.minute, l.second)
    }
}

extension StandingTimer {
    /// `3m20s`: a span left, in whole seconds rounded up (a timer with 0.4s left has `1s`).
    public static func remainingText(_ d: Duration) -> String {
        let ms = d.milliseconds
        return DurationText.format(.seconds(ms <= 0 ? 0 : (ms + 999) / 1000))
    }
}
