import Synchronization
import WakeCore
import WakeSystem

/// The thread that runs hooks, so that no `posix_spawn`, pipe or wait is ever on the loop that
/// rings: the loop hands it jobs and is rung back with what they did. One hook's runs go in the
/// order of their events (a lamp is switched on before it is switched off); different hooks run
/// side by side. A run past its limit gets SIGTERM with its process group, and SIGKILL
/// `killGrace` later.
final class HookWorker: Sendable {
    struct Job: Sendable {
        /// What serialises runs: the hook's file, or a `--hook`'s text.
        var key: String
        /// How messages name it: the file's name, or the command's first word.
        var name: String
        var event: String
        var path: String
        var arguments: [String]
        var environment: [String]
        var input: [UInt8]
        var timeout: Duration
        var directory: String?
    }

    struct Outcome: Sendable {
        var job: Job
        enum Ending: Sendable, Equatable {
            case exited(Int32)
            case signalled(Int32)
            case killed(after: Duration)
            case notStarted(String)
        }
        var ending: Ending
        /// Its first lines of output, and how many more it wrote.
        var lines: [String]
        var moreLines: Int
        var succeeded: Bool { ending == .exited(0) }
    }

    static let killGrace: Duration = .seconds(2)
    static let shownLines = 5
    static let lineLimit = 200
    /// Runs of one hook waiting their turn; past it, a run is dropped and said.
    static let queueLimit = 32
    /// The event whose waiting run a newer one replaces.
    static let coalescedEvent = "armed"

    private struct Shared {
        var incoming: [Job] = []
        var done: [Outcome] = []
        var dropped: [Job] = []
        var busy = 0
    }
    private let shared = Mutex(Shared())
    private let doorbell: EventSignal
    /// Rung when outcomes wait in `take`.
    let loopSignal: EventSignal

    /// How long a run past its limit has, after SIGTERM, before SIGKILL.
    let killGrace: Duration

    init(killGrace: Duration = HookWorker.killGrace) throws(SystemCallError) {
        self.killGrace = killGrace
        doorbell = try EventSignal()
        do { loopSignal = try EventSignal() } catch { doorbell.close(); throw error }
        let worker = self
        try DetachedThread.start { worker.run() }
    }

    func submit(_ job: Job) {
        shared.withLock { $0.incoming.append(job); $0.busy += 1 }
        doorbell.signal()
    }

    /// What finished (or was dropped) since the last call.
    func take() -> (done: [Outcome], dropped: [Job]) {
        loopSignal.drain()
        return shared.withLock { s in
            defer { s.done = []; s.dropped = [] }
            return (s.done, s.dropped)
        }
    }

    /// Jobs handed over and not yet finished.
    var busy: Int { shared.withLock { $0.busy } }

    // MARK: the thread

    private struct Running {
        var job: Job
        var process: HookProcess
        var written = 0
        var started: Instant
        var termAt: Instant?
        var ending: HookProcess.Ending?
        var partial: [UInt8] = []
        var lines: [String] = []
        var more = 0
    }

