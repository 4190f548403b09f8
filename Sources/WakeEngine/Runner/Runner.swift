import WakeCore
import WakeSystem

/// What an alarm needs to be armed.
public struct AlarmSetup {
    public var id: String
    public var deadline: Deadline
    /// The clocks when the deadline was resolved (a span counts from here).
    public var resolvedAt: ClockReading
    public var settings: AlarmEngine.Settings
    public var ring: RingRequest
    /// Why it is armed again, when it is not its first arming ("zone": the machine's zone
    /// changed); said with its `armed` event.
    public var reason: String?
    /// `--message`: the note the console, the log, the notification and `wake list` show.
    public var message: String?
    /// `--pre-alarm`'s quiet ring; nil: `ring` at the pre-alarm's share of its volume.
    public var preRing: RingRequest? {
        get { preRingHeld?.value }
        set { preRingHeld = newValue.map(Held.init) }
    }
    /// Held by reference: a ring request is 177 bytes, most alarms have no pre-alarm of their
    /// own, and a daemon keeps a setup for each of thousands of alarms.
    private var preRingHeld: Held<RingRequest>?
    /// `--light`: the screen's sunrise before the ring and its flash while it rings.
    public var light: LightPlan?

    /// What the pre-alarm plays, when `settings` has one.
    public var preRingRequest: RingRequest? {
        guard let pre = settings.preAlarm else { return nil }
        return preRing ?? ring.preRing(percent: pre.percent, lead: pre.lead)
    }

    public init(id: String, deadline: Deadline, resolvedAt: ClockReading, settings: AlarmEngine.Settings, ring: RingRequest,
                reason: String? = nil, message: String? = nil) {
        self.id = id; self.deadline = deadline; self.resolvedAt = resolvedAt; self.settings = settings; self.ring = ring
        self.reason = reason
        self.message = message
    }
}

/// The armed alarms of one process, each with its own engine and timers, sharing one sound
/// output. Commands come in, the engines decide, the runner carries out their actions and
/// publishes what happened. It never reads a clock or a device itself: the clock, the timers
/// and the output are handed in, so tests run a night in milliseconds.
public final class Runner {
    private final class Alarm {
        let setup: AlarmSetup
        var engine: AlarmEngine
        var wait: Wait
        var wallTimer: DeadlineTimer?
        var bootTimer: DeadlineTimer?
        var ringLimit: DeadlineTimer?
        /// When `ringLimit` is armed for, while it is (`extendRingLimit`).
        var ringLimitAt: Wait?
        /// `Defaults.preroll` before the deadline, on the boot clock (a head start need not follow
        /// the wall clock to the microsecond), while the output's pre-roll is to come for it.
        var prerollAt: Instant?
        var audibleAnnounced = false
        /// Why the output went silent during this ring (no device, no bell), while it is.
        var silentReason: String?
        /// The sum asked while it rings under `--challenge`.
        var challenge: MathChallenge?
        /// `--light`'s steps: the sunrise's before the ring, the flash's while it rings (made
        /// only for a lit alarm).
        var lightTimer: DeadlineTimer?
        /// Whether the flash is lit now (it alternates each `LightPlan.flashHalfPeriod`).
        var flashLit = false

        init(setup: AlarmSetup) {
            self.setup = setup
            wait = setup.deadline.wait(from: setup.resolvedAt)
            engine = AlarmEngine(deadline: wait, settings: setup.settings)
        }
    }

