import WakeCore
import WakeSystem

/// `timerfd` deadlines whose expiries arrive through the reactor.
public final class ReactorTimers: TimerFactory {
    private let reactor: Reactor
    /// Where deadline timers on the `*_ALARM` clocks come from; nil for the ordinary clocks.
    private let alarmTimers: WakeSystemSupport.TimerSource?

    /// `wakeSystem`: deadlines on the `*_ALARM` clocks, made by this process (it must hold
    /// CAP_WAKE_ALARM).
    public convenience init(reactor: Reactor, wakeSystem: Bool = false) {
        self.init(reactor: reactor, alarmTimers: wakeSystem ? .direct : nil)
    }

    /// `alarmTimers`: deadlines on the `*_ALARM` clocks, which wake a suspended machine, from that
    /// source (`WakeSystemSupport.decide`'s `.alarmClock`); nil for the ordinary clocks.
    public init(reactor: Reactor, alarmTimers: WakeSystemSupport.TimerSource?) {
        self.reactor = reactor
        self.alarmTimers = alarmTimers
    }

    public func deadlineTimer(_ clock: DeadlineClock, _ onExpiry: @escaping (TimerExpiry) -> Void) throws(SystemCallError) -> DeadlineTimer {
        let timer: WakeTimer
        if let alarmTimers {
            do { timer = try alarmTimers.timer(clock) } catch { throw error.systemCallError }
        } else {
            timer = try WakeTimer(clock: clock)
        }
        return Timer(reactor: reactor, timer: timer, onExpiry)
    }

    /// A periodic timer on the monotonic clock (the output watchdog, the bell).
    public func periodic(_ interval: Duration, _ onTick: @escaping () -> Void) throws(SystemCallError) -> PeriodicTimer {
        try PeriodicTimer(reactor: reactor, interval: interval, onTick)
    }

    final class Timer: DeadlineTimer {
        let timer: WakeTimer
        private let reactor: Reactor
        private var registration: Reactor.Registration?

        init(reactor: Reactor, timer: WakeTimer, _ onExpiry: @escaping (TimerExpiry) -> Void) {
            self.timer = timer
            self.reactor = reactor
            registration = reactor.register(fd: timer.fd) { [timer] _ in
                switch timer.acknowledge() {
                case .fired: onExpiry(.fired)
                case .clockChanged: onExpiry(.clockChanged)
                case .spurious: break
                }
            }
        }

        deinit { if let registration { reactor.unregister(registration) } }

        func arm(_ wait: Wait) throws(SystemCallError) { try timer.arm(at: wait.instant) }
        func disarm() { timer.disarm() }
    }
}

/// A timer that ticks every `interval` while started; its descriptor is made up front.
public final class PeriodicTimer {
    private let timer: WakeTimer
    private let reactor: Reactor
    private var registration: Reactor.Registration?
    public private(set) var isRunning = false

    init(reactor: Reactor, interval: Duration, _ onTick: @escaping () -> Void) throws(SystemCallError) {
        self.reactor = reactor
        let timer = try WakeTimer(periodic: interval, started: false)
        self.timer = timer
        registration = reactor.register(fd: timer.fd, events: 0) { _ in
            if timer.acknowledge() == .fired { onTick() }
        }
    }

    deinit { if let registration { reactor.unregister(registration) } }

    /// Starts (or restarts) the ticks: the first after `first` (the interval by default).
    public func start(firstTickIn first: Duration? = nil) {
        // Only EINVAL can fail here, and the interval is ours: a timer that cannot start stays quiet.
        isRunning = (try? timer.startPeriodic(firstIn: first)) != nil
        if isRunning, let registration { reactor.update(registration, events: Poll.readable) }
    }

    public func stop() {
        timer.disarm()
        if let registration { reactor.update(registration, events: 0) }
        isRunning = false
    }
}
