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
    /// "Up already" during or after the pre-alarm (`--pre-alarm`): the main alarm is skipped.
    case upAlready(by: Requester)
    case failed(String)
}

/// The snoozes one occurrence of an alarm has used, and how many it may (`--snooze-limit`).
public struct SnoozeCount: Hashable, Sendable {
    public var used: Int
    /// Nil: no limit.
    public var limit: Int?
    public init(used: Int = 0, limit: Int? = nil) { self.used = used; self.limit = limit }

    /// Every snooze allowed is used: a snooze now is refused, and the alarm rings on.
    public var isUsedUp: Bool { limit.map { used >= $0 } ?? false }

    /// `2 of 3`; nil without a limit, where the count is nobody's business.
    public var ofLimit: String? { limit.map { localized("{used} of {limit}", String(used), String($0)) } }

    /// `snoozed 2 of 3`, or `snoozed` without a limit: the console's and the status line's words.
    public var snoozed: String { ofLimit.map { localized("snoozed {count}", $0) } ?? localized("snoozed") }

    /// What a refused snooze says: `snooze limit reached (3 of 3)`.
    public var refusal: String { localized("snooze limit reached ({count})", ofLimit ?? String(used)) }
}

/// The alarm's state machine. Pure: events in, actions out; the runner does every effect.
///
/// armed -> ringing <-> snoozed -> stopped | timed-out;  armed -> missed | cancelled;  any -> failed.
/// With a pre-alarm: armed -> pre-ringing -> ringing at the deadline; a stop or snooze of the
/// pre-ring goes back to armed (the alarm stays set); `upAlready` ends it (up already).
/// Commands: `cancel` ends it in any state, `stop` ends it once it has rung, `snooze` only while
/// ringing and while the occurrence has snoozes left (`snoozeLimit`): one past the limit is
/// refused and the alarm rings on, so a limit never silences it; `--ring-for` still ends it.
/// A ring that runs its `--ring-for` unanswered does what `--unattended` says (`Unattended`):
/// ends (timed out), snoozes and rings again as the next round (`round`), or rings on until
/// the late limit.
public struct AlarmEngine: Sendable {
    public struct Settings: Hashable, Sendable {
        /// Zero means no limit.
        public var lateLimit: Duration
        public var snooze: Duration
        /// The notification's second snooze button (`--snooze-long`); unless given, twice `snooze`
        /// within `SnoozeLength.longest` (a 12h snooze's long button is 12h, not a day).
        public var snoozeLong: Duration
        /// Zero means ring until stopped.
        public var ringFor: Duration
        /// How many snoozes one occurrence may take; nil means no limit.
        public var snoozeLimit: Int?
        /// `--challenge math`: only the answer to a sum (`Requester.answer`) or a stop from a
        /// shell, a signal or the D-Bus API ends the ring (`challenged(_:by:)`).
        public var challenge: Bool
        /// `--pre-alarm`: ring quietly this long before the deadline; nil for none.
        public var preAlarm: PreAlarm?
        /// `--unattended`, `--unattended-rounds`, `--escalate`: what a ring nobody answers leads to.
        public var unattended: Unattended
        /// `--check-up`: this long after a person stops the alarm, ask once more (a short quiet
        /// ring); unanswered within `Defaults.checkUpWindow`, the alarm rings again. Zero: never.
        public var checkUp: Duration
        public init(lateLimit: Duration = Defaults.lateLimit, snooze: Duration = Defaults.snooze, ringFor: Duration = Defaults.ringFor,
                    snoozeLimit: Int? = nil, snoozeLong: Duration? = nil, challenge: Bool = false, preAlarm: PreAlarm? = nil,
                    unattended: Unattended = Unattended(), checkUp: Duration = .zero) {
            self.checkUp = checkUp
            self.lateLimit = lateLimit; self.snooze = snooze; self.ringFor = ringFor; self.snoozeLimit = snoozeLimit
            self.snoozeLong = snoozeLong ?? min(snooze * 2, SnoozeLength.longest)
            self.challenge = challenge
            self.preAlarm = preAlarm
            self.unattended = unattended
        }
    }

