import WakeCore
import WakeSystem

/// The sound path the runner drives: an output worker per device attempt, watched from the
/// event loop. A worker that accepts no audio for the stall limit is abandoned (never joined,
/// its device never touched again) and the next output of the fallback chain starts on a fresh
/// worker, down to the built-in sound and the terminal bell. Every descriptor it needs is made
/// in `init`, when the alarm is set.
///
/// On the bell it does not give up: every `bellRetry` it walks the device steps of the chain
/// again (the requested device, `default`, each card), one probe worker at a time, supervised
/// like any other (a probe stuck on a hung server is abandoned after the stall limit, and no
/// more than two stuck ones are left behind before the retries wait for them to end); the
/// first probe whose device opens becomes the ring's output again (`backFromBell`).
/// The loop itself never waits on a probe.
///
/// With no bell to ring (no terminal: the daemon, a script, a closed ssh session) it does not give
/// up either: it goes `silent`, says so once with each step's failure, and probes the devices
/// every `silentRetry` the same way for as long as the ring lasts; the first device that opens
/// ends the silence (`backFromSilent`). Only the runner decides that a ring that never made a
/// sound failed, when its window is over.
public final class SupervisedOutput: SoundOutput {
    public var onEvent: ((OutputEvent) -> Void)?
    public var stallLimit: Duration = Defaults.stallLimit
    public var latency: Duration = Defaults.latency
    public var serverLatency: Duration = Defaults.serverLatency
    /// How long a stop waits for the worker's own report before going on without it.
    var stopWait: Duration = .milliseconds(100)
    /// While on the bell, how often the devices are tried again.
    var bellRetry: Duration = Defaults.bellRetry
    /// While silent (no bell), how often the devices are tried again.
    var silentRetry: Duration = Defaults.silentRetry

    private let reactor: Reactor
    private let clock: RuntimeClock
    /// Rung by the workers when they post a report.
    private let reports: EventSignal
    private var reportRegistration: Reactor.Registration?
    /// Watches for the end of a put-back of a dead wake's levels that the start gave up on.
    private var lateRestoreRegistration: Reactor.Registration?
    private var watchdog: PeriodicTimer!
    private var bellTimer: PeriodicTimer!
    private let bell: TerminalBell?
    /// Makes a fresh copy of wake's own sound for a fallback.
    private let builtInSound: () -> SoundFile?

    private enum State {
        case idle
        case device(WorkerMailbox, FallbackChain.Output)
        case bell
        /// No device works and there is no bell: probing until one does.
        case silent
    }

    /// No device works and there is no bell: `wake list` shows the ring as silent.
    public var isSilent: Bool {
        if case .silent = state { return true }
        return false
    }

    /// On the bell or silent: the probes run.
    private var isProbing: Bool {
        switch state {
        case .bell, .silent: return true
        case .idle, .device: return false
        }
    }

    /// While silent: when it began, the device attempts that failed since, the failures already
    /// reported (device and reason), and when the count was last reported.
    private var silentSince = Instant(nanoseconds: 0)
    private var silentTries = 0
    private var silentReported: Set<String> = []
    private var lastSilentReport = Instant(nanoseconds: 0)
    /// How often `stillSilent` repeats the count.
    private let silentReportEvery: Duration = .seconds(10)

    /// While on the bell: the worker trying a device now, the devices left in this round, and
    /// when the next round starts.
    private var probe: (mailbox: WorkerMailbox, output: FallbackChain.Output, stall: StallWatch)?
    private var probeQueue: [FallbackChain.Output] = []
    private var nextProbeRound = Instant(nanoseconds: 0)
    /// Probes abandoned while stuck whose threads have not returned yet.
    private var stuckProbes: [WorkerMailbox] = []
    /// Workers that raised a mixer and have not yet said they put it back.
    private var raisedBy: Set<Int> = []
    /// The mixer guard's saved levels, shared by every worker of this process (MixerGuard.swift).
    private let mixers = MixerLedger(directory: MixerStateStore.directory())

