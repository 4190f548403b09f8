import Glibc
import Synchronization
import WakeCore
import WakeSystem

/// One device's sound on a thread of its own. Every call that can block inside a library (ALSA
/// open, configure, write, drop, close; libsndfile reads) happens here, never on the event loop:
/// an ALSA plugin talking to a hung sound server blocks for tens of seconds whatever mode the PCM
/// was opened in. The loop supervises through the mailbox and abandons a worker that stalls.
final class OutputWorker: @unchecked Sendable {
    /// Where the sound comes from: opened by the loop when the alarm was set, or the files of a
    /// folder or list, opened here in turn from `first` (a libsndfile open at ring time never
    /// runs on the loop) until one opens.
    enum Source {
        case ready(LoopingSource)
        /// `speech` (`--say on`): the clip, fitted here to the format of the file that opens.
        case entries([String], first: Int, volume: Int, fadeIn: Duration, crescendo: CrescendoPosition, speech: SpeechClip?,
                     fadeOut: FadeOut?)
    }

    struct Job {
        var device: String
        var source: Source
        var latency: Duration
        var serverLatency: Duration
        var unpaced: Bool
        /// The mixer guard's ledger (the save file) and policy. With `--mixer off` the ALSA mixer
        /// and the sink are left alone, but wake's own stream on a sound server is still raised.
        var ledger: MixerLedger
        var mixer: MixerPolicy
        /// A quiet `wake test` (`RingRequest.leavesUserLevels`): the ALSA mixer and the sink are
        /// left as they are, as with `--mixer off`; the stream is still raised.
        var leavesUserLevels = false
        /// Pre-roll: open the device and decode the first audio, then wait for the mailbox's go.
        var held = false
        /// `--sink`: the sink `device` opens a stream on; where the server moves it is followed.
        var sink: String?
        /// What the volume control calls the stream on a sound server ("Alarm 06:30 (work)").
        var streamName = RingRequest.defaultStreamName
    }

    let mailbox: WorkerMailbox
    private let job: Job

    private init(job: Job, mailbox: WorkerMailbox) {
        self.job = job
        self.mailbox = mailbox
    }

    /// Starts the thread; throws when no thread can be made (the caller falls back).
    static func spawn(_ job: Job, mailbox: WorkerMailbox) throws(SystemCallError) {
        let worker = OutputWorker(job: job, mailbox: mailbox)
        try DetachedThread.start { worker.run() }
    }

    private var raisedMixer: MixerLedger.Token?
    private var raisedStream: SoundServerStream.Change?
    private var follower: SinkFollower?
    /// `--sink`: the chosen sink is back after it was gone (the follower says so); the stream is
    /// made again on it.
    private let reopenWanted = Mutex(false)
    /// `--sink all`: the combined sink's module this worker loaded (or took over), unloaded when it ends.
    private var combined: UInt32?
    private var written: Int64 = 0
    /// The loudest sample written so far (a fraction of full scale), for the meter.
    private var peak: Double = 0
    /// What `waitForRoom` polls, kept from one wait to the next: the PCM's descriptors, then the
    /// mailbox's request eventfd.
    private var pollSet: [Poll.Descriptor] = []
    private var sawFirstFrame = false
    private var recoveredCount = 0
    private var recoveredKind = ""
    private var lastRecoveredReport = Instant(nanoseconds: 0)

    private func run() {
        defer {
            follower?.stop()
            releaseCombined()
            mailbox.markEnded()
        }
        let source: LoopingSource
        switch job.source {
        case .ready(let ready):
            source = ready
        case .entries(let paths, let first, let volume, let fadeIn, let crescendo, let speech, let fadeOut):
            guard let opened = openEntry(paths, from: first, volume: volume, fadeIn: fadeIn, crescendo: crescendo, speech: speech,
                                         fadeOut: fadeOut) else { return }
            source = opened
        }
        play(source)
    }