    public enum State: Hashable, Sendable {
        case armed(Wait)
        case ringing(since: Instant)  // boottime
        /// The pre-alarm rings quietly (boottime since); `main` is the alarm's own deadline.
        case preRinging(since: Instant, main: Wait)
        case snoozed(Wait)
        case finished(Outcome)
    }

    public enum Event: Hashable, Sendable {
        /// The deadline timer fired, or may have: the engine checks the clock itself.
        case timerFired(ClockReading)
        /// The wall clock was stepped or the machine resumed (`ECANCELED` on the timer).
        case clockChanged(ClockReading)
        /// Someone asked for something (see `AlarmCommand` for what each means in each state).
        /// A `.snooze` command is a snooze of the alarm's own length.
        case command(AlarmCommand, by: Requester, ClockReading)
        /// A snooze of a length other than the alarm's own (the long button, `wake snooze 20m`):
        /// taken, ignored and refused exactly as a `.snooze` command is.
        case snooze(SnoozeLength, by: Requester, ClockReading)
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
        /// Start the pre-alarm's quiet ring; `main` is when the alarm itself rings.
        case startPreRinging(main: Wait)
        case stopPreRinging
        /// The pre-ring was stopped and the alarm stays set for `main`.
        case reportPreStopped(by: Requester, main: Wait)
        case armRingLimit(Wait)
        case disarmRingLimit
        case reportClockChange(ClockReading)
        case reportSnoozed(until: Wait, by: Requester)
        /// A command that means nothing in this state (a stop while waiting, a snooze while snoozed).
        case reportIgnored(AlarmCommand, by: Requester)
        /// A snooze past the limit: refused, and the alarm rings on.
        case reportSnoozeRefused(SnoozeCount, by: Requester)
        /// The ring ran its `--ring-for` unanswered (`--unattended`): it rings again at `next`
        /// (a snooze), or rings on until `next` (the late limit; nil: until stopped).
        case reportUnanswered(UnansweredRing, next: Wait?)
        /// `--escalate`: the ring goes on in a new round, louder (the runner restarts the sound at
        /// the round's level; nothing when another alarm's sound plays).
        case escalateRinging
        /// `--check-up`: the alarm was stopped by `by`, and asks at `at` whether they are up.
        case reportCheckUpSet(at: Wait, by: Requester)
        /// `--check-up`: the quiet "are you up?" ring, answered by anything until `until`.
        case startCheckRinging(until: Wait)
        /// `--check-up`: nobody answered the check; the alarm rings again (a `startRinging` follows).
        case reportCheckUpUnanswered
        case finish(Outcome)
    }

    public let settings: Settings
    public private(set) var state: State
    /// The wait that led to the current ringing: what `missed` and `late` are measured against.
    public private(set) var deadline: Wait
    /// The snoozes this occurrence has taken. An engine rings one occurrence: the next one (a
    /// standing alarm's next day) is a new engine, with none used.
    public private(set) var snoozesUsed = 0
    /// The pre-alarm has started (once per occurrence: a stopped pre-ring does not start again).
    public private(set) var preRang = false
    /// The pre-ring was stopped and the alarm stays set: an "up already" now skips it.
    public private(set) var preStopped = false
    /// The round of the ring (1: the alarm's own): each ring that runs its `--ring-for`
    /// unanswered starts the next (`--unattended`); a person's snooze does not.
    public private(set) var round = 1
    /// What the last unanswered ring led to, for the words the console and notification say.
    public private(set) var unanswered: UnansweredRing?
    /// `--unattended ring`: this ring runs on past its `--ring-for`.
    private var ringingOn = false

    /// `--check-up`'s part: waiting to ask (the state is `snoozed`), or asking (`ringing`, quietly).
    public enum CheckUp: Hashable, Sendable { case waiting, asking }
    public private(set) var checkUp: CheckUp?
    /// The check-up has been set once this occurrence: a stop after it ends the alarm.
    private var checkedUp = false

    /// The snoozes used, and the limit.
    public var snoozes: SnoozeCount { SnoozeCount(used: snoozesUsed, limit: settings.snoozeLimit) }

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