    private var state: State = .idle
    private var request: RingRequest?
    private var chain = FallbackChain(device: Defaults.device, sound: .builtIn)
    private var lastFailure = "" { didSet { if !lastFailure.isEmpty { failures.append("\(describe(chain.current)): \(lastFailure)") } } }
    /// Every step that failed during this ring, for the final word when nothing works.
    private var failures: [String] = []
    /// Sounds a worker may still be reading: never lent to another.
    private var poisoned: Set<ObjectIdentifier> = []
    private var spareBuiltIn: SoundFile?
    private var nextWorkerID = 0
    /// Workers asked to stop that have not yet said they have.
    private var stopping: [WorkerMailbox] = []
    private var stall = StallWatch(start: Instant(nanoseconds: 0))
    /// When the watchdog's next tick is due: one that comes over a second later means this
    /// process was not running (Ctrl-Z, a debugger).
    private var nextTick = Instant(nanoseconds: 0)
    private var cardNumbers: () -> [Int] = { PCM.cardNumbers() }
    /// The sound the chain last rang (what a return from the bell rings).
    private var lastSoundKind: FallbackChain.Sound = .builtIn
    /// How far this ring's crescendo has come on the workers left behind: the next one takes
    /// the fade up from there, not from -40 dB (a new ring, after a snooze too, starts afresh).
    private var crescendo = CrescendoPosition()
    /// The pre-roll: a worker that opened the first device of the coming ring ahead of its
    /// deadline and waits there; `start` adopts it when the ring is the one it was made for.
    private var prepared: (mailbox: WorkerMailbox, request: RingRequest)?
    /// Every worker that became this ring's output, in order, with its device: the meter.
    private var ringWorkers: [(mailbox: WorkerMailbox, output: FallbackChain.Output)] = []
    /// A folder or list as the sound: the entry the next worker opens first (the one playing,
    /// once a worker has said which), and the worker that last said so.
    private var entryIndex = 0
    private var chosenBy: Int?

    /// What this ring's outputs took so far (the last ring's, once it has ended), read from the
    /// workers' counters.
    public var meter: OutputMeter {
        OutputMeter(attempts: ringWorkers.compactMap { worker in
            guard case .device(let device, let sound) = worker.output else { return nil }
            let r = worker.mailbox.reading
            return OutputMeter.Attempt(device: device, sound: sound, frames: r.frames, rate: worker.mailbox.rate, peak: r.peak,
                                       serverBacked: r.serverBacked, firstFrame: r.firstWrite, stopRequested: r.stopAsked)
        })
    }

    public init(reactor: Reactor, clock: RuntimeClock, bell: TerminalBell?, builtInSound: @escaping () -> SoundFile?) throws(SystemCallError) {
        self.reactor = reactor
        self.clock = clock
        self.bell = bell
        self.builtInSound = builtInSound
        reports = try EventSignal()
        do {
            watchdog = try PeriodicTimer(reactor: reactor, interval: .seconds(1)) { [unowned self] in checkStall() }
            bellTimer = try PeriodicTimer(reactor: reactor, interval: .seconds(1)) { [unowned self] in self.bell?.ring() }
        } catch {
            // Every stored property is set by now, so deinit runs and closes `reports`: closing
            // it here too would close whatever another thread opened under that number.
            throw error
        }
        reportRegistration = reactor.register(fd: reports.fd) { [unowned self] _ in drainReports() }
        if let late = AbandonedRestore.shared.descriptor {
            lateRestoreRegistration = reactor.register(fd: late) { [unowned self] _ in lateRestoreEnded() }
        }
    }

    deinit {
        abandonAll()
        if let reportRegistration { reactor.unregister(reportRegistration) }
        if let lateRestoreRegistration { reactor.unregister(lateRestoreRegistration) }
        reports.close()
    }

