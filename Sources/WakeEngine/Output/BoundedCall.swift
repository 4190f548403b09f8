import Glibc
import Synchronization
import WakeCore
import WakeSystem

/// Runs work that may block inside a library (opening a device behind a hung sound server) on a
/// thread of its own, and waits for it at most `limit`, ending the wait early for a signal.
/// A call that overruns is abandoned: its thread finishes, or not, on its own. Work that changes
/// something must not go on doing so once nobody waits for it: it is told (`isAbandoned`) and
/// looks before each change, and its late end is handed to `lateFinish`.
public enum BoundedCall {
    public enum Outcome<T> {
        case done(T)
        case timedOut
        /// A signal arrived first (its number).
        case interrupted(Int32)
    }

    /// What the thread and the waiter share, under one mutex: whether the call finished and
    /// whether it was given up. The value itself is written once, before `finished` is set
    /// under the mutex, and read only by whoever saw `finished` under it.
    private final class Job<T>: @unchecked Sendable {
        let state = Mutex((finished: false, abandoned: false))
        var value: T?
    }

    /// `signals`: a signal channel to watch; `ignoring` lists signals that do not end the wait.
    public static func run<T>(limit: Duration, signals: SignalChannel?, ignoring: Set<Int32> = SignalChannel.nonInterrupting,
                              _ work: @escaping () -> T) throws(SystemCallError) -> Outcome<T> {
        try run(limit: limit, signals: signals, ignoring: ignoring, lateFinish: { _ in }) { _ in work() }
    }

    /// As above, for work that changes something: `work` gets `isAbandoned`, true from the moment
    /// the wait is given up (a timeout or a signal), to ask before each change; when it ends after
    /// that, its value goes to `lateFinish`, on its own thread. The two never overlap: a call
    /// either returns `.done` or is abandoned, under one lock.
    public static func run<T>(limit: Duration, signals: SignalChannel?, ignoring: Set<Int32> = SignalChannel.nonInterrupting,
                              lateFinish: @escaping (T) -> Void,
                              _ work: @escaping (_ isAbandoned: @escaping () -> Bool) -> T) throws(SystemCallError) -> Outcome<T> {
        let wake = try EventSignal()
        let job = Job<T>()
        let isAbandoned = { () -> Bool in job.state.withLock { $0.abandoned } }
        do {
            try DetachedThread.start {
                let value = work(isAbandoned)
                job.value = value
                let late = job.state.withLock { s -> Bool in
                    s.finished = true
                    if !s.abandoned { wake.signal() }
                    return s.abandoned
                }
                if late { lateFinish(value) }
            }
        } catch {
            wake.close()
            throw error
        }
        /// Gives the call up unless it has just finished: then its value, which nobody else will take.
        func abandon() -> T? {
            let finished = job.state.withLock { s -> Bool in
                if !s.finished { s.abandoned = true }
                return s.finished
            }
            return finished ? job.value : nil
        }
        defer { wake.close() }  // the thread rings it only under the lock, and never once abandoned
        let deadline = SystemClock.monotonic + limit
        while true {
            if job.state.withLock({ $0.finished }), let finished = job.value { return .done(finished) }
            let left = deadline - SystemClock.monotonic
            if left <= .zero { return abandon().map { .done($0) } ?? .timedOut }
            var fds = [Poll.Descriptor(fd: wake.fd, events: Poll.readable, revents: 0)]
            if let signals { fds.append(Poll.Descriptor(fd: signals.fd, events: Poll.readable, revents: 0)) }
            // A poll that fails leaves every revents 0: the loop looks again, and the deadline still ends it.
            _ = try? Poll.wait(&fds, timeout: left)
            if let signals, fds[1].revents != 0 {
                for s in signals.drain() where !ignoring.contains(s) {
                    if s == SIGTSTP { SignalChannel.stopSelf(); continue }
                    _ = abandon()
                    return .interrupted(s)
                }
            }
        }
    }
}
