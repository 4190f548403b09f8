import CLinux
import Glibc
import WakeCore
import WakeSystem

/// Runs work that may block inside a library (opening a device behind a hung sound server) on a
/// thread of its own, and waits for it at most `limit`, ending the wait early for a signal.
/// A call that overruns is abandoned: its thread finishes, or not, on its own.
public enum BoundedCall {
    public enum Outcome<T> {
        case done(T)
        case timedOut
        /// A signal arrived first (its number).
        case interrupted(Int32)
    }

    /// The thread's side; the value itself lives in a `Result` the work closure fills, read
    /// only after `finished` is seen under the mutex.
    private final class Job: @unchecked Sendable {
        var mutex = pthread_mutex_t()
        var finished = false
        var abandoned = false
        let wakeFD: Int32
        let work: () -> Void
        init(wakeFD: Int32, work: @escaping () -> Void) {
            self.wakeFD = wakeFD
            self.work = work
            pthread_mutex_init(&mutex, nil)
        }
    }

    private final class Result<T>: @unchecked Sendable { var value: T? }

    /// `signals`: a signal channel to watch; `ignoring` lists signals that do not end the wait.
    public static func run<T>(limit: Duration, signals: SignalChannel?, ignoring: Set<Int32> = SignalChannel.nonInterrupting,
                              _ work: @escaping () -> T) throws(SystemCallError) -> Outcome<T> {
        let wakeFD = try SystemCall.retrying("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
        let result = Result<T>()
        let box = Job(wakeFD: wakeFD) { result.value = work() }
        do {
            try DetachedThread.start {
                box.work()
                pthread_mutex_lock(&box.mutex)
                box.finished = true
                if !box.abandoned {
                    var one: UInt64 = 1
                    _ = write(box.wakeFD, &one, 8)
                }
                pthread_mutex_unlock(&box.mutex)
            }
        } catch {
            close(wakeFD)
            throw error
        }
        defer {
            pthread_mutex_lock(&box.mutex)
            box.abandoned = true
            pthread_mutex_unlock(&box.mutex)
            close(wakeFD)
        }
        let deadline = SystemClock.monotonic + limit
        while true {
            pthread_mutex_lock(&box.mutex)
            let finished = box.finished
            pthread_mutex_unlock(&box.mutex)
            if finished, let value = result.value { return .done(value) }
            let left = deadline - SystemClock.monotonic
            if left <= .zero { return .timedOut }
            var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            if let signals { fds.append(pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0)) }
            let n = fds.count
            _ = poll(&fds, nfds_t(n), Int32(clamping: (left.nanoseconds + 999_999) / 1_000_000))
            if let signals, fds[1].revents != 0 {
                for s in signals.drain() where !ignoring.contains(s) {
                    if s == SIGTSTP { SignalChannel.stopSelf(); continue }
                    return .interrupted(s)
                }
            }
        }
    }
}
