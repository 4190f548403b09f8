import Glibc
import WakeCore
import WakeSystem

/// What an output worker tells the loop.
enum WorkerReport: Sendable {
    case opened(format: String, paced: Bool)
    case firstFrame
    case recovered(String, count: Int)
    case failed(FallbackChain.Failure, String)
    case stopped(frames: Int64, seams: Int64)
    case mixerRaised(mixer: String, from: MixerReading, to: MixerReading)
    case mixerRestored(mixer: String, to: MixerReading, keptChanges: Bool)
    case mixerProblem(String)
    /// A folder's or list's entry opened (`index` in the ring's entries), at `rate`; `skipped`:
    /// the entries before it that failed, each with why.
    case chosen(index: Int, path: String, rate: Int, skipped: [SkippedEntry])
}

/// An entry of a folder or list that failed to open at ring time.
struct SkippedEntry: Sendable {
    var path: String
    var reason: String
}

/// The one place an output worker and the event loop meet: requests in, reports and progress
/// out, under one mutex. Reports wake the loop through its eventfd. Once the loop abandons a
/// worker, nothing the worker posts reaches it any more, and the worker must not touch its
/// device or its sound again.
final class WorkerMailbox: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    /// The loop's signal, rung with every report.
    private let wake: EventSignal
    /// Rung with every request, so a worker waiting in poll() for room on its device wakes for a
    /// stop at once instead of polling the mailbox on a timer. nil when no eventfd could be made:
    /// the worker then looks at the mailbox every few milliseconds.
    let requests: EventSignal?
    let id: Int
    /// The sound file the worker reads (the loop's bookkeeping; the worker never looks).
    var sound: ObjectIdentifier?
    /// That sound's sample rate: turns the frames the worker wrote into the time the crescendo
    /// has played (the loop's bookkeeping too).
    var rate = 0

    private var reports: [WorkerReport] = []
    private var stopRequested = false
    private var resyncRequested = false
    /// Look at the mixer and the stream again (a put-back given up at start has just ended).
    private var recheckRequested = false
    /// A pre-rolled worker: its device is open, and it waits for `requestGo` at the deadline.
    private var held: Bool
    /// A held worker that waited longer than its limit and closed its device.
    private var gaveUp = false
    private(set) var abandoned = false
    /// The worker's thread has returned (abandoned or not).
    private var ended = false
    /// The worker is inside a read of the sound file: if it is abandoned now, the file's
    /// handle may be mid-call and cannot be lent to another worker.
    private var readingSound = false
    private var progress: Instant
    private var framesWritten: Int64 = 0
    /// Frames handed to a write that has not returned yet: counted by a stop's snapshot, since
    /// the device gets them whether or not the worker notices the stop before the next write.
    private var framesInFlight: Int64 = 0
    private var seamsPassed: Int64 = 0
    /// The meter (`OutputMeter`): the loudest sample written so far (a fraction of full scale),
    /// whether the opened PCM is a sound server's client, when the first frame was accepted,
    /// and when the loop asked the worker to stop (or gave up on it).
    private var peakWritten: Double = 0
    private var serverBacked = false
    private var firstWrite: Instant?
    private var stopAsked: Instant?

    init(id: Int, wake: EventSignal, start: Instant, held: Bool = false) {
        self.id = id
        self.wake = wake
        self.held = held
        requests = try? EventSignal()
        progress = start
        pthread_mutex_init(&mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(&condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        requests?.close()
        pthread_cond_destroy(&condition)
        pthread_mutex_destroy(&mutex)
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return body()
    }

    // MARK: the worker's side

    /// The loop's signal is rung under the lock, so once `abandon()` returns no ring can reach a
    /// descriptor number the loop may have closed and reused.
    func post(_ report: WorkerReport) {
        locked {
            guard !abandoned else { return }
            reports.append(report)
            wake.signal()
        }
    }

    /// `peak`: the loudest sample of what was just written (the mailbox keeps the largest).
    func madeProgress(at now: Instant, frames: Int64, seams: Int64, peak: Double = 0) {
        locked {
            (progress, framesWritten, seamsPassed, framesInFlight) = (now, frames, seams, 0)
            if peak > peakWritten { peakWritten = peak }
            if frames > 0 && firstWrite == nil { firstWrite = now }
        }
    }

    /// The PCM opened; `serverBacked`: it is a sound server's client (`PCM.isServerBacked`).
    func noteOpened(serverBacked: Bool) { locked { self.serverBacked = serverBacked } }

    /// Before a write of `frames`: false when a stop or abandonment came first (then no write).
    func beginWrite(_ frames: Int) -> Bool {
        locked {
            if stopRequested || abandoned { return false }
            framesInFlight = Int64(frames)
            return true
        }
    }

    /// A write that wrote less than it was handed (or nothing).
    func endWrite() { locked { framesInFlight = 0 } }

    enum Request { case go, stop, resync, recheck, abandoned }

    /// The next request, taken (a resync or a recheck is handed out once).
    func pending() -> Request {
        locked {
            if abandoned { return .abandoned }
            if stopRequested { return .stop }
            if resyncRequested { resyncRequested = false; return .resync }
            if recheckRequested { recheckRequested = false; return .recheck }
            return .go
        }
    }

    /// Whether the loop gave up on the worker, without taking any other request.
    var isAbandoned: Bool { locked { abandoned } }

    /// Marks the start of a sound read; false when the worker was abandoned and must not read.
    func beginSoundRead() -> Bool { locked { if abandoned { return false }; readingSound = true; return true } }
    func endSoundRead() { locked { readingSound = false } }

    /// Sleeps until `deadline` on the monotonic clock, or until a stop or abandonment.
    func sleep(until deadline: Instant) {
        var ts = timespec(tv_sec: Int(deadline.seconds), tv_nsec: Int(deadline.nanosecondOfSecond))
        locked {
            while !stopRequested && !abandoned && !resyncRequested && !recheckRequested {
                if pthread_cond_timedwait(&condition, &mutex, &ts) == ETIMEDOUT { return }
            }
        }
    }

    /// Empties the request descriptor once poll() said it was readable (the requests themselves
    /// stay in the mailbox until `pending()` takes them).
    func drainRequests() { requests?.drain() }

    private func signalWorker() {
        pthread_cond_signal(&condition)
        requests?.signal()
    }

    /// A held worker's wait for the deadline: true at the go; false after a stop, an abandonment,
    /// or `limit` without a go (then the loop can no longer adopt it).
    func awaitGo(limit: Duration) -> Bool {
        let deadline = SystemClock.monotonic + limit
        var ts = timespec(tv_sec: Int(deadline.seconds), tv_nsec: Int(deadline.nanosecondOfSecond))
        return locked {
            while held && !stopRequested && !abandoned {
                if pthread_cond_timedwait(&condition, &mutex, &ts) == ETIMEDOUT {
                    gaveUp = true
                    return false
                }
            }
            return !held && !stopRequested && !abandoned
        }
    }

    /// Last thing the worker does.
    func markEnded() { locked { ended = true } }

    // MARK: the loop's side

    var hasEnded: Bool { locked { ended } }

    var isReadingSound: Bool { locked { readingSound } }

    func takeReports() -> [WorkerReport] {
        locked {
            defer { reports = [] }
            return reports
        }
    }

    var lastProgress: Instant { locked { progress } }

    /// Frames written and loop seams passed so far.
    var counts: (frames: Int64, seams: Int64) { locked { (framesWritten + framesInFlight, seamsPassed) } }

    /// What the worker's device has accepted so far: frames (not those in a write still under
    /// way), the peak written, whether it is a server's client, and when it started and was
    /// asked to stop.
    var reading: (frames: Int64, peak: Double, serverBacked: Bool, firstWrite: Instant?, stopAsked: Instant?) {
        locked { (framesWritten, peakWritten, serverBacked, firstWrite, stopAsked) }
    }

    func requestStop() { locked { stopRequested = true; stopAsked = stopAsked ?? SystemClock.monotonic; signalWorker() } }

    /// The deadline of a pre-rolled worker: true when it goes on to play, false when it already
    /// gave up or ended (the loop starts a fresh worker instead).
    func requestGo(at now: Instant) -> Bool {
        locked {
            guard held, !gaveUp, !ended, !stopRequested, !abandoned else { return false }
            held = false
            progress = now  // the stall watch counts from the deadline, not from the pre-roll
            signalWorker()
            return true
        }
    }

    func requestResync(at now: Instant) { locked { resyncRequested = true; progress = now; signalWorker() } }

    func requestRecheck() { locked { recheckRequested = true; signalWorker() } }

    /// Cuts the worker off. Returns whether its sound file is safe to lend to another worker.
    func abandon() -> Bool {
        locked {
            abandoned = true
            stopAsked = stopAsked ?? SystemClock.monotonic
            signalWorker()
            return !readingSound
        }
    }
}
