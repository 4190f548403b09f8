import Glibc
import CLinux
import WakeCore

/// A deadline as a file descriptor (`timerfd`), so waiting is one `poll()` with no ticking.
///
/// Wall-clock deadlines use `CLOCK_REALTIME` with `TFD_TIMER_CANCEL_ON_SET`: a clock step
/// or a resume makes the read fail with `ECANCELED`, and the caller re-reads the clock.
public final class WakeTimer {
    public enum Expiry: Equatable { case fired, clockChanged, spurious }

    public let fd: Int32
    public let clockID: clockid_t
    private var period: Duration = .zero

    public init(clock: DeadlineClock, wakeSystem: Bool = false) throws(SystemCallError) {
        switch (clock, wakeSystem) {
        case (.wall, false): clockID = CLOCK_REALTIME
        case (.elapsed, false): clockID = CLOCK_BOOTTIME
        case (.wall, true): clockID = CLOCK_REALTIME_ALARM
        case (.elapsed, true): clockID = CLOCK_BOOTTIME_ALARM
        }
        let id = clockID
        helper = nil
        fd = try syscall("timerfd_create") { timerfd_create(id, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
    }

    /// Arms and disarms a timer that this process may not arm itself (an alarm timer made by
    /// `wake-alarm-timer`: the kernel wants CAP_WAKE_ALARM at every timerfd_settime).
    private let helper: AlarmTimerHelper?
    /// A deadline further ahead than the helper arms (`AlarmTimerHelper.farthestAhead`): the
    /// timer is armed a step ahead, and an expiry before this instant arms the next step
    /// instead of being reported. Nil when the timer is armed for the deadline itself.
    private var farDeadline: Instant?

    /// A timer made elsewhere: a timerfd on an alarm clock that `wake-alarm-timer`, which holds
    /// CAP_WAKE_ALARM, created and passed over a socket (`AlarmTimerHelper.timer`). `arm(at:)`
    /// and `disarm()` go through `helper`. This object owns `fd` from now on and closes it.
    public init(adopting fd: Int32, clockID: clockid_t, armedBy helper: AlarmTimerHelper?) {
        self.fd = fd
        self.clockID = clockID
        self.helper = helper
    }

    /// A periodic timer on the monotonic clock, ticking every `interval` once started.
    public init(periodic interval: Duration, started: Bool = true) throws(SystemCallError) {
        clockID = CLOCK_MONOTONIC
        helper = nil
        period = interval
        fd = try syscall("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
        if started { try startPeriodic() }
    }

    /// Starts (or restarts) the ticks of a periodic timer: the first after `first` (a period by
    /// default, at least a nanosecond: zero would disarm it), then every period.
    public func startPeriodic(firstIn first: Duration? = nil) throws(SystemCallError) {
        func timespec(_ d: Duration) -> Glibc.timespec {
            let ns = max(d.nanoseconds, 1)
            return Glibc.timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
        }
        var spec = itimerspec(it_interval: timespec(period), it_value: timespec(first ?? period))
        let fd = self.fd
        try syscall("timerfd_settime") { timerfd_settime(fd, 0, &spec, nil) }
    }

    /// Fires at every whole second of the wall clock, so a countdown's "now" turns over in
    /// step with the real clock rather than up to a second late. Call again after a clock change.
    public func armEveryWallSecond() throws(SystemCallError) {
        let next = Instant(seconds: SystemClock.realtime.seconds + 1)
        var spec = itimerspec(it_interval: Glibc.timespec(tv_sec: 1, tv_nsec: 0), it_value: SystemClock.timespec(next))
        let fd = self.fd
        try syscall("timerfd_settime") { timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil) }
    }

    deinit { close(fd) }

    /// Arms for an absolute instant on this timer's clock.
    public func arm(at instant: Instant) throws(SystemCallError) {
        // A zero it_value would disarm; an instant at or before the epoch means "now" anyway.
        let target = instant.nanoseconds > 0 ? instant : Instant(nanoseconds: 1)
        var spec = itimerspec(it_interval: Glibc.timespec(), it_value: SystemClock.timespec(target))
        var flags = Int32(TFD_TIMER_ABSTIME)
        if clockID == CLOCK_REALTIME || clockID == CLOCK_REALTIME_ALARM {
            flags |= Int32(TFD_TIMER_CANCEL_ON_SET)
        }
        let fd = self.fd
        if let helper {
            let now = SystemClock.read(clockID == CLOCK_REALTIME_ALARM ? CLOCK_REALTIME : CLOCK_BOOTTIME)
            let far = target - now > AlarmTimerHelper.farthestStep
            let value = far ? now + AlarmTimerHelper.farthestStep : target
            do { try helper.settime(fd, clockID: clockID, flags: flags, value: value) } catch { throw error.systemCallError }
            farDeadline = far ? target : nil
            return
        }
        try syscall("timerfd_settime") { timerfd_settime(fd, flags, &spec, nil) }
    }

    public func disarm() {
        farDeadline = nil
        if let helper {
            try? helper.settime(fd, clockID: clockID, flags: 0, value: Instant(nanoseconds: 0))
            return
        }
        var spec = itimerspec()
        timerfd_settime(fd, 0, &spec, nil)
    }

    /// Consumes the expiry after `poll()` reported the descriptor readable.
    public func acknowledge() -> Expiry {
        var count: UInt64 = 0
        let r = read(fd, &count, 8)
        if r == 8, let deadline = farDeadline,
           SystemClock.read(clockID == CLOCK_REALTIME_ALARM ? CLOCK_REALTIME : CLOCK_BOOTTIME) < deadline {
            // A step towards a far deadline, not the deadline: the next step. Should the helper
            // refuse it, the owner hears of a clock change, re-arms, and says what failed.
            return (try? arm(at: deadline)) != nil ? .spurious : .clockChanged
        }
        if r == 8 { return .fired }
        if r < 0 && errno == ECANCELED { return .clockChanged }
        return .spurious
    }
}