    private let clock: RuntimeClock
    private let timers: TimerFactory
    private let output: SoundOutput
    private var observers: [RuntimeObserver] = []
    private var alarms: [Alarm] = []
    /// The same alarms by ID: the daemon and its bedtime check ask after each of thousands of
    /// alarms at every reload, and a search of `alarms` for each made that quadratic.
    private var byID: [String: Alarm] = [:]
    /// The alarms ringing now, in the order they started; the first one's sound plays.
    private var ringing: [String] = []
    /// The alarms whose pre-alarm rings, in the order they started: the first one's plays, and
    /// only while no alarm rings (a ring always takes the output).
    private var preRinging: [String] = []
    /// Whether the output plays a pre-ring (of `sounding`) rather than a ring.
    private var soundingPre = false
    /// The pre-ring playing now said it has no sound.
    private var preRingSaidSilent = false
    /// The alarm whose sound the output is playing: the one its events belong to.
    private var sounding = ""
    /// The screen's backlight (`--light`); nil: no alarm of this process lights it.
    public var light: LightOutput? {
        didSet { light?.onProblem = { [unowned self] line in publish(lighting ?? "", .problem("light: " + line)) } }
    }
    /// The alarm whose light shows, while one does: one at a time, the first to start.
    private var lighting: String?
    /// The alarm the output pre-rolled a device for, until it rings or no longer needs it.
    private var preparedFor: String?
    /// The pre-roll's one timer, armed for the earliest alarm's `prerollAt` (`prerollNext`): a
    /// timer for each alarm was an object and a closure each for a daemon's thousands.
    private var prerollTimer: DeadlineTimer?
    private var prerollNext: (id: String, at: Instant)?
    /// Whether a pre-roll has prepared a deadline (its device open, its code mapped back).
    public var isPrerolled: Bool { preparedFor != nil }
    private var sleptBaseline: Duration
    /// Draws each `--challenge` sum: the system's generator; a test's seeded one.
    public var makeChallenge: () -> MathChallenge = {
        var generator = SystemRandomNumberGenerator()
        return MathChallenge(using: &generator)
    }

    /// What a sound server's volume control calls alarm `id`'s stream; the session names it as
    /// the media widget titles it.
    public var streamName: (String) -> String = { _ in RingRequest.defaultStreamName }

    public init(clock: RuntimeClock, timers: TimerFactory, output: SoundOutput) {
        self.clock = clock
        self.timers = timers
        self.output = output
        sleptBaseline = clock.suspendedTotal()
        output.onEvent = { [unowned self] event in soundEvent(event) }
    }

    public func observe(with observer: RuntimeObserver) { observers.append(observer) }

    private func publish(_ alarm: String, _ kind: RuntimeEvent.Kind, at time: ClockReading? = nil, reason: String? = nil) {
        let event = RuntimeEvent(alarm: alarm, time: time ?? clock.now(), kind: kind, reason: reason)
        for o in observers { o.observe(event) }
    }

    // MARK: alarms

    /// Arms an alarm: makes its timers (so a shortage is reported now), announces it, and rings
    /// at once when it is already due.
    public func arm(_ setup: AlarmSetup) throws(SystemCallError) {
        remove(setup.id)  // a standing alarm's next occurrence replaces its finished engine
        let alarm = Alarm(setup: setup)
        let id = setup.id
        alarm.wallTimer = try timers.deadlineTimer(.wall) { [unowned self] in expired(id, $0) }
        alarm.bootTimer = try timers.deadlineTimer(.elapsed) { [unowned self] in expired(id, $0) }
        if prerollTimer == nil {
            prerollTimer = try timers.deadlineTimer(.elapsed) { [unowned self] expiry in prerollsDue(expiry) }
        }
        if setup.light != nil, light != nil {
            alarm.lightTimer = try timers.deadlineTimer(.elapsed) { [unowned self] expiry in
                if expiry == .fired { lightStep(id) }
            }
        }
        alarms.append(alarm)
        byID[id] = alarm
        let now = clock.now()
        publish(id, .armed(wait: alarm.wait, wall: alarm.wait.wallInstant(from: now)), at: now, reason: setup.reason)
        handle(id, .timerFired(now))
    }

    /// Takes an alarm out: its sound stops if it is ringing, its timers go.
    public func remove(_ id: String) {
        guard let a = byID[id] else { return }
        if ringing.contains(id) { perform(.stopRinging, a) }
        if preRinging.contains(id) { perform(.stopPreRinging, a) }
        a.wallTimer?.disarm()
        a.bootTimer?.disarm()
        a.ringLimit?.disarm()
        setPreroll(a, at: nil)
        discardPreroll(of: id)
        darken(a)
        alarms.removeAll { $0 === a }
        byID[id] = nil
    }

    /// The alarms held, by ID, in the order they were armed.
    public var alarmIDs: [String] { alarms.map(\.setup.id) }

    /// The setup an alarm was armed with.
    public func setup(of id: String) -> AlarmSetup? { byID[id]?.setup }

    public var isFinished: Bool { alarms.allSatisfy(\.engine.isFinished) }