    /// The put-back the start gave up on has ended (AbandonedRestore): said in one line, and the
    /// ringing worker (or the probe that may be about to take the ring back from the bell) looks
    /// at its mixer and stream again, since what that put-back had sent to a frozen server may
    /// have landed after it raised them. A worker started later raises its output as it opens.
    private func lateRestoreEnded() {
        guard let said = AbandonedRestore.shared.take() else { return }
        if let lateRestoreRegistration { reactor.unregister(lateRestoreRegistration) }
        lateRestoreRegistration = nil
        var looking: [WorkerMailbox] = []
        if case .device(let mailbox, _) = state { looking.append(mailbox) }
        if let probe { looking.append(probe.mailbox) }
        for mailbox in looking { mailbox.requestRecheck() }
        onEvent?(.mixerProblem(AbandonedRestore.report(said, ringing: !looking.isEmpty)))
    }

    // MARK: SoundOutput

    public func start(_ request: RingRequest) {
        let ready = prepared
        prepared = nil
        stop()
        // A worker still fading out from the last ring (a very short snooze) may be reading the
        // sound: cut it off rather than share the file with it.
        for mailbox in stopping { abandon(mailbox) }
        stopping = []
        self.request = request
        chain = FallbackChain(device: request.device, sound: request.soundKind)
        crescendo = CrescendoPosition()
        lastFailure = ""
        failures = []
        ringWorkers = []
        entryIndex = 0
        chosenBy = nil
        let now = clock.monotonic()
        startWatchdog()
        if let ready {
            // The same request: the chain's first step is the device it opened.
            if ready.request.isSameRing(as: request), ready.mailbox.requestGo(at: now) {
                state = .device(ready.mailbox, chain.current)
                ringWorkers.append((ready.mailbox, chain.current))
                stall = StallWatch(limit: stallLimit, start: now)
                return
            }
            // Made for another ring, or it gave up waiting: closed, and the ring opens afresh.
            closePrepared(ready.mailbox)
        }
        launch(chain.current)
    }

    public func prepare(_ request: RingRequest) {
        guard case .idle = state else { return }  // ringing: the next ring starts from this one's device
        discardPrepared()
        let first = FallbackChain(device: request.device, sound: request.soundKind).current
        guard case .device = first, case .success(let mailbox) = spawn(first, for: request, held: true) else { return }
        prepared = (mailbox, request)
    }

    public func discardPrepared() {
        guard let ready = prepared else { return }
        prepared = nil
        closePrepared(ready.mailbox)
    }

    /// A pre-rolled worker not adopted: told to close its device. One still decoding the first
    /// audio (a ring started the moment it was made) keeps its sound from the next worker, as a
    /// stuck one does; one that already ended (its device did not open) is not waited for.
    private func closePrepared(_ mailbox: WorkerMailbox) {
        mailbox.requestStop()
        if mailbox.isReadingSound, let sound = mailbox.sound { poisoned.insert(sound) }
        if !mailbox.hasEnded { stopping.append(mailbox) }
    }

    public func fadeNow(over span: Duration) {
        if case .device(let mailbox, _) = state { mailbox.requestFadeNow(over: span) }
    }

    public func shiftFadeOut(by span: Duration) {
        // The outputs after this one (a fallback) start with it where it now is.
        request?.fadeOut?.after += span
        if case .device(let mailbox, _) = state { mailbox.requestFadeShift(by: span) }
    }

    public func stop() {
        switch state {
        case .device(let mailbox, _):
            // A healthy worker fades, closes and reports within a few tens of milliseconds:
            // wait that long for its exact figures, so the ring's record comes before the
            // alarm's outcome. A stuck one is not waited for: it is reported with the figures
            // it had reached, and finishes (or not) on its own.
            mailbox.requestStop()
            stopping.append(mailbox)
            if let (frames, seams) = awaitStopped(mailbox, within: stopWait) {
                onEvent?(.stopped(frames: frames, seams: seams))
            } else {
                let counts = mailbox.counts
                onEvent?(.stopped(frames: counts.frames, seams: counts.seams))
            }
        case .bell, .silent:
            bellTimer.stop()
            if let probe {
                // A probe may have raised a mixer: a stop lets it put it back on its own time.
                probe.mailbox.requestStop()
                stopping.append(probe.mailbox)
                self.probe = nil
            }
            probeQueue = []
            onEvent?(.stopped(frames: 0, seams: 0))
        case .idle:
            break
        }
        state = .idle
        watchdog.stop()
    }