    /// The first of `paths` from `first` on that opens and decodes, said with those that failed
    /// before it; nil when none does (the loop is told, and rings wake's own sound) or when the
    /// loop gave up on this worker meanwhile.
    private func openEntry(_ paths: [String], from first: Int, volume: Int, fadeIn: Duration, crescendo: CrescendoPosition,
                           speech: SpeechClip?, fadeOut: FadeOut?) -> LoopingSource? {
        var skipped: [SkippedEntry] = []
        for index in paths.indices where index >= first {
            if mailbox.isAbandoned { return nil }
            let path = paths[index]
            let sound: SoundFile
            do {
                // A long file takes a while to decode: that is progress, not a stalled device.
                sound = try SoundFile(path: path, interrupted: { [mailbox] in
                    mailbox.madeProgress(at: SystemClock.monotonic, frames: 0, seams: 0)
                    return mailbox.isAbandoned ? SIGTERM : nil
                })
            } catch {
                if error.signal != nil { return nil }
                skipped.append(SkippedEntry(path: path, reason: error.reason))
                continue
            }
            // The file's format is known only now; fitting a clip of a second or two takes well under a millisecond.
            let frames = speech.map { SpeechFrames($0, format: .init(rate: sound.sampleRate, channels: sound.channels, width: sound.width)) }
            let source = LoopingSource(sound: sound, volume: volume, fadeIn: fadeIn, crescendo: crescendo, speech: frames, fadeOut: fadeOut)
            do { try source.rewind() } catch {
                skipped.append(SkippedEntry(path: path, reason: error.description))
                continue
            }
            mailbox.post(.chosen(index: index, path: path, rate: sound.sampleRate, skipped: skipped))
            return source
        }
        let why = skipped.map { "'\($0.path.printable)': \($0.reason)" }.joined(separator: "; ")
        mailbox.post(.failed(.sound, "no file of the folder or list opens (\(why))"))
        return nil
    }