    public func outcome(of id: String) -> Outcome? {
        guard let a = byID[id], case .finished(let o) = a.engine.state else { return nil }
        return o
    }

    public func state(of id: String) -> AlarmEngine.State? { byID[id]?.engine.state }

    /// The snoozes an alarm's occurrence has used, and its limit.
    public func snoozes(of id: String) -> SnoozeCount? { byID[id]?.engine.snoozes }

    /// The round an alarm's occurrence rings in (`--unattended`), and its last unanswered ring.
    public func round(of id: String) -> (round: Int, unanswered: UnansweredRing?)? {
        byID[id].map { ($0.engine.round, $0.engine.unanswered) }
    }

    public var isRinging: Bool { !ringing.isEmpty }

    /// When an armed or snoozed alarm rings next, on the wall clock.
    public func nextWall(of id: String) -> Instant? {
        guard let a = byID[id] else { return nil }
        switch a.engine.state {
        case .armed(let wait), .snoozed(let wait), .preRinging(_, let wait): return wait.wallInstant(from: clock.now())
        default: return nil
        }
    }

    /// When a ringing alarm started ringing, on the wall clock (`wake next`); nil otherwise.
    public func ringingSince(of id: String) -> Instant? {
        guard case .ringing(let since)? = state(of: id) else { return nil }
        let now = clock.now()
        return now.realtime - (now.boottime - since)
    }

    /// The nearest wait of any alarm (armed or snoozed), for a countdown.
    public func nextWait() -> (alarm: String, snoozed: Bool, wall: Instant, remaining: Duration)? {
        let now = clock.now()
        var best: (String, Bool, Instant, Duration)?
        for a in alarms {
            let snoozed: Bool, wait: Wait
            switch a.engine.state {
            case .armed(let w), .preRinging(_, let w): (snoozed, wait) = (false, w)
            case .snoozed(let w): (snoozed, wait) = (true, w)
            default: continue
            }
            let remaining = wait.remaining(from: now)
            if remaining < best?.3 ?? .seconds(Int64.max) { best = (a.setup.id, snoozed, wait.wallInstant(from: now), remaining) }
        }
        return best
    }

    // MARK: commands in

    /// Sends `command` to one alarm, or to every alarm; `activeOnly` limits it to alarms that
    /// are ringing or snoozed (a daemon's key must not cancel tomorrow's alarm); `length` is
    /// how long a snooze lasts.
    public func command(_ command: AlarmCommand, by who: Requester, alarm id: String? = nil, activeOnly: Bool = false,
                        length: SnoozeLength = .standard) {
        let now = clock.now()
        for a in alarms where id == nil || a.setup.id == id {
            if activeOnly {
                switch a.engine.state {
                case .ringing, .snoozed, .preRinging: break
                default: continue
                }
            }
            handle(a.setup.id, command == .snooze && length != .standard ? .snooze(length, by: who, now) : .command(command, by: who, now))
        }
    }

    /// The sum a ringing alarm asks under `--challenge`; nil when it asks none now.
    public func challenge(of id: String) -> MathChallenge? { byID[id]?.challenge }

    /// Whether a ringing alarm waits for the answer to a sum: the keys are typed into it.
    public var isChallenging: Bool { alarms.contains { $0.challenge != nil } }

    /// Counts the sums asked: an answer half typed for an earlier one is not carried over.
    public private(set) var challengesAsked = 0

    /// An answer typed on the terminal, for every alarm that asks a sum now: the one it solves
    /// stops (`by: .answer`); for one it does not solve, it is wrong, said, and that alarm rings
    /// on with a fresh sum (one answer cannot be found by trying them in turn).
    public func answer(_ text: String) {
        for a in alarms {
            guard let asked = a.challenge else { continue }
            if asked.isAnswered(by: text) {
                handle(a.setup.id, .command(.stop, by: .answer, clock.now()))
            } else {
                publish(a.setup.id, .challengeWrong(question: asked.question, answer: text))
                ask(a)
            }
        }
    }

    /// Under `--challenge`, a sum drawn for the ring or check-up about to start (said by its own line).
    private func askChallengeIfSet(_ a: Alarm) {
        guard a.setup.settings.challenge else { return }
        a.challenge = makeChallenge()
        challengesAsked &+= 1
    }