    public func resume() {
        let now = clock.monotonic()
        stall.progressed(at: now)
        if case .device(let mailbox, _) = state { mailbox.requestResync(at: now) }
    }

    public func finish(within limit: Duration) {
        discardPrepared()
        stop()
        let start = clock.monotonic()
        while !stopping.isEmpty {
            // A worker still holding a raised mixer is given up to the stall limit to put it
            // back (the sound is already off): else the levels wait for the next start.
            let holding = stopping.contains { raisedBy.contains($0.id) }
            let deadline = start + (holding ? max(limit, stallLimit) : limit)
            let left = deadline - clock.monotonic()
            guard left > .zero else { break }
            _ = try? Poll.waitReadable(reports.fd, within: left)  // a failed poll only makes this loop look again sooner
            drainReports()
        }
        abandonAll()
    }

    // MARK: the chain

    private func launch(_ output: FallbackChain.Output) {
        guard case .device = output else { return startBell() }
        switch spawn(output) {
        case .success(let mailbox):
            state = .device(mailbox, output)
            ringWorkers.append((mailbox, output))
            stall = StallWatch(limit: stallLimit, start: clock.monotonic())
        case .failure(let failure):
            state = .idle
            advance(after: failure.kind)
        }
    }

    private struct SpawnFailure: Error {
        var kind: FallbackChain.Failure
    }

    /// Starts a worker for `output` (a device) of `request` (the ring's own by default); on
    /// failure `lastFailure` says why, except for a pre-roll (`held`), which is only a head start.
    private func spawn(_ output: FallbackChain.Output, for ring: RingRequest? = nil, held: Bool = false) -> Result<WorkerMailbox, SpawnFailure> {
        func failed(_ kind: FallbackChain.Failure, _ reason: String) -> Result<WorkerMailbox, SpawnFailure> {
            if !held { lastFailure = reason }
            return .failure(SpawnFailure(kind: kind))
        }
        guard case .device(let device, let kind) = output, let request = ring ?? request else { return failed(.device, "no device") }
        // A pre-roll belongs to the coming ring, whose crescendo has not begun.
        let start = held ? CrescendoPosition() : crescendo
        nextWorkerID += 1
        let mailbox = WorkerMailbox(id: nextWorkerID, wake: reports, start: clock.monotonic(), held: held)
        let source: OutputWorker.Source
        if kind == .user && request.playsEntries {
            // Opened by the worker, its own file: no other worker ever reads it. The rate comes with `chosen`.
            source = .entries(request.entries, first: held ? 0 : entryIndex, volume: request.volume, fadeIn: request.fadeIn, crescendo: start,
                              speech: request.speech?.clip, fadeOut: request.fadeOut)
        } else {
            guard let sound = sound(kind, request) else { return failed(.device, "wake's built-in sound could not be opened") }
            mailbox.sound = ObjectIdentifier(sound)
            mailbox.rate = sound.sampleRate
            let looping = LoopingSource(sound: sound, volume: request.volume, fadeIn: request.fadeIn, crescendo: start,
                                        speech: request.speech?.frames(for: sound), fadeOut: request.fadeOut)
            do {
                try looping.rewind()
            } catch {
                return failed(.sound, error.description)
            }
            source = .ready(looping)
        }
        do {
            try OutputWorker.spawn(.init(device: device, source: source, latency: latency, serverLatency: serverLatency,
                                         unpaced: request.unpaced, ledger: mixers, mixer: request.mixer,
                                         leavesUserLevels: request.leavesUserLevels, held: held,
                                         sink: request.sink.flatMap { SinkChoice.pcm(choice: $0) == device ? $0 : nil },
                                         streamName: request.streamName),
                                   mailbox: mailbox)
        } catch {
            return failed(.device, "cannot start the sound thread (\(error))")
        }
        return .success(mailbox)
    }

