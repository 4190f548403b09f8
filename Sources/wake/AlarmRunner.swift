import Glibc
import WakeCore
import WakeSystem

/// Runs an armed alarm: one `poll()` loop over the timers, the signal channel, the terminal and
/// the ringer's descriptors, feeding the pure `AlarmEngine` and carrying out its actions.
final class AlarmRunner {
    let options: AlarmOptions
    let zone: TimeZoneRules
    let console: Console
    let log: EventLog?
    var engine: AlarmEngine
    let deadlineText: String

    private let signals: SignalChannel
    private let wallTimer: WakeTimer
    private let bootTimer: WakeTimer
    private let ringLimit: WakeTimer
    private var tick: WakeTimer?
    private let terminal: Terminal?
    private var ringer: Ringer!
    private var stdinOpen: Bool
    private var currentWait: Wait
    private let inhibitor: InhibitorState
    /// boottime - monotonic: grows by exactly the time the machine spent suspended.
    private var sleptBaseline: Duration

    init(options: AlarmOptions, deadline: Deadline, zone: TimeZoneRules, console: Console, log: EventLog?,
         sound: SoundFile, inhibitor: InhibitorState, now: ClockReading) throws(SystemCallError) {
        self.options = options
        self.zone = zone
        self.console = console
        self.log = log
        let wait = deadline.wait(from: now)
        currentWait = wait
        engine = AlarmEngine(deadline: wait, settings: options.engine)
        deadlineText = Formatting.clockTime(deadline.instant, zone: zone)
        self.inhibitor = inhibitor
        sleptBaseline = SystemClock.boottime - SystemClock.monotonic
        signals = try SignalChannel()
        wallTimer = try WakeTimer(clock: .wall, wakeSystem: options.wakeSystem)
        bootTimer = try WakeTimer(clock: .elapsed, wakeSystem: options.wakeSystem)
        ringLimit = try WakeTimer(clock: .elapsed)
        terminal = Terminal(fd: STDIN_FILENO)
        stdinOpen = terminal != nil
        ringer = Ringer(sound: sound, settings: Ringer.Settings(device: options.device, volume: options.volume, fadeIn: options.fadeIn)) { [unowned self] notice in
            self.ringerNotice(notice)
        }
        ringer.unpaced = options.unpaced
    }

    private var ringStartedAnnounced = false