    private func play(_ source: LoopingSource) {
        // `--sink all`: the server combines every sink for this ring. Should it fail (no such
        // module), the PCM below fails to open, or plays on the default sink, and that is said.
        if job.sink == SinkChoice.all {
            do { combined = try SoundServerStream.combineAllSinks() } catch {
                mailbox.post(.mixerProblem("--sink all: " + error.description))
            }
            if mailbox.isAbandoned { return }
        }
        var pcm: any PlaybackDevice
        do { pcm = try openDevice(source) } catch {
            return mailbox.post(.failed(.device, error.description))
        }
        if mailbox.isAbandoned { return }  // gave up on us while the open hung: never touch it again
        mailbox.noteOpened(serverBacked: pcm.isServerBacked)
        if job.held, !holdForTheDeadline(pcm, source) { return }
        // The mixer behind the device, now that the device is known to open (see MixerGuard.swift).
        if let floor = job.mixer.floor, !job.leavesUserLevels {
            raisedMixer = job.ledger.raise(device: job.device, floor: floor, worker: mailbox.id) { mailbox.post($0) }
            if mailbox.isAbandoned { return releaseMixer() }
        }
        // On a sound server: the sink wake's stream plays on must be a device (a server with none
        // plays into a dummy output), and the stream is raised, and with the guard that sink too.
        // The stream is wake's own even with --mixer off: a mute the server remembers from one
        // ring would otherwise silence every later one (issue 37).
        if SoundServerStream.isAskable(serverBacked: pcm.isServerBacked, device: job.device) {
            do {
                raisedStream = try job.ledger.raiseStream(streamFloor: job.mixer.floor ?? Defaults.minVolume, sinkFloor: sinkFloor,
                                                          sinkLeft: sinkLeft, worker: mailbox.id) { mailbox.post($0) }
            } catch {
                if error.isDummyOutput {
                    pcm.drop()
                    pcm.close()
                    releaseCombined()
                    releaseMixer()
                    return mailbox.post(.failed(.device, error.description))
                }
                // A server that cannot be asked is rung on as it is (raiseStream said so).
            }
            if mailbox.isAbandoned { return releaseMixer() }
            // On the sink the alarm chose: say where the server moves the stream if it goes.
            if let chosen = job.sink, chosen != SinkChoice.all {
                follower = try? SinkFollower.start(chosen: chosen, report: { [mailbox] change in
                    mailbox.post(.sinkMoved(chosen: chosen, change: change))
                }, returned: { [weak self, requests = mailbox.requests] in
                    self?.reopenWanted.withLock { $0 = true }
                    _ = requests?.signal()
                })
            }
        }
        let paced = pcm.isClockless && !job.unpaced
        mailbox.post(.opened(format: "\(pcm.format), \(pcm.channels) ch, \(pcm.rate) Hz, buffer \(pcm.bufferFrames) frames", paced: paced))
        let schedule = PacingSchedule(rate: pcm.rate, lead: job.latency)
        var start = SystemClock.monotonic
        mailbox.madeProgress(at: start, frames: 0, seams: 0)

        while true {
            let turn = mailbox.pending()
            switch turn.request {
            case .abandoned: return releaseMixer()
            case .stop: return stop(pcm, source)
            case .resync:
                // Pick up as if the frames written so far had been played up to now.
                start = SystemClock.monotonic - schedule.timeDue(ofFrame: written)
            case .recheck: recheckGuard(pcm)
            case .go: break
            }
            if let span = turn.fadeNow { source.fadeFromNow(over: span) }
            if turn.fadeShift > .zero { source.shiftFade(by: turn.fadeShift) }
            if reopenWanted.withLock({ wanted in defer { wanted = false }; return wanted }) {
                guard let again = reopen(pcm, source) else { return }
                pcm = again
            }
            if source.pending.frames == 0 {
                guard mailbox.beginSoundRead() else { return releaseMixer() }
                do { try source.fill() } catch {
                    mailbox.endSoundRead()
                    pcm.drop()
                    pcm.close()
                    releaseCombined()
                    releaseMixer()
                    return mailbox.post(.failed(.sound, "decoding '\(source.sound.path.printable)' failed: \(error.description)"))
                }
                mailbox.endSoundRead()
            }
            var want = source.pending.frames
            if paced {
                let due = schedule.framesDue(after: SystemClock.monotonic - start)
                if written >= due {
                    // Wake when the next 20 ms of audio are due, or at once for a stop.
                    mailbox.sleep(until: start + schedule.timeDue(ofFrame: written + Int64(pcm.rate / 50)))
                    continue
                }
                want = Int(min(Int64(want), due - written))
            }
            guard mailbox.beginWrite(want) else { continue }  // the stop or abandonment is taken at the top of the loop
            let r = pcm.play(source.pending.pointer, frames: want)
            if r != want { mailbox.endWrite() }
            if r > 0 {
                peak = max(peak, source.peak(ofPending: r))
                source.consumed(r)
                written += Int64(r)
                mailbox.madeProgress(at: SystemClock.monotonic, frames: written, seams: source.seams, peak: peak)
                if !sawFirstFrame {
                    sawFirstFrame = true
                    mailbox.post(.firstFrame)
                }
                if recoveredCount > 0 { noteRecovered(nil) }
                // Less than asked: the buffer is full. Wait for room now rather than be told so
                // by one more write (on a server's plugin each write and each "no room" takes the
                // client's lock and asks its stream: a third of the calls per period, issue 28).
                if r < want && !paced { waitForRoom(pcm) }
                continue
            }
            if r == -Int(EAGAIN) || r == 0 {
                waitForRoom(pcm)
                continue
            }
            if r == -Int(EPIPE) || r == -Int(ESTRPIPE) {
                do {
                    try pcm.recover(from: r)
                    noteRecovered(r == -Int(EPIPE) ? "underrun" : "resumed after suspend")
                    continue
                } catch {
                    return fail(pcm, error.description)
                }
            }
            return fail(pcm, pcm.writeFailure(r))
        }
    }