    /// The sound for `kind`: the alarm's own while no stuck worker may be reading it, else a
    /// fresh built-in one.
    private func sound(_ kind: FallbackChain.Sound, _ request: RingRequest) -> SoundFile? {
        if kind == request.soundKind, !request.playsEntries, !request.switchedToBuiltIn,
           !poisoned.contains(ObjectIdentifier(request.sound)) {
            return request.sound
        }
        if let spare = spareBuiltIn, !poisoned.contains(ObjectIdentifier(spare)) { return spare }
        spareBuiltIn = builtInSound()
        return spareBuiltIn
    }

    private func advance(after failure: FallbackChain.Failure) {
        let from = describe(chain.current)
        if case .device(_, let kind) = chain.current { lastSoundKind = failure == .sound ? .builtIn : kind }
        let next = chain.advance(after: failure, cards: cardNumbers)
        // With no terminal there is no bell to fall back to: the failure itself is the news.
        if next != .bell || bell != nil { onEvent?(.fallback(from: from, to: describe(next), reason: lastFailure)) }
        // A folder's or list's files all failed: what rings now is wake's own sound, not the
        // file the ring line and the notification named.
        if failure == .sound, request?.playsEntries == true, case .device(_, .builtIn) = next { onEvent?(.builtInChosen) }
        launch(next)
    }

    private func describe(_ output: FallbackChain.Output) -> String {
        switch output {
        case .device(let d, .user): return d
        case .device(let d, .builtIn): return request?.soundKind == .builtIn ? d : "built-in sound on \(d)"
        case .bell: return "bell"
        }
    }

    private func startBell() {
        probe = nil
        probeQueue = []
        // The watchdog ticks every second again (a healthy device had it look less often): on
        // the bell and while silent it paces the retries and watches the probes.
        startWatchdog()
        guard let bell, bell.ring() else { return startSilence() }
        state = .bell
        bellTimer.start()
        onEvent?(.bell)
        nextProbeRound = clock.monotonic() + bellRetry
    }

    /// No device works and no bell can ring: said once, then the devices are probed every
    /// `silentRetry` (the watchdog keeps ticking) until one works or the ring ends.
    private func startSilence() {
        state = .silent
        let now = clock.monotonic()
        silentSince = now
        lastSilentReport = now
        silentTries = failures.count
        silentReported = Set(failures)
        onEvent?(.silent(reason: "no sound device works (\(failures.joined(separator: "; "))) and there is no terminal to ring the bell on",
                         retry: silentRetry))
        nextProbeRound = now + silentRetry
    }

    /// While silent, a probe of `device` failed: the first failure of each kind is said, the rest counted.
    private func noteSilentFailure(_ output: FallbackChain.Output, _ reason: String) {
        silentTries += 1
        let step = describe(output)
        if silentReported.insert("\(step): \(reason)").inserted { onEvent?(.silentStep(device: step, reason: reason)) }
    }

    // MARK: back from the bell

    /// The devices to try again, in the chain's order: the requested one, `default`, each card.
    private func probeRound() -> [FallbackChain.Output] {
        guard let request else { return [] }
        // Only on the bell, so the chain's last device step is what `lastSoundKind` recorded.
        return FallbackChain.deviceSteps(requested: request.device, cards: cardNumbers()).map { .device($0, lastSoundKind) }
    }

    /// On each watchdog tick while on the bell or silent: watches the probe, or starts the next one.
    private func tickOnBell(_ now: Instant) {
        if case .silent = state, now - lastSilentReport >= silentReportEvery {
            lastSilentReport = now
            onEvent?(.stillSilent(tries: silentTries, for: now - silentSince))
        }
        if let p = probe {
            var watch = p.stall
            watch.progressed(at: p.mailbox.lastProgress)
            guard watch.isStalled(at: now) else { return }
            abandon(p.mailbox)
            stuckProbes.append(p.mailbox)
            probe = nil
            if case .silent = state {
                noteSilentFailure(p.output, "the device did not answer for \(Formatting.span(stallLimit)) (stalled)")
            }
        }
        stuckProbes.removeAll { $0.hasEnded }
        // Threads stuck on a hung server are not piled up: wait for them to come back first.
        guard stuckProbes.count < 2 else { return }
        if probeQueue.isEmpty {
            guard now >= nextProbeRound else { return }
            probeQueue = probeRound()
            if case .silent = state { nextProbeRound = now + silentRetry } else { nextProbeRound = now + bellRetry }
        }
        startNextProbe()
    }

