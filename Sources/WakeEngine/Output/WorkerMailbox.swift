import Synchronization
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
    /// `--sink`: the stream is on another sink than the chosen one, or back on it.
    case sinkMoved(chosen: String, change: SinkFollower.Change)
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
/// out, under one mutex. Reports wake the loop through its eventfd; requests wake the worker
/// through its own (`requests`), which is also what its timed waits poll, as the loop waits on
/// PostBox's. Once the loop abandons a worker, nothing the worker posts reaches it any more, and
/// the worker must not touch its device or its sound again.
///
/// Unchecked Sendable only for `sound` and `rate`: the loop's own bookkeeping, which only the
/// loop reads or writes; everything the worker shares is in `state`.
final class WorkerMailbox: @unchecked Sendable {
    /// The loop's signal, rung with every report.
    private let wake: EventSignal
    /// Rung with every request, so a worker waiting in poll() for room on its device, or for its
    /// time to write, wakes for a stop at once. nil when no eventfd could be made: the worker
    /// then looks at the mailbox every few milliseconds.
    let requests: EventSignal?
    let id: Int
    /// The sound file the worker reads (the loop's bookkeeping; the worker never looks).
    var sound: ObjectIdentifier?
    /// That sound's sample rate: turns the frames the worker wrote into the time the crescendo
    /// has played (the loop's bookkeeping too).
    var rate = 0

    private struct Shared {
        var reports: [WorkerReport] = []
        var stopRequested = false
        /// A fade to silence asked for, over this long, from where the sound stands.
        var fadeNow: Duration?
        /// The ring's own fade moved this much later, not yet taken.
        var fadeShift: Duration = .zero
        var resyncRequested = false
        /// Look at the mixer and the stream again (a put-back given up at start has just ended).
        var recheckRequested = false
        /// A pre-rolled worker: its device is open, and it waits for `requestGo` at the deadline.
        var held: Bool
        /// A held worker that waited longer than its limit and closed its device.
        var gaveUp = false
        var abandoned = false
        /// The worker's thread has returned (abandoned or not).
        var ended = false
        /// The worker is inside a read of the sound file: if it is abandoned now, the file's
        /// handle may be mid-call and cannot be lent to another worker.
        var readingSound = false
        var progress: Instant
        var framesWritten: Int64 = 0
        /// Frames handed to a write that has not returned yet: counted by a stop's snapshot, since
        /// the device gets them whether or not the worker notices the stop before the next write.
        var framesInFlight: Int64 = 0
        var seamsPassed: Int64 = 0
        /// The meter (`OutputMeter`): the loudest sample written so far (a fraction of full scale),
        /// whether the opened PCM is a sound server's client, when the first frame was accepted,
        /// and when the loop asked the worker to stop (or gave up on it).
        var peakWritten: Double = 0
        var serverBacked = false
        var firstWrite: Instant?
        var stopAsked: Instant?

        /// What ends a paced worker's sleep before its time.
        var interruptsSleep: Bool { stopRequested || abandoned || resyncRequested || recheckRequested }
    }
    private let state: Mutex<Shared>

    init(id: Int, wake: EventSignal, start: Instant, held: Bool = false) {
        self.id = id
        self.wake = wake
        requests = try? EventSignal()
        state = Mutex(Shared(held: held, progress: start))
    }

    deinit { requests?.close() }

    private func locked<T: Sendable>(_ body: (inout Shared) -> T) -> T {
        state.withLock { body(&$0) }
    }

    // MARK: the worker's side

    /// The loop's signal is rung under the lock, so once `abandon()` returns no ring can reach a
    /// descriptor number the loop may have closed and reused.
    func post(_ report: WorkerReport) {
        locked { s in
            guard !s.abandoned else { return }
            s.reports.append(report)
            wake.signal()
        }
    }

    /// `peak`: the loudest sample of what was just written (the mailbox keeps the largest).
    func madeProgress(at now: Instant, frames: Int64, seams: Int64, peak: Double = 0) {
        locked { s in
            (s.progress, s.framesWritten, s.seamsPassed, s.framesInFlight) = (now, frames, seams, 0)
            if peak > s.peakWritten { s.peakWritten = peak }
            if frames > 0 && s.firstWrite == nil { s.firstWrite = now }
        }
    }

    /// The PCM opened; `serverBacked`: it is a sound server's client (`PCM.isServerBacked`).
    func noteOpened(serverBacked: Bool) { locked { $0.serverBacked = serverBacked } }

    /// Before a write of `frames`: false when a stop or abandonment came first (then no write).
    func beginWrite(_ frames: Int) -> Bool {
        locked { s in
            if s.stopRequested || s.abandoned { return false }
            s.framesInFlight = Int64(frames)
            return true
        }
    }

    /// A write that wrote less than it was handed (or nothing).
    func endWrite() { locked { $0.framesInFlight = 0 } }

    enum Request { case go, stop, resync, recheck, abandoned }

    /// What a turn of the write loop is to do: the request, and the fades asked for since the
    /// last turn (`fadeNow`: to silence from now over that span; `fadeShift`: the fade to
    /// silence moved that much later), all taken under one lock.
    struct Turn {
        var request: Request
        var fadeNow: Duration?
        var fadeShift: Duration
    }