    /// The device for this ring: wake's own stream, named for the alarm, where the PCM is ALSA's
    /// pulse plugin and the server takes it; else the PCM itself.
    private func openDevice(_ source: LoopingSource) throws(ALSAError) -> any PlaybackDevice {
        if let own = SoundServerPlayback.open(device: job.device, name: job.streamName, format: source.format,
                                              channels: source.sound.channels, rate: source.sound.sampleRate, latency: job.serverLatency) {
            return own
        }
        return try PCM(device: job.device, format: source.format, channels: source.sound.channels, rate: source.sound.sampleRate,
                       latency: job.latency, serverLatency: job.serverLatency)
    }

    /// The pre-roll's wait: the first audio is decoded now, so the deadline only writes. The mixer
    /// and the stream guard wait for the go: no level is touched before the deadline. False when
    /// the ring never came to this worker (stopped, abandoned, or no go in time): the device is
    /// closed, unless abandoned (then it is never touched again).
    private func holdForTheDeadline(_ pcm: any PlaybackDevice, _ source: LoopingSource) -> Bool {
        if source.pending.frames == 0, mailbox.beginSoundRead() {
            try? source.fill()  // a failure here is met again, and reported, by the first read after the go
            mailbox.endSoundRead()
        }
        if mailbox.awaitGo(limit: Defaults.prerollHoldLimit) { return true }
        guard !mailbox.isAbandoned else { return false }
        pcm.drop()
        pcm.close()
        releaseCombined()
        mailbox.post(.stopped(frames: 0, seams: 0))
        return false
    }

    /// Waits for room on the device, or for the mailbox's request descriptor, so a stop wakes
    /// the worker at once.
    private func waitForRoom(_ pcm: any PlaybackDevice) {
        if pcm.waitForRoom(wakingOn: mailbox.requests?.fd, descriptors: &pollSet) { mailbox.drainRequests() }
    }

    /// A put-back of a dead wake's levels that the start gave up on has ended while this worker
    /// rings (AbandonedRestore): a change it had sent to a frozen server may have landed since
    /// the guard raised the output, so the guard looks again, as at the start of the ring, and
    /// raises what was brought down; what goes back at the end is still what was first saved.
    private func recheckGuard(_ pcm: any PlaybackDevice) {
        if let floor = job.mixer.floor, !job.leavesUserLevels {
            raisedMixer = job.ledger.recheck(raisedMixer, device: job.device, floor: floor, worker: mailbox.id) { mailbox.post($0) }
        }
        guard SoundServerStream.isAskable(serverBacked: pcm.isServerBacked, device: job.device) else { return }
        // A sink that became the dummy output since is for the next ring's check: this one rings on.
        let again = try? job.ledger.raiseStream(streamFloor: job.mixer.floor ?? Defaults.minVolume, sinkFloor: sinkFloor,
                                                sinkLeft: sinkLeft, worker: mailbox.id) { mailbox.post($0) }
        raisedStream = MixerLedger.merged(raisedStream, again)
    }

    /// The floor the sink wake's stream plays on is raised to: the guard's, unless the sink is
    /// only looked at (`--mixer off`, a quiet test), and why it is then.
    private var sinkFloor: Int? { job.leavesUserLevels ? nil : job.mixer.floor }
    private var sinkLeft: MixerLedger.SinkLeft { job.leavesUserLevels ? .quietTest(alarmFloor: job.mixer.floor) : .mixerOff }

    /// A device that keeps underrunning must not flood the log: at most one report a second,
    /// with the count since the last.
    private func noteRecovered(_ what: String?) {
        if let what {
            recoveredCount += 1
            recoveredKind = what
        }
        let now = SystemClock.monotonic
        if now - lastRecoveredReport >= .seconds(1) {
            mailbox.post(.recovered(recoveredKind, count: recoveredCount))
            recoveredCount = 0
            lastRecoveredReport = now
        }
    }

