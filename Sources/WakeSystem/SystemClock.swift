import Glibc
import WakeCore

/// Reads the kernel clocks. The only place wake asks what time it is.
public enum SystemClock {
    public static func read(_ id: clockid_t) -> Instant {
        var ts = Glibc.timespec()
        clock_gettime(id, &ts)
        return Instant(seconds: Int64(ts.tv_sec), nanoseconds: Int64(ts.tv_nsec))
    }

    public static var realtime: Instant { read(CLOCK_REALTIME) }
    public static var boottime: Instant { read(CLOCK_BOOTTIME) }
    public static var monotonic: Instant { read(CLOCK_MONOTONIC) }

    public static func now() -> ClockReading { ClockReading(realtime: realtime, boottime: boottime) }

    /// Sleeps the calling thread for `span`, all of it: an interrupted sleep sleeps what is left
    /// (nanosleep through the funnel, which retries EINTR with the rest written back). A span of
    /// zero or less, or a sleep that fails, returns at once.
    public static func sleep(for span: Duration) {
        let ns = span.nanoseconds
        guard ns > 0 else { return }
        var ts = Glibc.timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
        withUnsafeMutablePointer(to: &ts) { left in _ = try? syscall("nanosleep") { nanosleep(left, left) } }
    }

    static func timespec(_ i: Instant) -> Glibc.timespec {
        Glibc.timespec(tv_sec: Int(i.seconds), tv_nsec: Int(i.nanosecondOfSecond))
    }
}
