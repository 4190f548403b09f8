/// What an alarm does when a ring runs its `--ring-for` with nobody answering (`--unattended`,
/// `--unattended-rounds`, `--escalate`): end (`stop`, the old behaviour, exit 4), snooze and ring
/// again up to `rounds` rings in all (`snooze`), or ring on until its late limit (`ring`). A
/// sleeper who does not answer is the one an alarm must not give up on; a script that waits for
/// exit 4 keeps `stop`, a one-off's default.
public struct Unattended: Hashable, Sendable {
    public enum Mode: String, Hashable, Sendable, CaseIterable {
        case stop, snooze, ring
    }

    public var mode: Mode
    /// `snooze`: how many rings an unanswered occurrence gets in all, the first included.
    public var rounds: Int
    /// `--escalate on`: each round louder than the last, the last at 100 % with wake's built-in
    /// sound in place of the alarm's own.
    public var escalate: Bool

    /// A one-off's: scripts keep their exit 4 after `--ring-for`.
    public static let oneOffMode: Mode = .stop
    /// A standing alarm's (the daemon's): nobody waits on its exit code, and a sleeper may not answer.
    public static let standingMode: Mode = .snooze
    public static let defaultRounds = 3
    public static let roundLimit = 1...10

    public init(mode: Mode = Unattended.oneOffMode, rounds: Int = Unattended.defaultRounds, escalate: Bool = false) {
        self.mode = mode
        self.rounds = max(1, rounds)
        self.escalate = escalate
    }

    /// How many rounds an occurrence has: `rounds` when it snoozes, two (the ring, then the ring
    /// on) when it rings on, one when it stops.
    public var roundCount: Int {
        switch mode {
        case .stop: return 1
        case .snooze: return rounds
        case .ring: return 2
        }
    }

    /// The volume of round `round` (1 is the first ring) of an alarm at `volume`: under
    /// `--escalate`, evenly from `volume` up to 100 % at the last round; otherwise `volume`.
    public func volume(round: Int, of volume: Int) -> Int {
        let count = roundCount
        guard escalate, count > 1, round > 1 else { return volume }
        let step = min(round, count) - 1
        return volume + (100 - volume) * step / (count - 1)
    }

    /// Whether round `round` is the last one, which under `--escalate` rings wake's built-in
    /// sound (a round beyond the count, after a person's snooze in the ring on, is the last too).
    public func isLast(round: Int) -> Bool { roundCount > 1 && round >= roundCount }

    /// Whether round `round` plays wake's built-in sound in place of the alarm's own.
    public func switchesToBuiltIn(round: Int) -> Bool { escalate && isLast(round: round) }

    /// The dry run's words: `snooze, 3 rounds (unanswered for 10m: a 9m snooze, then it rings
    /// again; after the 3rd ring it stops, exit 4)`.
    public func describe(ringFor: Duration, snooze: Duration, lateLimit: Duration) -> String {
        guard ringFor > .zero else { return localized("{mode} (--ring-for 0: it rings until stopped, so never unanswered)", mode.rawValue) }
        let span = DurationText.format(ringFor)
        switch mode {
        case .stop:
            return localized("stop (unanswered for {span}, it stops: exit 4)", span)
        case .snooze:
            guard rounds > 1 else { return localized("snooze, 1 round (unanswered for {span}, it stops: exit 4)", span) }
            return localized("""
                snooze, {rounds} rounds (unanswered for {span}: a {snooze} snooze, then it rings again; unanswered {rounds} times, \
                it stops: exit 4)
                """, String(rounds), span, DurationText.format(snooze))
        case .ring:
            guard lateLimit > .zero else {
                return localized("ring (unanswered for {span}, it rings on until stopped (no late limit))", span)
            }
            return localized("ring (unanswered for {span}, it rings on until {limit} past its time, then it stops: exit 4)", span,
                             DurationText.format(lateLimit))
        }
    }

    /// The dry run's escalation words: `on (round 2 at 90 %, round 3 at 100 % with wake's built-in sound)`.
    public func describeEscalation(volume: Int, builtInAlready: Bool) -> String {
        guard escalate else { return "off" }
        guard roundCount > 1 else { return localized("on (one round: nothing to rise)") }
        let rounds = (2...roundCount).map { round in
            let percent = String(self.volume(round: round, of: volume))
            let builtIn = switchesToBuiltIn(round: round) && !builtInAlready
            switch (mode == .ring, builtIn) {
            case (true, true): return localized("ringing on at {percent} % with wake's built-in sound", percent)
            case (true, false): return localized("ringing on at {percent} %", percent)
            case (false, true): return localized("round {round} at {percent} % with wake's built-in sound", String(round), percent)
            case (false, false): return localized("round {round} at {percent} %", String(round), percent)
            }
        }
        return "on (" + rounds.joined(separator: ", ") + ")"
    }
}

/// One unanswered ring's news: it rang `rang`, and rings again (`snooze`) at `next`, round
/// `round` of `of`; or rings on (`ring`) until `next` (nil: until stopped).
public struct UnansweredRing: Hashable, Sendable {
    public var rang: Duration
    public var mode: Unattended.Mode
    /// The next round, the one that starts (or rings on) now.
    public var round: Int
    public var of: Int
    public init(rang: Duration, mode: Unattended.Mode, round: Int, of: Int) {
        self.rang = rang; self.mode = mode; self.round = round; self.of = of
    }

    /// `rang 10 min unanswered; again at 07:19, round 2 of 3`; `until` is the next moment in words.
    public func text(until: String?) -> String {
        let rang = Self.words(self.rang)
        switch mode {
        case .snooze, .stop:
            return localized("rang {span} unanswered; again at {time}, round {round} of {rounds}", rang, until ?? "?", String(round),
                             String(of))
        case .ring:
            return until.map { localized("rang {span} unanswered; ringing on until {time}", rang, $0) }
                ?? localized("rang {span} unanswered; ringing on until stopped", rang)
        }
    }

    /// `10 min`, `2 h`, `90 s`, to the nearest second (the timer that ends a ring fires a few ms
    /// late: "1003ms" is noise to a sleeper); under a second as the duration grammar writes it.
    static func words(_ d: Duration) -> String {
        var ms = d.milliseconds
        if ms >= 1000 { ms = (ms + 500) / 1000 * 1000 }
        if ms > 0, ms % 3_600_000 == 0 { return "\(ms / 3_600_000) h" }
        if ms > 0, ms % 60_000 == 0 { return "\(ms / 60_000) min" }
        if ms > 0, ms % 1000 == 0 { return "\(ms / 1000) s" }
        return DurationText.format(d)
    }
}