    /// Puts back the mixer this worker raised, when its sound ends however it ends (after an
    /// abandonment too: the ledger knows whether it is still this worker's to restore).
    private func releaseMixer() {
        releaseStream()
        guard let token = raisedMixer else { return }
        raisedMixer = nil
        job.ledger.restore(token, worker: mailbox.id) { mailbox.post($0) }
    }

    /// Puts back the stream and sink this worker raised; before the PCM closes, while the stream exists.
    private func releaseStream() {
        guard let change = raisedStream else { return }
        raisedStream = nil
        job.ledger.restoreStream(change, worker: mailbox.id) { mailbox.post($0) }
    }

    /// `--sink`: the chosen sink is back. The stream on the sink the server moved it to is closed
    /// and a new one opened on the chosen sink (what was queued is dropped: a skip of at most the
    /// buffer), with the stream guard on it; nil when the open failed (said: the fallback chain
    /// takes over) or the loop gave up on this worker meanwhile.
    private func reopen(_ pcm: any PlaybackDevice, _ source: LoopingSource) -> (any PlaybackDevice)? {
        releaseStream()
        pcm.drop()
        pcm.close()
        let again: any PlaybackDevice
        do { again = try openDevice(source) } catch {
            releaseMixer()
            mailbox.post(.failed(.device, error.description))
            return nil
        }
        if mailbox.isAbandoned { return nil }
        raisedStream = try? job.ledger.raiseStream(streamFloor: job.mixer.floor ?? Defaults.minVolume, sinkFloor: sinkFloor,
                                                   sinkLeft: sinkLeft, worker: mailbox.id) { mailbox.post($0) }
        mailbox.madeProgress(at: SystemClock.monotonic, frames: written, seams: source.seams, peak: peak)
        return again
    }

    /// `--sink all`: unloads the combined sink, once its stream is closed, and before the loop
    /// hears that the sound stopped (an exit follows that at once).
    private func releaseCombined() {
        guard let index = combined else { return }
        combined = nil
        SoundServerStream.unloadModule(index)
    }

    private func fail(_ pcm: any PlaybackDevice, _ reason: String) {
        releaseStream()
        pcm.drop()
        pcm.close()
        releaseCombined()
        releaseMixer()
        mailbox.post(.failed(.device, reason))
    }

    /// Silences the device within a few milliseconds: takes back what is queued, plays a 10 ms
    /// fade-out of the same audio so there is no click, lets at most 20 ms of it play, drops. A
    /// server's plugin has already handed what is queued to the server (ALSA's rewind there only
    /// moves its own pointer), so a fade would queue behind it and never be heard: the drop alone
    /// corks and flushes the server's stream, silence at once.
    private func stop(_ pcm: any PlaybackDevice, _ source: LoopingSource) {
        let rewound = pcm.isClockless || pcm.isServerBacked ? 0 : pcm.rewindQueued()
        let frames = source.sound.frames
        if frames > 0, !pcm.isServerBacked, mailbox.beginSoundRead() {
            let fade = source.fadeOut(rewound: Int64(rewound), frames: max(1, source.sound.sampleRate / 100))
            mailbox.endSoundRead()
            if fade.frames > 0 { _ = pcm.play(fade.pointer, frames: fade.frames) }
            if !pcm.isClockless {
                let queued = Int64(max(0, pcm.delayFrames)) * 1_000_000_000 / Int64(max(1, pcm.rate))
                SystemClock.sleep(for: .nanoseconds(min(queued, 20_000_000)))
            }
        }
        pcm.drop()
        releaseStream()  // after the drop (heard at once), before the close (while the stream exists)
        pcm.close()
        releaseCombined()
        releaseMixer()
        if recoveredCount > 0 { mailbox.post(.recovered(recoveredKind, count: recoveredCount)) }
        mailbox.post(.stopped(frames: written, seams: source.seams))
    }
}