        // `--check-up`: whatever anyone asks, waiting or asking, is the answer "I'm up"; under
        // `--challenge` only what ends a challenged ring (the sum's answer, a shell, a signal,
        // the D-Bus API): a key or a swipe is no proof of being up.
        case (.snoozed, .command(let command, let who, _)) where checkUp == .waiting,
             (.ringing, .command(let command, let who, _)) where checkUp == .asking:
            if settings.challenge && Self.challenged(command, by: who) != .ends { return [.reportIgnored(command, by: who)] }
            return finish(.stopped(by: who), ringing: checkUp == .asking)
        case (.snoozed, .snooze(_, let who, _)) where checkUp == .waiting, (.ringing, .snooze(_, let who, _)) where checkUp == .asking:
            if settings.challenge { return [.reportIgnored(.snooze, by: who)] }
            return finish(.stopped(by: who), ringing: checkUp == .asking)
        case (.snoozed(let wait), .timerFired(let now)) where checkUp == .waiting:
            return askIfUp(wait, now: now)
        case (.snoozed(let wait), .clockChanged(let now)) where checkUp == .waiting:
            return [.reportClockChange(now)] + askIfUp(wait, now: now)
        case (.ringing, .ringLimitReached(let now)) where checkUp == .asking:
            // No answer: the alarm rings again, as the alarm, and ends as any ring does.
            checkUp = nil
            state = .ringing(since: now.boottime)
            var actions: [Action] = [.stopRinging, .reportCheckUpUnanswered, .startRinging(late: .zero)]
            if settings.ringFor > .zero { actions.append(.armRingLimit(Wait(instant: now.boottime + settings.ringFor, clock: .elapsed))) }
            return actions

        case (.preRinging(_, let main), .timerFired(let now)):
            return preRingDeadline(main, now: now)
        case (.preRinging(_, let main), .clockChanged(let now)):
            return [.reportClockChange(now)] + preRingDeadline(main, now: now)
        case (.preRinging, .command(.cancel, let who, _)):
            return finish(.cancelled(by: who), ringing: false)
        case (.preRinging, .command(.upAlready, let who, _)):
            return finish(.upAlready(by: who), ringing: false)
        // A stop or a snooze of the quiet ring, from anyone: the alarm stays set.
        case (.preRinging(_, let main), .command(_, let who, _)), (.preRinging(_, let main), .snooze(_, let who, _)):
            state = .armed(main)
            preStopped = true
            return [.stopPreRinging, .reportPreStopped(by: who, main: main), .armTimer(main)]
        case (.preRinging, .ringLimitReached):
            return []

        case (_, .command(.snooze, let who, let now)):
            return snooze(.standard, by: who, now)
        case (_, .snooze(let length, let who, let now)):
            return snooze(length, by: who, now)

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
            if command == .cancel { return finish(.cancelled(by: who), ringing: false) }
            if command == .upAlready && preStopped { return finish(.upAlready(by: who), ringing: false) }
            return [.reportIgnored(command, by: who)]
        case (.ringing, .command(let command, let who, let now)) where settings.challenge,
             (.snoozed, .command(let command, let who, let now)) where settings.challenge:
            switch Self.challenged(command, by: who) {
            case .ends: break  // as without a challenge, below
            case .snoozes: return snooze(.standard, by: who, now)
            case .ignored: return [.reportIgnored(command, by: who)]
            }
            return stopped(command, by: who, now: now, ringing: isRinging)
        case (.ringing, .command(let command, let who, let now)):
            return stopped(command, by: who, now: now, ringing: true)
        case (.ringing(let since), .ringLimitReached(let now)):
            return unattended(since: since, now: now)
        case (.snoozed, .command(let command, let who, let now)):
            return stopped(command, by: who, now: now, ringing: false)