    func run(now: ClockReading) -> Int32 {
        terminal?.enterCbreak()
        defer {
            ringer.stop()
            inhibitor.release()
            terminal?.restore()
            console.clearStatus()
        }
        let wall = currentWait.wallInstant(from: now)
        log?.emit("armed", at: now.realtime, [
            ("deadline", .string(Formatting.iso8601(wall, zone: zone))),
            ("clock", .string(currentWait.clock.rawValue)),
            ("wait_s", .int(currentWait.remaining(from: now).secondsRoundedUp)),
        ])
        console.info("alarm set for \(Formatting.clockTime(wall, zone: zone, alwaysSeconds: true)) (\(Formatting.iso8601(wall, zone: zone))), in \(Formatting.span(currentWait.remaining(from: now)))"
                     + (terminal != nil ? "; q cancels" : ""))
        reportInhibitor(now)
        if options.wakeSystem {
            console.info("if the machine is suspended, its RTC will wake it at \(Formatting.clockTime(wall, zone: zone, alwaysSeconds: true))")
            log?.emit("wake_system", at: now.realtime, [("at", .string(Formatting.iso8601(wall, zone: zone)))])
        }
        // A signal that arrived during the arm-time checks counts before anything rings.
        handleSignals()
        if !engine.isFinished {
            perform(engine.handle(.timerFired(now)))  // arms the timer, or rings at once for `now`
        }

        while !engine.isFinished {
            updateTick()
            drawStatus()
            var fds: [(fd: Int32, events: Int16)] = [
                (signals.fd, Int16(POLLIN)), (wallTimer.fd, Int16(POLLIN)), (bootTimer.fd, Int16(POLLIN)),
                (ringLimit.fd, Int16(POLLIN)),
            ]
            if let tick { fds.append((tick.fd, Int16(POLLIN))) }
            inhibitor.process()
            if engine.isFinished { break }
            let busFD = inhibitor.pollDescriptor
            if let busFD { fds.append((busFD.fd, busFD.events)) }
            let readKeys = stdinOpen && terminal?.isForeground == true
            if readKeys { fds.append((STDIN_FILENO, Int16(POLLIN))) }
            let ringerFDs = ringer.pollSet
            fds += ringerFDs.map { ($0.fd, $0.events) }
            let ready: [EventLoop.Ready]
            do { ready = try EventLoop().wait(fds) } catch {
                console.error("the event loop failed (\(error)); stopping")
                return ExitStatus.noSound
            }
            let readyFDs = Set(ready.map(\.fd))
            if readyFDs.contains(signals.fd) { handleSignals() }
            if engine.isFinished { break }
            if readyFDs.contains(wallTimer.fd) { timerReady(wallTimer) }
            if readyFDs.contains(bootTimer.fd) { timerReady(bootTimer) }
            if readyFDs.contains(ringLimit.fd), ringLimit.acknowledge() == .fired {
                perform(engine.handle(.ringLimitReached(SystemClock.now())))
            }
            if let tick, readyFDs.contains(tick.fd) { _ = tick.acknowledge() }
            if let busFD, readyFDs.contains(busFD.fd) { inhibitor.process() }
            if readKeys, let r = ready.first(where: { $0.fd == STDIN_FILENO }) { handleKeys(r.revents) }
            if engine.isFinished { break }
            let ringerReady = ringerFDs.compactMap { p -> pollfd? in
                guard let r = ready.first(where: { $0.fd == p.fd }) else { return nil }
                return pollfd(fd: p.fd, events: p.events, revents: r.revents)
            }
            if !ringerReady.isEmpty { ringer.service(ringerReady) }
        }
        if case .finished(let outcome) = engine.state { return outcome.exitCode }
        return ExitStatus.noSound
    }

    // MARK: events in

    private func timerReady(_ timer: WakeTimer) {
        switch timer.acknowledge() {
        case .fired:
            noticeResume()
            perform(engine.handle(.timerFired(SystemClock.now())))
        case .clockChanged:
            tick = nil  // re-aligned to the new clock on the next round
            noticeResume()
            perform(engine.handle(.clockChanged(SystemClock.now())))
        case .spurious: break
        }
    }

    // MARK: sleep and resume

    private func reportInhibitor(_ now: ClockReading) {
        switch inhibitor {
        case .held:
            log?.emit("inhibited", at: now.realtime, [("what", .string(InhibitorState.what)), ("mode", .string("block"))])
        case .failed(let reason):
            console.error("warning: cannot keep the machine awake (\(reason)); if it suspends, the alarm rings only when it wakes up")
            log?.emit("inhibit_failed", at: now.realtime, [("reason", .string(reason))])
        case .off:
            break
        }
        if case .held(let i) = inhibitor {
            i.onPrepareForSleep = { [unowned self] goingToSleep in
                let now = SystemClock.now()
                if goingToSleep {
                    self.log?.emit("suspended", at: now.realtime)
                } else if !self.noticeResume() {
                    // logind says we resumed though no time was lost: record it all the same.
                    self.log?.emit("resumed", at: now.realtime, [("slept_s", .int(0))])
                }
                if !goingToSleep { self.perform(self.engine.handle(.timerFired(now))) }
            }
        }
    }