    private func startNextProbe() {
        while !probeQueue.isEmpty {
            let output = probeQueue.removeFirst()
            if case .success(let mailbox) = spawn(output) {
                probe = (mailbox, output, StallWatch(limit: stallLimit, start: clock.monotonic()))
                return
            }
            if case .silent = state { noteSilentFailure(output, lastFailure) }
        }
    }

    /// A probe's device opened: the ring is back on it.
    private func backFromBell(_ mailbox: WorkerMailbox, _ output: FallbackChain.Output) {
        let wasSilent: Bool
        if case .silent = state { wasSilent = true } else { wasSilent = false }
        probe = nil
        probeQueue = []
        bellTimer.stop()
        if case .device(let device, let kind) = output {
            chain = FallbackChain(device: device, sound: kind)
            failures = []
            if wasSilent {
                onEvent?(.backFromSilent(device: device, tries: silentTries, silentFor: clock.monotonic() - silentSince))
            } else {
                onEvent?(.backFromBell(device: device))
            }
        }
        state = .device(mailbox, output)
        ringWorkers.append((mailbox, output))
        stall = StallWatch(limit: stallLimit, start: clock.monotonic())
        stall.progressed(at: mailbox.lastProgress)
    }

    // MARK: reports and the watchdog

    /// Waits at most `limit` for `mailbox`'s worker to report that it stopped.
    private func awaitStopped(_ mailbox: WorkerMailbox, within limit: Duration) -> (Int64, Int64)? {
        let deadline = clock.monotonic() + limit
        while true {
            for report in mailbox.takeReports() {
                switch report {
                case .stopped(let frames, let seams):
                    stopping.removeAll { $0 === mailbox }
                    raisedBy.remove(mailbox.id)
                    return (frames, seams)
                default:
                    forward(report, from: mailbox)
                }
            }
            let left = deadline - clock.monotonic()
            guard left > .zero else { return nil }
            _ = try? Poll.waitReadable(reports.fd, within: left)  // a failed poll only makes this loop look again sooner
            reports.drain()
        }
    }

    private func drainReports() {
        reports.drain()
        for mailbox in stopping {
            for report in mailbox.takeReports() {
                switch report {
                case .stopped, .failed:  // either is a worker's last word
                    stopping.removeAll { $0 === mailbox }
                    raisedBy.remove(mailbox.id)
                default: forward(report, from: mailbox)
                }
            }
        }
        if isProbing, let p = probe {
            var reports = p.mailbox.takeReports()[...]
            while let report = reports.popFirst() {
                switch report {
                case .opened:
                    backFromBell(p.mailbox, p.output)
                    return handle([report] + Array(reports), from: p.mailbox, output: p.output)
                case .failed(_, let reason):
                    // Not back yet: the next device of this round, or the next round.
                    if case .silent = state { noteSilentFailure(p.output, reason) }
                    probe = nil
                    startNextProbe()
                    return
                default:
                    forward(report, from: p.mailbox)
                }
            }
            return
        }
        guard case .device(let mailbox, let output) = state else { return }
        handle(mailbox.takeReports(), from: mailbox, output: output)
    }

    /// Reports that only say something (underruns, the mixer guard): passed on as events.
    private func forward(_ report: WorkerReport, from mailbox: WorkerMailbox) {
        switch report {
        case .recovered(let what, let count): onEvent?(.recovered(what: what, count: count))
        case .mixerRaised(let mixer, let from, let to):
            raisedBy.insert(mailbox.id)
            onEvent?(.mixerRaised(mixer: mixer, from: from, to: to))
        case .mixerRestored(let mixer, let to, let kept):
            raisedBy.remove(mailbox.id)
            onEvent?(.mixerRestored(mixer: mixer, to: to, keptChanges: kept))
        case .mixerProblem(let reason): onEvent?(.mixerProblem(reason))
        case .sinkMoved(let chosen, let change):
            onEvent?(.sinkMoved(chosen: chosen, to: change.now.name, description: change.now.description, chosenGone: change.chosenGone))
        case .chosen(_, _, let rate, _): mailbox.rate = rate
        case .opened, .firstFrame, .failed, .stopped: break
        }
    }

