import WakeCore
import WakeSystem

/// The runner's only view of time, so tests can run a night in milliseconds.
public protocol RuntimeClock: AnyObject {
    /// The wall clock and boottime, read together.
    func now() -> ClockReading
    /// A clock that never jumps and stops during suspend: for stall detection and pacing.
    func monotonic() -> Instant
}

extension RuntimeClock {
    /// boottime - monotonic: grows by exactly the time the machine spent suspended.
    func suspendedTotal() -> Duration { now().boottime - monotonic() }
}

public final class SystemRuntimeClock: RuntimeClock {
    public init() {}
    public func now() -> ClockReading { SystemClock.now() }
    public func monotonic() -> Instant { SystemClock.monotonic }
}

public enum TimerExpiry: Sendable { case fired, clockChanged }

/// A deadline the runner can arm and disarm; it calls back on expiry.
public protocol DeadlineTimer: AnyObject {
    func arm(_ wait: Wait) throws(SystemCallError)
    func disarm()
}

/// Makes the runner's timers. An alarm's deadline timers are made when it is armed, so a
/// shortage of descriptors is reported then, not at ring time; its `--ring-for` timer at its
/// first ring, on a clock those already hold (through `SharedTimers`, no new descriptor).
public protocol TimerFactory: AnyObject {
    func deadlineTimer(_ clock: DeadlineClock, _ onExpiry: @escaping (TimerExpiry) -> Void) throws(SystemCallError) -> DeadlineTimer
}
