/// Both kernel clocks read at one moment. Wall-clock deadlines are compared with `realtime`,
/// spans (`+25m`, snooze, ring limit) with `boottime`, which counts suspend and ignores steps.
public struct ClockReading: Hashable, Sendable {
    public var realtime: Instant
    public var boottime: Instant
    public init(realtime: Instant, boottime: Instant) { self.realtime = realtime; self.boottime = boottime }

    public func reading(_ clock: DeadlineClock) -> Instant { clock == .wall ? realtime : boottime }
}

/// A moment to wait for, on the clock that measures it.
public struct Wait: Hashable, Sendable {
    public var instant: Instant
    public var clock: DeadlineClock
    public init(instant: Instant, clock: DeadlineClock) { self.instant = instant; self.clock = clock }

    /// What the wall clock will read then, as seen from `now`.
    public func wallInstant(from now: ClockReading) -> Instant {
        clock == .wall ? instant : now.realtime + (instant - now.boottime)
    }
    public func remaining(from now: ClockReading) -> Duration { instant - now.reading(clock) }
}

extension Deadline {
    /// The moment to wait for on the deadline's own clock: the wall-clock instant itself, or for
    /// a span, that far past the boottime reading taken when it was resolved.
    public func wait(from resolvedAt: ClockReading) -> Wait {
        clock == .wall ? Wait(instant: instant, clock: .wall)
                       : Wait(instant: resolvedAt.boottime + (span ?? .zero), clock: .elapsed)
    }
}

/// How an alarm ended. The command line turns it into an exit code; the daemon records it.
public enum Outcome: Hashable, Sendable {
    case stopped(by: Requester)
    case missed(late: Duration)
    case timedOut
    case cancelled(by: Requester)
    case failed(String)
}

/// The alarm's state machine. Pure: events in, actions out; the runner does every effect.
///
/// armed -> ringing <-> snoozed -> stopped | timed-out;  armed -> missed | cancelled;  any -> failed.
/// Commands: `cancel` ends it in any state, `stop` ends it once it has rung, `snooze` only while ringing.
public struct AlarmEngine: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Zero means no limit.
        public var lateLimit: Duration
        public var snooze: Duration
        /// Zero means ring until stopped.
        public var ringFor: Duration
        public init(lateLimit: Duration = Defaults.lateLimit, snooze: Duration = Defaults.snooze, ringFor: Duration = Defaults.ringFor) {
            self.lateLimit = lateLimit; self.snooze = snooze; self.ringFor = ringFor
        }
    }

    public enum State: Hashable, Sendable {
        case armed(Wait)
        case ringing(since: Instant)  // boottime
        case snoozed(Wait)
        case finished(Outcome)
    }

    public enum Event: Hashable, Sendable {
        /// The deadline timer fired, or may have: the engine checks the clock itself.
        case timerFired(ClockReading)
        /// The wall clock was stepped or the machine resumed (`ECANCELED` on the timer).
        case clockChanged(ClockReading)
        /// Someone asked for something (see `AlarmCommand` for what each means in each state).
        case command(AlarmCommand, by: Requester, ClockReading)
        /// The `--ring-for` limit passed.
        case ringLimitReached(ClockReading)
        /// Sound could not be made by any means.
        case soundFailed(String)
    }

    public enum Action: Hashable, Sendable {
        /// Wait for this moment (replaces any earlier wait).
        case armTimer(Wait)
        case disarmTimer
        /// Start the sound; `late` is how far past its deadline the alarm is.
        case startRinging(late: Duration)
        case stopRinging
        case armRingLimit(Wait)
        case disarmRingLimit
        case reportClockChange(ClockReading)
        case reportSnoozed(until: Wait)
        /// A command that means nothing in this state (a stop while waiting, a snooze while snoozed).
        case reportIgnored(AlarmCommand, by: Requester)
        case finish(Outcome)
    }

    public let settings: Settings
    public private(set) var state: State
    /// The wait that led to the current ringing: what `missed` and `late` are measured against.
    public private(set) var deadline: Wait

    public init(deadline: Wait, settings: Settings) {
        self.settings = settings
        self.deadline = deadline
        self.state = .armed(deadline)
    }

    public var isFinished: Bool { if case .finished = state { return true } else { return false } }

    public mutating func handle(_ event: Event) -> [Action] {
        switch (state, event) {
        case (.finished, _):
            return []

        case (_, .soundFailed(let reason)):
            return finish(.failed(reason), ringing: isRinging)

        case (.armed(let wait), .timerFired(let now)), (.snoozed(let wait), .timerFired(let now)):
            return checkDeadline(wait, now: now, firstRing: isArmed)
        case (.armed(let wait), .clockChanged(let now)), (.snoozed(let wait), .clockChanged(let now)):
            return [.reportClockChange(now)] + checkDeadline(wait, now: now, firstRing: isArmed)
        case (.ringing, .clockChanged(let now)):
            return [.reportClockChange(now)]
        case (.ringing, .timerFired):
            return []

        case (.armed, .command(let command, let who, _)):
            return command == .cancel ? finish(.cancelled(by: who), ringing: false) : [.reportIgnored(command, by: who)]
        case (.ringing, .command(let command, let who, let now)):
            return command == .snooze ? snooze(now) : finish(.stopped(by: who), ringing: true)
        case (.ringing, .ringLimitReached):
            return finish(.timedOut, ringing: true)
        case (.snoozed, .command(let command, let who, _)):
            return command == .snooze ? [.reportIgnored(command, by: who)] : finish(.stopped(by: who), ringing: false)

        case (.armed, .ringLimitReached), (.snoozed, .ringLimitReached):
            return []
        }
    }

    private var isArmed: Bool { if case .armed = state { return true } else { return false } }
    private var isRinging: Bool { if case .ringing = state { return true } else { return false } }

    private mutating func checkDeadline(_ wait: Wait, now: ClockReading, firstRing: Bool) -> [Action] {
        let late = now.reading(wait.clock) - wait.instant
        guard late >= .zero else { return [.armTimer(wait)] }  // early wake-up or clock stepped back: wait on
        // A late limit of zero means none: ring however late, as a ring-for of zero rings until stopped.
        if firstRing && settings.lateLimit > .zero && late > settings.lateLimit {
            return finish(.missed(late: late), ringing: false)
        }
        deadline = wait
        state = .ringing(since: now.boottime)
        var actions: [Action] = [.disarmTimer, .startRinging(late: late)]
        if settings.ringFor > .zero {
            actions.append(.armRingLimit(Wait(instant: now.boottime + settings.ringFor, clock: .elapsed)))
        }
        return actions
    }

    private mutating func snooze(_ now: ClockReading) -> [Action] {
        let until = Wait(instant: now.boottime + settings.snooze, clock: .elapsed)
        state = .snoozed(until)
        return [.stopRinging, .disarmRingLimit, .reportSnoozed(until: until), .armTimer(until)]
    }

    private mutating func finish(_ outcome: Outcome, ringing: Bool) -> [Action] {
        state = .finished(outcome)
        var actions: [Action] = [.disarmTimer, .disarmRingLimit]
        if ringing { actions.insert(.stopRinging, at: 0) }
        actions.append(.finish(outcome))
        return actions
    }
}