    private func ask(_ a: Alarm) {
        let fresh = makeChallenge()
        a.challenge = fresh
        challengesAsked &+= 1
        publish(a.setup.id, .challenge(question: fresh.question))
    }

    /// logind's PrepareForSleep: `true` before a suspend, `false` after the resume.
    public func prepareForSleep(_ goingToSleep: Bool) {
        let now = clock.now()
        if goingToSleep {
            publish("", .suspended, at: now)
            return
        }
        if !noticeResume() { publish("", .resumed(slept: .zero), at: now) }
        for a in alarms { handle(a.setup.id, .timerFired(clock.now())) }
    }

    /// After SIGCONT: the sound picks up where it was.
    public func continued() { if isRinging { output.resume() } }

    /// Ends the sound for good at exit, giving a device at most `limit` to fade and close.
    public func shutDown(within limit: Duration = Defaults.teardownLimit) {
        ringing = []
        preRinging = []
        if let id = lighting, let a = byID[id] { darken(a) }
        output.finish(within: limit)
        light?.settle(within: limit)
    }

    // MARK: the engines

    private func expired(_ id: String, _ expiry: TimerExpiry) {
        noticeResume()
        let now = clock.now()
        handle(id, expiry == .fired ? .timerFired(now) : .clockChanged(now))
    }

    private func handle(_ id: String, _ event: AlarmEngine.Event) {
        guard let a = byID[id] else { return }
        let actions = a.engine.handle(event)
        for action in actions { perform(action, a) }
    }

    private func perform(_ action: AlarmEngine.Action, _ a: Alarm) {
        let id = a.setup.id
        let now = clock.now()
        switch action {
        case .armTimer(let wait):
            a.wait = wait
            let (use, other) = wait.clock == .wall ? (a.wallTimer, a.bootTimer) : (a.bootTimer, a.wallTimer)
            other?.disarm()
            do { try use?.arm(wait) } catch { publish(id, .problem("cannot arm the timer: \(error)"), at: now) }
            armPreroll(a, wait, now)
            armSunrise(a, now)
        case .disarmTimer:
            // Not the pre-roll: the ring that follows (startRinging) is what it was made for.
            a.wallTimer?.disarm()
            a.bootTimer?.disarm()
            setPreroll(a, at: nil)
        case .startRinging(let late):
            a.audibleAnnounced = false
            a.silentReason = nil
            // Drawn before the ring line, which says it.
            askChallengeIfSet(a)
            publish(id, .ringStarted(late: late), at: now)
            if let asked = a.challenge { publish(id, .challenge(question: asked.question), at: now) }
            ringing.append(id)
            lightRing(a)
            if ringing.count == 1 {
                // The ring takes the output from any pre-ring, at its deadline.
                if soundingPre { output.stop() }
                soundingPre = false
                sounding = id
                preparedFor = nil  // adopted by this start, or closed by it when made for another alarm
                output.start(ringRequest(a))
            }
        case .stopRinging:
            a.challenge = nil
            darken(a)
            let wasSounding = ringing.first == id
            ringing.removeAll { $0 == id }
            if wasSounding {
                output.stop()
                if let next = ringing.first, let b = byID[next] {
                    sounding = next
                    output.start(ringRequest(b))
                } else {
                    startNextPreRing()
                }
            }
        case .startPreRinging(let main):
            a.audibleAnnounced = false
            a.silentReason = nil
            publish(id, .preRingStarted(main: main.wallInstant(from: now)), at: now)
            preRinging.append(id)
            if ringing.isEmpty && preRinging.count == 1 { startNextPreRing() }
        case .stopPreRinging:
            let wasSounding = soundingPre && sounding == id
            preRinging.removeAll { $0 == id }
            if wasSounding {
                soundingPre = false
                output.stop()
                startNextPreRing()
            }
        case .reportPreStopped(let who, let main):
            publish(id, .preRingStopped(by: who, main: main.wallInstant(from: now)), at: now)
        case .armRingLimit(let wait):
            do {
                try ringLimitTimer(a).arm(wait)
                a.ringLimitAt = wait
            } catch { publish(id, .problem("cannot arm the --ring-for timer: \(error)"), at: now) }
        case .disarmRingLimit:
            a.ringLimit?.disarm()
            a.ringLimitAt = nil
        case .reportClockChange:
            publish(id, .clockChanged, at: now)
        case .reportSnoozed(let until, let who):
            a.wait = until
            publish(id, .snoozed(until: until.wallInstant(from: now), by: who), at: now)
        case .reportIgnored(let command, let who):
            publish(id, .ignored(command, by: who), at: now)
        case .reportSnoozeRefused(let count, let who):
            publish(id, .snoozeRefused(count, by: who), at: now)
        case .reportUnanswered(let news, let next):
            publish(id, .unanswered(news, next: next?.wallInstant(from: now)), at: now)
        case .reportCheckUpSet(let at, let who):
            publish(id, .checkUp(.set(at: at.wallInstant(from: now), by: who)), at: now)
        case .startCheckRinging(let until):
            // Not the alarm's `ringing` (its lateness, the media player): the check's own event says it.
            a.audibleAnnounced = true
            a.silentReason = nil
            // Under `--challenge` the question is a sum too.
            askChallengeIfSet(a)
            publish(id, .checkUp(.asking(until: until.wallInstant(from: now))), at: now)
            if let asked = a.challenge { publish(id, .challenge(question: asked.question), at: now) }
            ringing.append(id)
            if ringing.count == 1 {
                if soundingPre { output.stop() }
                soundingPre = false
                sounding = id
                preparedFor = nil
                output.start(ringRequest(a))
            }
        case .reportCheckUpUnanswered:
            publish(id, .checkUp(.unanswered), at: now)
        case .escalateRinging:
            // The next round's level (and sound) at once, when this alarm is the one sounding.
            guard ringing.first == id, !soundingPre else { return }
            output.stop()
            output.start(ringRequest(a))
        case .finish(let outcome):
            setPreroll(a, at: nil)
            discardPreroll(of: id)
            darken(a)
            publish(id, .finished(outcome), at: now)
        }
    }

