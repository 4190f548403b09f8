import WakeCore
import WakeSystem

/// Deadline timers that share one real timer per clock: the real one is armed for the earliest
/// of them. The runner makes two timers per alarm (and one more while it rings); a daemon with
/// hundreds of standing alarms would otherwise hold two descriptors for each and run out of them
/// (at about 500 alarms under the usual soft limit of 1024), leaving none for the sound device at
/// ring time.
public final class SharedTimers: TimerFactory {
    private final class Shared: DeadlineTimer {
        let clock: DeadlineClock
        let onExpiry: (TimerExpiry) -> Void
        weak var owner: SharedTimers?
        var armed: Wait?

        init(clock: DeadlineClock, owner: SharedTimers, onExpiry: @escaping (TimerExpiry) -> Void) {
            self.clock = clock
            self.owner = owner
            self.onExpiry = onExpiry
        }

        func arm(_ wait: Wait) throws(SystemCallError) {
            let was = armed
            armed = wait
            // Moved later, it may have been the earliest: only then is every timer looked at.
            if let was, was.instant < wait.instant { try owner?.update(clock) } else { try owner?.armed(self, wait) }
        }

        func disarm() {
            guard armed != nil else { return }
            armed = nil
            // A deadline that passes with nobody due just re-arms the real timer: no scan now.
        }
    }

    /// A weak reference, so a timer the runner drops leaves the list.
    private struct Entry {
        weak var timer: Shared?
    }

    private let base: TimerFactory
    private let clock: RuntimeClock
    private var real: [DeadlineClock: DeadlineTimer] = [:]
    private var entries: [DeadlineClock: [Entry]] = [:]

    public init(base: TimerFactory, clock: RuntimeClock) {
        self.base = base
        self.clock = clock
    }

    /// The real timer for `clock` is made with the first shared one, so a shortage of
    /// descriptors shows when the first alarm is armed, never at ring time.
    public func deadlineTimer(_ clock: DeadlineClock, _ onExpiry: @escaping (TimerExpiry) -> Void) throws(SystemCallError) -> DeadlineTimer {
        if real[clock] == nil {
            real[clock] = try base.deadlineTimer(clock) { [unowned self] expiry in expired(clock, expiry) }
        }
        let timer = Shared(clock: clock, owner: self, onExpiry: onExpiry)
        entries[clock, default: []].append(Entry(timer: timer))
        return timer
    }

    /// How many real timers are held: one per clock in use, whatever the number of alarms.
    var realTimerCount: Int { real.count }

    private func live(_ clock: DeadlineClock) -> [Shared] {
        entries[clock, default: []].removeAll { $0.timer == nil }
        return entries[clock, default: []].compactMap(\.timer)
    }

    /// The real timer's deadline, per clock: most changes need no scan of every timer.
    private var realDeadline: [DeadlineClock: Instant] = [:]

    private func armed(_ timer: Shared, _ wait: Wait) throws(SystemCallError) {
        let clock = timer.clock
        if let current = realDeadline[clock], current <= wait.instant { return }
        realDeadline[clock] = wait.instant
        try real[clock]?.arm(wait)
    }

    private func update(_ clock: DeadlineClock) throws(SystemCallError) {
        guard let realTimer = real[clock] else { return }
        let earliest = live(clock).compactMap(\.armed).min { $0.instant < $1.instant }
        realDeadline[clock] = earliest?.instant
        if let earliest { try realTimer.arm(earliest) } else { realTimer.disarm() }
    }

    private func reading(_ clock: DeadlineClock) -> Instant {
        let now = self.clock.now()
        return clock == .wall ? now.realtime : now.boottime
    }

    private func expired(_ clock: DeadlineClock, _ expiry: TimerExpiry) {
        realDeadline[clock] = nil  // the real timer is no longer armed
        let armed = live(clock).filter { $0.armed != nil }
        let due: [Shared]
        switch expiry {
        case .clockChanged:
            // The wall clock was set or the machine resumed: every armed wall deadline hears it,
            // as each would from a timer of its own.
            due = armed
        case .fired:
            let now = reading(clock)
            due = armed.filter { ($0.armed?.instant ?? now) <= now }
        }
        for timer in due { timer.armed = nil }
        for timer in due { timer.onExpiry(expiry) }
        try? update(clock)
    }
}