    /// The reports of the worker that is the ring's output now.
    private func handle(_ reports: [WorkerReport], from mailbox: WorkerMailbox, output: FallbackChain.Output) {
        for report in reports {
            switch report {
            case .opened(let format, let paced):
                onEvent?(.opened(device: output.deviceName ?? "?", format: format, paced: paced))
            case .firstFrame:
                onEvent?(.audible)
            case .chosen(let index, let path, let rate, let skipped):
                mailbox.rate = rate
                entryIndex = index
                chosenBy = mailbox.id
                let tried = skipped.map(\.path) + [path]
                for (i, entry) in skipped.enumerated() {
                    onEvent?(.entryFailed(path: entry.path, next: tried[i + 1], reason: entry.reason))
                }
                onEvent?(.soundChosen(path: path))
            case .failed(let failure, let reason):
                state = .idle
                lastFailure = reason
                leftBehind(mailbox)
                // A file of a folder or list that opened and then failed to decode: the next
                // file, on the same device, before wake's own sound.
                if failure == .sound, chosenBy == mailbox.id, let request, request.playsEntries,
                   case .device(_, .user) = output, entryIndex + 1 < request.entries.count {
                    onEvent?(.entryFailed(path: request.entries[entryIndex], next: request.entries[entryIndex + 1], reason: reason))
                    entryIndex += 1
                    chosenBy = nil
                    return launch(output)
                }
                return advance(after: failure)
            case .stopped:
                break  // only after a stop, which moved the worker to `stopping`
            case .recovered, .mixerRaised, .mixerRestored, .mixerProblem, .sinkMoved:
                forward(report, from: mailbox)
            }
        }
    }

    private func startWatchdog(firstTickIn first: Duration = .seconds(1)) {
        watchdog.start(firstTickIn: first)
        nextTick = clock.monotonic() + first
    }

    private func checkStall() {
        let now = clock.monotonic()
        let late = now - nextTick
        nextTick = now + .seconds(1)  // the timer's own period, unless started afresh below
        if isProbing { return tickOnBell(now) }
        guard case .device(let mailbox, _) = state else { return }
        // A tick that came late means this process was not running (Ctrl-Z, a debugger):
        // the device cannot be blamed for that time.
        if late > .seconds(1) {
            stall.progressed(at: now)
            mailbox.requestResync(at: now)
            return
        }
        stall.progressed(at: mailbox.lastProgress)
        guard stall.isStalled(at: clock.monotonic()) else {
            // A healthy device: the next look is when the stall limit would run out with no
            // more progress, so a ring wakes this thread once per limit, not every second
            // (issue 28: 60 -> 20 wake-ups and 7.7 -> 3.0 ms of CPU a minute on PipeWire).
            return startWatchdog(firstTickIn: stall.lastProgress + stallLimit - now + .milliseconds(10))
        }
        state = .idle
        abandon(mailbox)
        leftBehind(mailbox)
        lastFailure = "the device did not answer for \(Formatting.span(stallLimit)) (stalled)"
        advance(after: .device)
    }

    /// The ring's worker is replaced: what it played counts towards the crescendo.
    private func leftBehind(_ mailbox: WorkerMailbox) {
        crescendo.add(frames: mailbox.counts.frames, rate: mailbox.rate)
    }

    private func abandon(_ mailbox: WorkerMailbox) {
        if !mailbox.abandon(), let sound = mailbox.sound { poisoned.insert(sound) }
    }

    private func abandonAll() {
        if let ready = prepared { abandon(ready.mailbox) }  // its reports must never reach a closed descriptor
        prepared = nil
        if case .device(let mailbox, _) = state { abandon(mailbox) }
        if let probe { abandon(probe.mailbox) }
        probe = nil
        probeQueue = []
        for mailbox in stopping { abandon(mailbox) }
        stopping = []
        state = .idle
    }
}