    /// Plays the first waiting pre-ring, when the output is free.
    private func startNextPreRing() {
        guard ringing.isEmpty, !soundingPre, let next = preRinging.first,
              let b = byID[next], var request = b.setup.preRingRequest else { return }
        request.streamName = streamName(next)
        sounding = next
        soundingPre = true
        preRingSaidSilent = false
        preparedFor = nil  // a device pre-rolled for the alarm is closed: the pre-ring plays instead
        output.start(request)
    }

    /// `wake sleep +15m`: a ringing alarm's `--ring-for` ends `span` later, and the output's fade
    /// to silence with it. The wall-clock instant it now ends, or nil when it is not ringing with
    /// a limit.
    public func extendRingLimit(of id: String, by span: Duration) -> Instant? {
        guard let a = byID[id], case .ringing = a.engine.state, let at = a.ringLimitAt, let timer = a.ringLimit else { return nil }
        let later = Wait(instant: at.instant + span, clock: at.clock)
        do { try timer.arm(later) } catch { return nil }
        a.ringLimitAt = later
        output.shiftFadeOut(by: span)
        let now = clock.now()
        return now.realtime + (later.instant - now.boottime)
    }

    /// The `--ring-for` timer, made at the alarm's first ring: a daemon holds thousands of alarms
    /// that are not ringing, and each timer is an object and a closure. Made on the clock the
    /// alarm's own deadline timer already uses, a shared timer (`SharedTimers`) takes no new
    /// descriptor here.
    private func ringLimitTimer(_ a: Alarm) throws(SystemCallError) -> DeadlineTimer {
        if let made = a.ringLimit { return made }
        let id = a.setup.id
        let made = try timers.deadlineTimer(.elapsed) { [unowned self] expiry in
            guard expiry == .fired else { return }
            // A whole window without any sound is a failure, not a ring that nobody stopped.
            if let a = byID[id], !a.audibleAnnounced, let why = a.silentReason {
                handle(id, .soundFailed("no sound during the whole --ring-for window: \(why)"))
            } else {
                handle(id, .ringLimitReached(clock.now()))
            }
        }
        a.ringLimit = made
        return made
    }

    // MARK: the light