    private func run() {
        HookProcess.blockBrokenPipeOnThisThread()
        var queues: [String: [Job]] = [:]
        var running: [String: Running] = [:]
        var order: [String] = []  // keys with work, in arrival order
        while true {
            let now = SystemClock.monotonic
            for job in shared.withLock({ s -> [Job] in defer { s.incoming = [] }; return s.incoming }) {
                // A daemon's start arms every alarm at once: a hook still waiting to hear one `armed`
                // hears the latest instead (whose WAKE_NEXT is the state after them all), not a storm.
                if job.event == Self.coalescedEvent, let last = queues[job.key]?.indices.last,
                   queues[job.key]?[last].event == job.event {
                    queues[job.key]?[last] = job
                    finish(nil)
                    continue
                }
                if queues[job.key, default: []].count >= Self.queueLimit {
                    finish(nil, dropped: job)
                    continue
                }
                if queues[job.key] == nil && running[job.key] == nil { order.append(job.key) }
                queues[job.key, default: []].append(job)
            }
            // One that cannot start gives way to the next of its key at once: nothing else would wake
            // this thread for it (no process runs to end), and it would wait for the next event.
            for key in order where running[key] == nil {
                while running[key] == nil, var q = queues[key], !q.isEmpty {
                    let job = q.removeFirst()
                    queues[key] = q
                    do {
                        let p = try HookProcess.start(path: job.path, arguments: job.arguments, environment: job.environment,
                                                      directory: job.directory)
                        running[key] = Running(job: job, process: p, started: now)
                    } catch {
                        finish(Outcome(job: job, ending: .notStarted(error.description), lines: [], moreLines: 0))
                    }
                }
            }
            for key in order where running[key] == nil && (queues[key]?.isEmpty ?? true) { queues[key] = nil }
            order.removeAll { running[$0] == nil && queues[$0] == nil }

            // Wait for a doorbell, output, room on an input, an end, or the nearest limit.
            var fds = [Poll.Descriptor(fd: doorbell.fd, events: Poll.readable, revents: 0)]
            var slots: [(key: String, what: Int)] = []
            var nearest: Instant?
            for (key, r) in running {
                func watch(_ fd: Int32, _ events: Int16, _ what: Int) {
                    fds.append(Poll.Descriptor(fd: fd, events: events, revents: 0))
                    slots.append((key, what))
                }
                if r.process.outputFD >= 0 { watch(r.process.outputFD, Poll.readable, 0) }
                if r.process.inputFD >= 0 { watch(r.process.inputFD, Poll.writable, 1) }
                if r.process.exitFD >= 0 && r.ending == nil { watch(r.process.exitFD, Poll.readable, 2) }
                let limit = r.termAt.map { $0 + killGrace } ?? (r.started + r.job.timeout)
                // Without a pidfd, an end is looked for a few times a second.
                let due = r.process.exitFD < 0 && r.ending == nil ? min(limit, now + .milliseconds(100)) : limit
                nearest = nearest.map { min($0, due) } ?? due
            }
            _ = try? Poll.wait(&fds, timeout: nearest.map { max(.zero, $0 - now) })
            if fds[0].revents != 0 { doorbell.drain() }
            let after = SystemClock.monotonic
            for (i, slot) in slots.enumerated() where fds[i + 1].revents != 0 {
                guard var r = running[slot.key] else { continue }
                switch slot.what {
                case 0: readOutput(&r)
                case 1:
                    r.written = r.process.write(r.job.input, from: r.written)
                    if r.written >= r.job.input.count { r.process.closeInput() }
                default: r.ending = r.process.reap()
                }
                running[slot.key] = r
            }
            for (key, var r) in running {
                if r.ending == nil, r.process.exitFD < 0 { r.ending = r.process.reap() }
                if r.ending == nil {
                    if let term = r.termAt, after >= term + killGrace {
                        r.process.killGroup()
                        r.ending = r.process.reap(waiting: true)
                    } else if r.termAt == nil, after >= r.started + r.job.timeout {
                        r.process.terminateGroup()
                        r.termAt = after
                    }
                }
                // Ended, and its output read to the end or left to whatever it started in the background.
                if let ending = r.ending {
                    readOutput(&r)
                    if !r.partial.isEmpty { keep(&r, r.partial); r.partial = [] }
                    r.process.closeInput(); r.process.closeOutput(); r.process.closeExit()
                    running[key] = nil
                    let end: Outcome.Ending
                    if r.termAt != nil {
                        end = .killed(after: r.job.timeout)
                    } else {
                        switch ending {
                        case .status(let s): end = .exited(s)
                        case .signal(let s): end = .signalled(s)
                        }
                    }
                    finish(Outcome(job: r.job, ending: end, lines: r.lines, moreLines: r.more))
                } else {
                    running[key] = r
                }
            }
        }
    }

    private func readOutput(_ r: inout Running) {
        guard r.process.outputFD >= 0 else { return }
        for _ in 0..<16 {
            guard let bytes = r.process.read() else { r.process.closeOutput(); return }
            if bytes.isEmpty { return }
            r.partial += bytes
            while let nl = r.partial.firstIndex(of: UInt8(ascii: "\n")) {
                keep(&r, Array(r.partial[..<nl]))
                r.partial.removeSubrange(...nl)
            }
            // A line without an end, too long to hold: shown as it is.
            if r.partial.count > Self.lineLimit * 4 { keep(&r, r.partial); r.partial = [] }
        }
    }

    private func keep(_ r: inout Running, _ line: [UInt8]) {
        if r.lines.count < Self.shownLines {
            r.lines.append(String(decoding: line.prefix(Self.lineLimit), as: UTF8.self))
        } else {
            r.more += 1
        }
    }

    private func finish(_ outcome: Outcome?, dropped: Job? = nil) {
        shared.withLock { s in
            if let outcome { s.done.append(outcome) }
            if let dropped { s.dropped.append(dropped) }
            s.busy -= 1
        }
        loopSignal.signal()
    }
}