    /// Reports a resume found by the growth of boottime over monotonic (the time spent suspended),
    /// whoever woke us: logind's signal, a cancelled timer, or the deadline itself.
    @discardableResult
    private func noticeResume() -> Bool {
        let offset = SystemClock.boottime - SystemClock.monotonic
        let slept = offset - sleptBaseline
        guard slept > .seconds(1) else { return false }
        sleptBaseline = offset
        let now = SystemClock.now()
        console.info("the machine was suspended for \(Formatting.span(slept)); now \(Formatting.clockTime(now.realtime, zone: zone, alwaysSeconds: true))")
        log?.emit("resumed", at: now.realtime, [("slept_s", .int(slept.secondsRoundedUp))])
        return true
    }

    private func handleSignals() {
        for s in signals.drain() {
            switch s {
            case SIGINT: perform(engine.handle(.signal(.interrupt, SystemClock.now())))
            case SIGTERM: perform(engine.handle(.signal(.terminate, SystemClock.now())))
            case SIGHUP: perform(engine.handle(.signal(.hangup, SystemClock.now())))
            case SIGUSR1: perform(engine.handle(.signal(.snooze, SystemClock.now())))
            case SIGTSTP:
                // Give the terminal back as the shell expects it, then stop as the default action would.
                console.clearStatus()
                terminal?.restore()
                SignalChannel.stopSelf()
            case SIGCONT:
                terminal?.enterCbreak()
                ringer.continueAfterStop()
            default:
                break
            }
            if engine.isFinished { return }
        }
    }

    private func handleKeys(_ revents: Int16) {
        guard let terminal else { return }
        let keys = terminal.readKeys()
        if keys.isEmpty && (revents & Int16(POLLHUP | POLLERR | POLLIN)) != 0 {
            stdinOpen = false  // end of input: signals alone control the alarm from here on
            return
        }
        for k in keys {
            perform(engine.handle(.key(Character(UnicodeScalar(k)), SystemClock.now())))
            if engine.isFinished { return }
        }
    }

    private func ringerNotice(_ notice: Ringer.Notice) {
        let now = SystemClock.now()
        switch notice {
        case .opened(let device, let format, let paced):
            console.info("ringing on '\(device)' (\(format)\(paced ? ", paced: the device has no clock" : ""))")
            log?.emit("device", at: now.realtime, [("device", .string(device)), ("format", .string(format)), ("paced", .bool(paced))])
        case .firstFrame:
            announceRinging(now)
        case .recovered(let what):
            log?.emit("recovered", at: now.realtime, [("what", .string(what))])
        case .fallback(let from, let to, let reason):
            console.error("sound on '\(from)' failed (\(reason)); trying \(to == "bell" ? "the terminal bell" : "'\(to)'")")
            log?.emit("fallback", at: now.realtime, [("from", .string(from)), ("to", .string(to)), ("reason", .string(reason))])
        case .bell:
            console.error("NO SOUND DEVICE WORKS: RINGING THE TERMINAL BELL INSTEAD")
            announceRinging(now)
        case .stopped(let frames, let seams):
            log?.emit("sound_stopped", at: now.realtime, [("frames", .int(frames)), ("seams", .int(seams))])
        case .failed(let reason):
            console.error("could not make any sound: \(reason)")
            perform(engine.handle(.soundFailed(reason)))
        }
    }

    private func announceRinging(_ now: ClockReading) {
        guard !ringStartedAnnounced else { return }
        ringStartedAnnounced = true
        let late = now.reading(engine.deadline.clock) - engine.deadline.instant
        log?.emit("ringing", at: now.realtime, [("late_ms", .milliseconds(late))])
    }

    // MARK: actions out