    /// The sunrise's first step, at the deadline less the sunrise (at once when that is past):
    /// only before the occurrence's first ring (armed, or in its pre-alarm), never for a snooze.
    /// A clock stepped back past its start puts the light back until it comes round again.
    private func armSunrise(_ a: Alarm, _ now: ClockReading) {
        guard let sunrise = a.setup.light?.sunrise, let timer = a.lightTimer, !ringing.contains(a.setup.id) else { return }
        switch a.engine.state {
        case .armed, .preRinging: break
        default: return darken(a)
        }
        let lead = a.engine.deadline.remaining(from: now) - sunrise
        if lead > .zero, lighting == a.setup.id { darken(a) }
        do { try timer.arm(Wait(instant: now.reading(.elapsed) + max(.zero, lead), clock: .elapsed)) } catch { timer.disarm() }
    }

    private func lightStep(_ id: String) {
        guard let a = byID[id], let plan = a.setup.light, let light else { return }
        let now = clock.now()
        if ringing.contains(id) {
            // The flash: lit, then low, a half period each, for as long as it rings. A sunrise's
            // last step may come due with the ring, in the same turn of the loop: it has nothing to do.
            guard plan.flash, lighting == id else { return }
            a.flashLit.toggle()
            light.show(a.flashLit ? 1 : 0)
            try? a.lightTimer?.arm(Wait(instant: now.reading(.elapsed) + LightPlan.flashHalfPeriod, clock: .elapsed))
            return
        }
        switch a.engine.state {
        case .armed, .preRinging: break
        default: return
        }
        let remaining = a.engine.deadline.remaining(from: now)
        guard let share = plan.sunriseShare(remaining: remaining) else { return armSunrise(a, now) }
        guard lighting == nil || lighting == id else { return }
        if lighting == nil {
            publish(id, .sunrise(over: max(.zero, remaining), main: a.engine.deadline.wallInstant(from: now)), at: now)
        }
        lighting = id
        light.show(share)
        guard remaining > .zero else { return }
        try? a.lightTimer?.arm(Wait(instant: now.reading(.elapsed) + min(plan.sunriseStep, remaining), clock: .elapsed))
    }

    /// The ring lights the screen fully (a sunrise's end), or starts the flash.
    private func lightRing(_ a: Alarm) {
        guard let plan = a.setup.light, let light, lighting == nil || lighting == a.setup.id else { return }
        lighting = a.setup.id
        a.lightTimer?.disarm()
        a.flashLit = true
        light.show(1)
        if plan.flash {
            try? a.lightTimer?.arm(Wait(instant: clock.now().reading(.elapsed) + LightPlan.flashHalfPeriod, clock: .elapsed))
        }
    }

    /// Puts the screen back when `a` was lighting it.
    private func darken(_ a: Alarm) {
        guard lighting == a.setup.id else { return }
        a.lightTimer?.disarm()
        lighting = nil
        light?.restore()
    }

    // MARK: the pre-roll

    /// The pre-roll's timer, `preroll` before `wait` ends. When the deadline is nearer than that,
    /// none, and a device already pre-rolled stays; when it is further (a clock stepped back),
    /// that device is closed.
    private func armPreroll(_ a: Alarm, _ wait: Wait, _ now: ClockReading) {
        let lead = wait.remaining(from: now) - Defaults.preroll
        guard lead > .zero else {
            setPreroll(a, at: nil)
            return
        }
        discardPreroll(of: a.setup.id)
        setPreroll(a, at: now.reading(.elapsed) + lead)
    }

    /// Sets (or, nil, clears) `a`'s pre-roll moment, and the one timer with it: a moment earlier
    /// than the timer's takes it at once; only when the earliest moves later or goes are all looked at.
    private func setPreroll(_ a: Alarm, at: Instant?) {
        a.prerollAt = at
        if let at, prerollNext.map({ at < $0.at }) ?? true {
            prerollNext = (a.setup.id, at)
            armPrerollTimer(at)
        } else if prerollNext?.id == a.setup.id {
            scheduleEarliestPreroll()
        }
    }

    private func scheduleEarliestPreroll() {
        let earliest = alarms.compactMap { a in a.prerollAt.map { (id: a.setup.id, at: $0) } }.min { $0.at < $1.at }
        prerollNext = earliest
        if let earliest { armPrerollTimer(earliest.at) } else { prerollTimer?.disarm() }
    }