    /// The next turn's work, taken (a resync, a recheck and the fades are handed out once).
    func pending() -> Turn {
        locked { s in
            defer { (s.fadeNow, s.fadeShift) = (nil, .zero) }
            let request: Request
            if s.abandoned { request = .abandoned }
            else if s.stopRequested { request = .stop }
            else if s.resyncRequested { s.resyncRequested = false; request = .resync }
            else if s.recheckRequested { s.recheckRequested = false; request = .recheck }
            else { request = .go }
            return Turn(request: request, fadeNow: s.fadeNow, fadeShift: s.fadeShift)
        }
    }

    /// The loop's: fade what plays to silence over `span`, from the next audio read.
    func requestFadeNow(over span: Duration) { locked { $0.fadeNow = span } }

    /// The loop's: the ring's own fade comes `span` later (`wake sleep +15m`).
    func requestFadeShift(by span: Duration) { locked { $0.fadeShift += span } }

    /// Whether the loop gave up on the worker, without taking any other request.
    var isAbandoned: Bool { locked { $0.abandoned } }

    /// Marks the start of a sound read; false when the worker was abandoned and must not read.
    func beginSoundRead() -> Bool {
        locked { s in
            if s.abandoned { return false }
            s.readingSound = true
            return true
        }
    }
    func endSoundRead() { locked { $0.readingSound = false } }

    /// Sleeps until `deadline` on the monotonic clock, or until a stop, abandonment, resync or recheck.
    func sleep(until deadline: Instant) {
        while !locked({ $0.interruptsSleep }) {
            let left = deadline - SystemClock.monotonic
            if left <= .zero { return }
            waitForRequest(atMost: left)
        }
    }

    /// Empties the request descriptor once poll() said it was readable (the requests themselves
    /// stay in the mailbox until `pending()` takes them).
    func drainRequests() { requests?.drain() }

    /// The worker's timed wait: returns when a request may have come (the caller looks at the
    /// mailbox again) or after `left`. The descriptor is emptied before the caller looks, so a
    /// request made after that look rings it again: none is missed.
    private func waitForRequest(atMost left: Duration) {
        let pause = min(left, .milliseconds(5))
        guard let requests else { return SystemClock.sleep(for: pause) }
        var fds = [Poll.Descriptor(fd: requests.fd, events: Poll.readable, revents: 0)]
        do {
            if try Poll.wait(&fds, timeout: left) > 0 { requests.drain() }
        } catch {
            // A poll that fails on the mailbox's own descriptor would fail again at once: a pause, not a spin.
            SystemClock.sleep(for: pause)
        }
    }

    private func signalWorker() { requests?.signal() }

    /// A held worker's wait for the deadline: true at the go; false after a stop, an abandonment,
    /// or `limit` without a go (then the loop can no longer adopt it).
    func awaitGo(limit: Duration) -> Bool {
        let deadline = SystemClock.monotonic + limit
        while true {
            let now = SystemClock.monotonic
            let answer: Bool? = locked { s in
                guard s.held && !s.stopRequested && !s.abandoned else { return !s.held && !s.stopRequested && !s.abandoned }
                guard now < deadline else {
                    s.gaveUp = true
                    return false
                }
                return nil
            }
            if let answer { return answer }
            waitForRequest(atMost: deadline - now)
        }
    }

    /// Last thing the worker does.
    func markEnded() { locked { $0.ended = true } }

    // MARK: the loop's side

    var hasEnded: Bool { locked { $0.ended } }

    var isReadingSound: Bool { locked { $0.readingSound } }

    func takeReports() -> [WorkerReport] {
        locked { s in
            defer { s.reports = [] }
            return s.reports
        }
    }

    var lastProgress: Instant { locked { $0.progress } }

    /// Frames written and loop seams passed so far.
    var counts: (frames: Int64, seams: Int64) { locked { ($0.framesWritten + $0.framesInFlight, $0.seamsPassed) } }

    /// What the worker's device has accepted so far: frames (not those in a write still under
    /// way), the peak written, whether it is a server's client, and when it started and was
    /// asked to stop.
    var reading: (frames: Int64, peak: Double, serverBacked: Bool, firstWrite: Instant?, stopAsked: Instant?) {
        locked { ($0.framesWritten, $0.peakWritten, $0.serverBacked, $0.firstWrite, $0.stopAsked) }
    }

    func requestStop() {
        locked { s in
            s.stopRequested = true
            s.stopAsked = s.stopAsked ?? SystemClock.monotonic
            signalWorker()
        }
    }

    /// The deadline of a pre-rolled worker: true when it goes on to play, false when it already
    /// gave up or ended (the loop starts a fresh worker instead).
    func requestGo(at now: Instant) -> Bool {
        locked { s in
            guard s.held, !s.gaveUp, !s.ended, !s.stopRequested, !s.abandoned else { return false }
            s.held = false
            s.progress = now  // the stall watch counts from the deadline, not from the pre-roll
            signalWorker()
            return true
        }
    }

    func requestResync(at now: Instant) {
        locked { s in
            s.resyncRequested = true
            s.progress = now
            signalWorker()
        }
    }

    func requestRecheck() {
        locked { s in
            s.recheckRequested = true
            signalWorker()
        }
    }

    /// Cuts the worker off. Returns whether its sound file is safe to lend to another worker.
    func abandon() -> Bool {
        locked { s in
            s.abandoned = true
            s.stopAsked = s.stopAsked ?? SystemClock.monotonic
            signalWorker()
            return !s.readingSound
        }
    }
}