    private func perform(_ actions: [AlarmEngine.Action]) {
        for action in actions {
            let now = SystemClock.now()
            switch action {
            case .armTimer(let wait):
                currentWait = wait
                let (use, other) = wait.clock == .wall ? (wallTimer, bootTimer) : (bootTimer, wallTimer)
                other.disarm()
                do { try use.arm(at: wait.instant) } catch { console.error("cannot arm the timer: \(error)") }
            case .disarmTimer:
                wallTimer.disarm()
                bootTimer.disarm()
            case .startRinging(let late):
                console.clearStatus()
                let lateText = late > .seconds(1) ? ", \(Formatting.lateness(late)) late" : ""
                console.info("RINGING: alarm for \(deadlineText)\(lateText). Any key stops; s, z or space snoozes.")
                ringStartedAnnounced = false
                ringer.start()
            case .stopRinging:
                ringer.stop()
            case .armRingLimit(let wait):
                try? ringLimit.arm(at: wait.instant)
            case .disarmRingLimit:
                ringLimit.disarm()
            case .reportClockChange(let reading):
                console.info("the clock changed or the machine resumed: now \(Formatting.clockTime(reading.realtime, zone: zone, alwaysSeconds: true))")
                log?.emit("clock_changed", at: reading.realtime, [("now", .string(Formatting.iso8601(reading.realtime, zone: zone)))])
            case .reportSnoozed(let until):
                let wall = until.wallInstant(from: now)
                console.info("snoozed until \(Formatting.clockTime(wall, zone: zone, alwaysSeconds: true))")
                log?.emit("snoozed", at: now.realtime, [("until", .string(Formatting.iso8601(wall, zone: zone)))])
            case .reportIgnoredKey(let k):
                if case .armed = engine.state, k != "\n" {
                    console.info("waiting for the alarm; press q to cancel it")
                }
            case .finish(let outcome):
                report(outcome, now: now)
            }
        }
    }

    private func report(_ outcome: Outcome, now: ClockReading) {
        switch outcome {
        case .stopped(let cause):
            console.info("stopped by \(describe(cause))")
            log?.emit("stopped", at: now.realtime, causeFields(cause))
        case .missed(let late):
            console.error("missed alarm for \(deadlineText) (late by \(Formatting.lateness(late))); the late limit is \(DurationText.format(options.engine.lateLimit))")
            log?.emit("missed", at: now.realtime, [("late_s", .int(late.nanoseconds / 1_000_000_000))])
        case .timedOut:
            console.info("rang for \(DurationText.format(options.engine.ringFor)) without being stopped")
            log?.emit("timed_out", at: now.realtime)
        case .cancelled(let cause):
            console.info("cancelled by \(describe(cause)) before ringing")
            log?.emit("cancelled", at: now.realtime, causeFields(cause))
        case .failed(let reason):
            log?.emit("error", at: now.realtime, [("reason", .string(reason))])
        }
    }

    private func describe(_ cause: StopCause) -> String {
        switch cause {
        case .key(let k): return "key '\(k)'"
        case .signal(let s): return s.rawValue
        }
    }

    private func causeFields(_ cause: StopCause) -> [(String, EventLog.Value)] {
        switch cause {
        case .key(let k): return [("by", .string("key")), ("key", .string(k))]
        case .signal(let s): return [("by", .string("signal")), ("signal", .string(s.rawValue))]
        }
    }

    // MARK: status line

    private var waiting: Bool {
        switch engine.state {
        case .armed, .snoozed: return true
        default: return false
        }
    }

    /// A 1 Hz tick only while a countdown is drawn on a terminal: otherwise nothing wakes the loop.
    private func updateTick() {
        let want = console.showsStatus && waiting
        if want && tick == nil { tick = try? WakeTimer.everyWallSecond() }
        if !want { tick = nil }
    }

    private func drawStatus() {
        guard console.showsStatus, waiting else { return }
        let now = SystemClock.now()
        let wall = currentWait.wallInstant(from: now)
        let label: String
        if case .snoozed = engine.state { label = "snoozed until" } else { label = "alarm" }
        console.status("\(label) \(Formatting.clockTime(wall, zone: zone, alwaysSeconds: true)) | in \(Formatting.span(currentWait.remaining(from: now))) | now \(Formatting.clockTime(now.realtime, zone: zone, alwaysSeconds: true))")
    }
}