    private func armPrerollTimer(_ at: Instant) {
        // Not armed: no head start, and the ring opens its device as usual.
        do { try prerollTimer?.arm(Wait(instant: at, clock: .elapsed)) } catch { prerollTimer?.disarm() }
    }

    /// The timer came due: every alarm whose moment has come is pre-rolled for, the earliest
    /// first, then the timer waits for the next.
    private func prerollsDue(_ expiry: TimerExpiry) {
        let now = clock.now().reading(.elapsed)
        if expiry == .fired {
            let due = alarms.compactMap { a in a.prerollAt.flatMap { $0 <= now ? (a, $0) : nil } }.sorted { $0.1 < $1.1 }.map(\.0)
            for a in due {
                a.prerollAt = nil
                prerollFired(a.setup.id)
            }
        }
        scheduleEarliestPreroll()
    }

    private func prerollFired(_ id: String) {
        guard ringing.isEmpty, !soundingPre, let a = byID[id] else { return }
        switch a.engine.state {
        case .armed, .snoozed: break
        default: return
        }
        if let other = preparedFor, other != id { return }  // the nearer deadline keeps its device
        preparedFor = id
        // The code the first frame runs, mapped before the deadline (HotText says why).
        HotText.mapBack()
        output.prepare(ringRequest(a))
    }

    /// What `a` rings now: its own ring, or after a snooze its ring at the snooze volume; under
    /// `--escalate`, at its round's level.
    private func ringRequest(_ a: Alarm) -> RingRequest {
        // `--check-up`'s question: short and quiet, the alarm's share as a pre-alarm's is.
        var r = a.engine.checkUp != nil ? a.setup.ring.preRing(percent: Defaults.checkUpPercent, lead: Defaults.checkUpWindow)
            : (a.engine.snoozesUsed > 0 ? a.setup.ring.afterSnooze : a.setup.ring).round(a.engine.round, of: a.setup.settings.unattended)
        r.streamName = streamName(a.setup.id)
        return r
    }

    private func discardPreroll(of id: String) {
        guard preparedFor == id else { return }
        preparedFor = nil
        output.discardPrepared()
    }

    // MARK: the sound

    private func soundEvent(_ event: OutputEvent) {
        let now = clock.now()
        if soundingPre {
            // The pre-ring's sound: its device and the mixer are said as a ring's are, but never
            // the alarm's ringing, bell, silence or failure (the notification and the media player
            // follow those). A pre-ring that cannot sound is said once; the alarm still rings at its time.
            switch event {
            case .opened, .recovered, .stopped, .mixerRaised, .mixerRestored, .mixerProblem:
                publish(sounding, .sound(event), at: now)
            case .fallback(_, let to, _) where to != "bell":
                publish(sounding, .sound(event), at: now)
            case .failed(let reason), .silent(let reason, _):
                if !preRingSaidSilent {
                    preRingSaidSilent = true
                    publish(sounding, .problem("the pre-alarm has no sound: \(reason); the alarm still rings at its time"), at: now)
                }
            default:
                break
            }
            return
        }
        publish(sounding, .sound(event), at: now)
        switch event {
        case .audible, .bell:
            for a in alarms where ringing.contains(a.setup.id) && !a.audibleAnnounced {
                a.audibleAnnounced = true
                let late = now.reading(a.engine.deadline.clock) - a.engine.deadline.instant
                publish(a.setup.id, .ringing(late: late), at: now)
            }
        case .failed(let reason):
            for a in alarms where ringing.contains(a.setup.id) { handle(a.setup.id, .soundFailed(reason)) }
        case .silent(let reason, _):
            for a in alarms where ringing.contains(a.setup.id) { a.silentReason = reason }
        default:
            break
        }
    }

    // MARK: suspend

    /// Reports a resume found by the growth of boottime over monotonic (the time spent
    /// suspended), whoever woke us: logind's signal, a cancelled timer, or the deadline itself.
    @discardableResult
    private func noticeResume() -> Bool {
        let offset = clock.suspendedTotal()
        let slept = offset - sleptBaseline
        guard slept > .seconds(1) else { return false }
        sleptBaseline = offset
        publish("", .resumed(slept: slept))
        return true
    }
}

/// A value kept behind a reference, so that an optional one costs a pointer where it is absent.
private final class Held<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
}