        case (.armed, .ringLimitReached), (.snoozed, .ringLimitReached):
            return []
        }
    }

    /// What a stop or cancel means under `--challenge`, by who asks, once the alarm has rung
    /// (ringing or snoozed). A key never ends it (the answer does, as `.answer`); a notification
    /// button or a media key is a swipe, not an answer, so it snoozes (a snooze while snoozed, or
    /// past the limit, is ignored or refused as any); a shell (`wake stop`), a signal and the
    /// D-Bus API still end it, so scripts and other shells always can.
    public enum ChallengeRule: Hashable, Sendable { case ends, snoozes, ignored }

    public static func challenged(_ command: AlarmCommand, by who: Requester) -> ChallengeRule {
        switch who {
        case .answer, .control, .signal, .busAPI, .unattended: return .ends
        case .notification, .mediaControl: return .snoozes
        case .key: return .ignored
        }
    }

    /// What Ctrl-Z (SIGTSTP) does to an alarm, by its state. While it waits (armed, snoozed) wake
    /// stops as job control expects, the terminal given back first. While it rings or pre-rings a
    /// stopped process would be silent until `fg` (and `--ring-for` would count on), so it is not
    /// stopped: under `--challenge` Ctrl-Z is refused as a key's stop is, and it rings on; without
    /// one it snoozes as the snooze key does (a pre-ring: the quiet ring stops, the alarm stays set).
    /// A challenged alarm's snooze is refused too: a snooze, then Ctrl-Z, would be a stop by key.
    public enum SuspendRule: Hashable, Sendable { case stopsProcess, refused, snoozes }

    public static func suspended(in state: State, challenge: Bool) -> SuspendRule {
        switch state {
        case .ringing: return challenge ? .refused : .snoozes
        case .preRinging: return .snoozes
        case .snoozed: return challenge ? .refused : .stopsProcess
        case .armed, .finished: return .stopsProcess
        }
    }

    private var isArmed: Bool { if case .armed = state { return true } else { return false } }
    private var isRinging: Bool { if case .ringing = state { return true } else { return false } }
    private var isPreRinging: Bool { if case .preRinging = state { return true } else { return false } }

    /// In the pre-ring, the timer is the alarm's own: it rings (the pre-ring gives way), or it
    /// is missed past the late limit (which measures the alarm, never the pre-ring).
    private mutating func preRingDeadline(_ main: Wait, now: ClockReading) -> [Action] {
        guard now.reading(main.clock) >= main.instant else { return [.armTimer(main)] }
        state = .armed(main)  // the pre-ring is over whatever follows: rung, or missed
        return [.stopPreRinging] + checkDeadline(main, now: now, firstRing: true)
    }

    private mutating func checkDeadline(_ wait: Wait, now: ClockReading, firstRing: Bool) -> [Action] {
        let late = now.reading(wait.clock) - wait.instant
        if late < .zero, firstRing, !preRang, let pre = settings.preAlarm {
            // The pre-alarm's moment: `lead` before the deadline, on the deadline's clock. Set
            // with less than `lead` left, it starts at once, for what is left.
            let start = Wait(instant: wait.instant - pre.lead, clock: wait.clock)
            guard now.reading(wait.clock) >= start.instant else { return [.armTimer(start)] }
            preRang = true
            state = .preRinging(since: now.boottime, main: wait)
            return [.startPreRinging(main: wait), .armTimer(wait)]
        }
        guard late >= .zero else { return [.armTimer(wait)] }  // early wake-up or clock stepped back: wait on
        // A late limit of zero means none: ring however late, as a ring-for of zero rings until stopped.
        if firstRing && settings.lateLimit > .zero && late > settings.lateLimit {
            return finish(.missed(late: late), ringing: false)
        }
        deadline = wait
        ringingOn = false
        state = .ringing(since: now.boottime)
        var actions: [Action] = [.disarmTimer, .startRinging(late: late)]
        if settings.ringFor > .zero {
            actions.append(.armRingLimit(Wait(instant: now.boottime + settings.ringFor, clock: .elapsed)))
        }
        return actions
    }

    /// A stop once the alarm has rung: the end, or under `--check-up`, once per occurrence, a
    /// question later. Only a person's stop is checked (a key, a button, a media key, the
    /// answer); a signal, `wake stop`, the D-Bus API and "up already" end it at once, so scripts
    /// and a person who says so are believed.
    private mutating func stopped(_ command: AlarmCommand, by who: Requester, now: ClockReading, ringing: Bool) -> [Action] {
        let person: Bool
        switch who {
        case .key, .notification, .mediaControl, .answer: person = true
        case .signal, .control, .busAPI, .unattended: person = false
        }
        guard settings.checkUp > .zero, !checkedUp, person, command != .upAlready else {
            return finish(.stopped(by: who), ringing: ringing)
        }
        checkedUp = true
        checkUp = .waiting
        let at = Wait(instant: now.boottime + settings.checkUp, clock: .elapsed)
        state = .snoozed(at)
        return (ringing ? [.stopRinging] : []) + [.disarmRingLimit, .reportCheckUpSet(at: at, by: who), .armTimer(at)]
    }

    /// The check-up's moment: the quiet ring asks, and waits `Defaults.checkUpWindow` for an answer.
    private mutating func askIfUp(_ wait: Wait, now: ClockReading) -> [Action] {
        guard now.reading(wait.clock) >= wait.instant else { return [.armTimer(wait)] }
        checkUp = .asking
        state = .ringing(since: now.boottime)
        let until = Wait(instant: now.boottime + Defaults.checkUpWindow, clock: .elapsed)
        return [.disarmTimer, .startCheckRinging(until: until), .armRingLimit(until)]
    }

    /// The ring ran its `--ring-for` (or, ringing on, to its late limit) with nobody answering.
    private mutating func unattended(since: Instant, now: ClockReading) -> [Action] {
        let rule = settings.unattended
        let rang = now.boottime - since
        switch rule.mode {
        case .stop:
            return finish(.timedOut, ringing: true)
        case .snooze:
            guard round < rule.rounds else { return finish(.timedOut, ringing: true) }
            round += 1
            let news = UnansweredRing(rang: rang, mode: .snooze, round: round, of: rule.rounds)
            unanswered = news
            let until = SnoozeLength.standard.wait(from: now, settings: settings)
            state = .snoozed(until)
            return [.stopRinging, .disarmRingLimit, .reportUnanswered(news, next: until), .reportSnoozed(until: until, by: .unattended),
                    .armTimer(until)]
        case .ring:
            guard !ringingOn else { return finish(.timedOut, ringing: true) }
            // Until the late limit, counted from this ring's deadline as `missed` counts it.
            var end: Wait?
            if settings.lateLimit > .zero {
                let left = settings.lateLimit - (now.reading(deadline.clock) - deadline.instant)
                guard left > .zero else { return finish(.timedOut, ringing: true) }
                end = Wait(instant: now.boottime + left, clock: .elapsed)
            }
            ringingOn = true
            round += 1
            let news = UnansweredRing(rang: rang, mode: .ring, round: round, of: rule.roundCount)
            unanswered = news
            var actions: [Action] = [.reportUnanswered(news, next: end)]
            if rule.escalate { actions.append(.escalateRinging) }
            if let end { actions.append(.armRingLimit(end)) }
            return actions
        }
    }

    /// A snooze of any length: only a ringing alarm takes one, and only while the occurrence
    /// has snoozes left.
    private mutating func snooze(_ length: SnoozeLength, by who: Requester, _ now: ClockReading) -> [Action] {
        guard isRinging else { return [.reportIgnored(.snooze, by: who)] }
        // Used up: said, and it rings on (its ring limit still armed); never silence.
        guard !snoozes.isUsedUp else { return [.reportSnoozeRefused(snoozes, by: who)] }
        let until = length.wait(from: now, settings: settings)
        state = .snoozed(until)
        snoozesUsed += 1
        return [.stopRinging, .disarmRingLimit, .reportSnoozed(until: until, by: who), .armTimer(until)]
    }

    private mutating func finish(_ outcome: Outcome, ringing: Bool) -> [Action] {
        let preRinging = isPreRinging
        state = .finished(outcome)
        var actions: [Action] = [.disarmTimer, .disarmRingLimit]
        if ringing { actions.insert(.stopRinging, at: 0) }
        if preRinging { actions.insert(.stopPreRinging, at: 0) }
        actions.append(.finish(outcome))
        return actions
    }
}
