import WakeCore
import WakeEngine
import WakeSystem

/// A clock, timers and a sound output under the test's control: time moves only when the test
/// says so, and timers fire as the clock passes them, as swift-nio's embedded loop does.
final class FakeWorld: RuntimeClock, TimerFactory, SoundOutput {
    var realtime: Instant
    var boottime: Instant
    var mono: Instant

    init(realtime: Instant) {
        self.realtime = realtime
        boottime = Instant(seconds: 1000)
        mono = Instant(seconds: 1000)
    }

    func now() -> ClockReading { ClockReading(realtime: realtime, boottime: boottime) }
    func monotonic() -> Instant { mono }

    // MARK: timers

    final class Timer: DeadlineTimer {
        let clock: DeadlineClock
        let onExpiry: (TimerExpiry) -> Void
        var armed: Wait?
        init(clock: DeadlineClock, onExpiry: @escaping (TimerExpiry) -> Void) { self.clock = clock; self.onExpiry = onExpiry }
        func arm(_ wait: Wait) throws(SystemCallError) { armed = wait }
        func disarm() { armed = nil }
    }

    private(set) var timers: [Timer] = []
    var timersMade = 0

    func deadlineTimer(_ clock: DeadlineClock, _ onExpiry: @escaping (TimerExpiry) -> Void) throws(SystemCallError) -> DeadlineTimer {
        let t = Timer(clock: clock, onExpiry: onExpiry)
        timers.append(t)
        timersMade += 1
        return t
    }

    private func reading(_ clock: DeadlineClock) -> Instant { clock == .wall ? realtime : boottime }

    /// Moves time forward by `span` as a running machine would, firing every timer it passes,
    /// each at its own moment.
    func advance(by span: Duration) {
        let target = mono + span
        while true {
            let due = timers.compactMap { t -> (Timer, Duration)? in
                guard let w = t.armed else { return nil }
                return (t, max(.zero, w.instant - reading(w.clock)))
            }.min { $0.1 < $1.1 }
            guard let (timer, wait) = due, mono + wait <= target else { break }
            move(by: wait)
            timer.armed = nil
            timer.onExpiry(.fired)
        }
        move(by: target - mono)
    }

    private func move(by d: Duration) {
        realtime = realtime + d
        boottime = boottime + d
        mono = mono + d
    }

    /// The wall clock is stepped (NTP, a person): wall timers are cancelled, as
    /// TFD_TIMER_CANCEL_ON_SET does.
    func stepWallClock(by d: Duration) {
        realtime = realtime + d
        for t in timers where t.armed != nil && t.clock == .wall { t.onExpiry(.clockChanged) }
    }

    /// The machine sleeps for `d`: the wall clock and boottime move, the monotonic clock does not;
    /// on resume the wall timers are cancelled and due timers fire.
    func suspend(for d: Duration) {
        realtime = realtime + d
        boottime = boottime + d
        for t in timers where t.armed != nil && t.clock == .wall { t.onExpiry(.clockChanged) }
        advance(by: .zero)
    }

    // MARK: sound

    var onEvent: ((OutputEvent) -> Void)?
    private(set) var started: [String] = []
    private(set) var stops = 0
    private(set) var isSounding = false
    /// What the next start does: by default the device opens and sounds at once.
    var onStart: ((FakeWorld) -> Void)?

    /// The volume of each start, in order (a pre-alarm's is its share of the alarm's).
    private(set) var startedVolumes: [Int] = []
    /// The fade-in of each start, in order.
    private(set) var startedFades: [Duration] = []
    /// Whether each start plays wake's built-in sound in place of the request's (`--escalate`'s last round).
    private(set) var startedBuiltIn: [Bool] = []
    /// The volume of each pre-roll, in order.
    private(set) var preparedVolumes: [Int] = []

    /// What each start speaks (`--say on`): its clip's text, nil for none made.
    private(set) var startedSpeech: [String?] = []

    func start(_ request: RingRequest) {
        started.append(request.device)
        startedSpeech.append(request.speech?.clip?.text)
        startedVolumes.append(request.volume)
        startedFades.append(request.fadeIn)
        startedBuiltIn.append(request.switchedToBuiltIn)
        isSounding = true
        if let onStart { onStart(self) } else {
            onEvent?(.opened(device: request.device, format: "S16_LE", paced: false))
            onEvent?(.audible)
        }
    }

    func stop() {
        guard isSounding else { return }
        isSounding = false
        stops += 1
        onEvent?(.stopped(frames: 0, seams: 0))
    }

    func resume() {}
    func finish(within limit: Duration) { stop() }

    /// The pre-roll, as the runner asks for it: the device and the boot-clock moment of each.
    private(set) var prepared: [(device: String, at: Instant)] = []
    private(set) var discarded = 0
    func prepare(_ request: RingRequest) {
        prepared.append((request.device, boottime))
        preparedVolumes.append(request.volume)
    }
    func discardPrepared() { discarded += 1 }
}

/// Collects the runner's events as short names, in order.
final class EventRecorder: RuntimeObserver {
    private(set) var events: [RuntimeEvent] = []

    func observe(_ event: RuntimeEvent) { events.append(event) }

    var names: [String] {
        events.map { e in
            switch e.kind {
            case .armed: return "armed"
            case .ringStarted: return "ringStarted"
            case .sunrise: return "sunrise"
            case .ringing: return "ringing"
            case .preRingStarted: return "preRingStarted"
            case .preRingStopped: return "preRingStopped"
            case .snoozed: return "snoozed"
            case .unanswered: return "unanswered"
            case .checkUp(.set): return "checkUpSet"
            case .checkUp(.asking): return "checkUp"
            case .checkUp(.unanswered): return "checkUpUnanswered"
            case .finished(let o):
                switch o {
                case .stopped: return "stopped"
                case .cancelled: return "cancelled"
                case .upAlready: return "upAlready"
                case .missed: return "missed"
                case .timedOut: return "timedOut"
                case .failed: return "failed"
                }
            case .clockChanged: return "clockChanged"
            case .suspended: return "suspended"
            case .resumed: return "resumed"
            case .ignored: return "ignored"
            case .snoozeRefused: return "snoozeRefused"
            case .challenge: return "challenge"
            case .challengeWrong: return "challengeWrong"
            case .sound(let s):
                switch s {
                case .opened: return "opened"
                case .audible: return "audible"
                case .recovered: return "recovered"
                case .fallback: return "fallback"
                case .bell: return "bell"
                case .failed: return "soundFailed"
                case .stopped: return "soundStopped"
                case .mixerRaised: return "mixerRaised"
                case .mixerRestored: return "mixerRestored"
                case .mixerProblem: return "mixerProblem"
                case .sinkMoved: return "sinkMoved"
                case .backFromBell: return "backFromBell"
                case .silent: return "silent"
                case .silentStep: return "silentStep"
                case .stillSilent: return "stillSilent"
                case .backFromSilent: return "backFromSilent"
                case .soundChosen: return "soundChosen"
                case .entryFailed: return "entryFailed"
                case .builtInChosen: return "builtInChosen"
                }
            case .problem: return "problem"
            }
        }
    }
}
