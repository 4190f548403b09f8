import Glibc
import WakeCore
import WakeRuntime
import WakeSystem

/// One `wake WHEN` from arming to exit: the reactor with its sources (signals, keys, the bus,
/// the countdown tick), the runner, and the observers. Raw input becomes commands here; what
/// the alarm does comes back as events to the console and the log.
final class AlarmSession {
    private let options: AlarmOptions
    private let zone: TimeZoneRules
    private let console: Console
    private let signals: SignalChannel
    private let inhibitor: InhibitorState
    private let reactor = Reactor()
    private let runner: Runner
    private let output: SupervisedOutput
    private let consoleObserver: ConsoleObserver
    private let logObserver: EventLogObserver?
    private let log: EventLog?
    private let terminal: Terminal?
    private var stdinOpen: Bool
    private var stdinRegistration: Reactor.Registration?
    /// Ticks once a wall-clock second while a countdown is drawn or wake waits to be brought to
    /// the foreground; made now so the ring never needs a descriptor it cannot get.
    private let tick: WakeTimer?
    private var tickArmed = false
    private var fatalSignal: Int32?

    init(options: AlarmOptions, zone: TimeZoneRules, console: Console, log: EventLog?, signals: SignalChannel,
         inhibitor: InhibitorState) throws(SystemCallError) {
        self.options = options
        self.zone = zone
        self.console = console
        self.signals = signals
        self.inhibitor = inhibitor
        self.log = log
        let clock = SystemRuntimeClock()
        output = try SupervisedOutput(reactor: reactor, clock: clock, bell: TerminalBell()) { try? DefaultSound.open() }
        runner = Runner(clock: clock, timers: ReactorTimers(reactor: reactor, wakeSystem: options.wakeSystem), output: output)
        terminal = Terminal(fd: STDIN_FILENO)
        stdinOpen = terminal != nil
        tick = terminal != nil || console.showsStatus ? try WakeTimer(clock: .wall) : nil
        consoleObserver = ConsoleObserver(console: console, zone: zone, settings: options.ring.engine)
        logObserver = log.map { EventLogObserver(log: $0, zone: zone) }
    }

    func run(_ setup: AlarmSetup, deadline: Deadline) -> Int32 {
        consoleObserver.deadlineText = Formatting.clockTime(deadline.instant, zone: zone)
        consoleObserver.gapNote = Formatting.gapNote(deadline, zone: zone)
        consoleObserver.keysReadable = { [unowned self] in stdinOpen && terminal?.isForeground == true }
        if let logObserver { runner.observe(with: logObserver) }
        runner.observe(with: consoleObserver)
        terminal?.enterCbreak()
        defer {
            runner.shutDown()
            inhibitor.release()
            terminal?.restore()
            console.clearStatus()
        }
        register()
        do {
            try runner.arm(setup)
        } catch {
            console.error("cannot arm the alarm: \(error)")
            return ExitStatus.osError
        }
        reportInhibitor()
        if options.wakeSystem {
            let at = Formatting.clockTime(deadline.instant, zone: zone, alwaysSeconds: true)
            console.info("if the machine is suspended, its RTC will wake it at \(at)")
            log?.emit("wake_system", at: SystemClock.realtime, [("at", .string(Formatting.iso8601(deadline.instant, zone: zone)))])
        }
        // A signal that arrived during the arm-time checks counts before anything rings.
        handleSignals()
        while !runner.isFinished && fatalSignal == nil {
            do { try reactor.runOnce() } catch {
                console.error("the event loop failed (\(error)); stopping")
                return ExitStatus.noSound
            }
        }
        if let fatalSignal {
            console.error("ended by \(SignalChannel.name(of: fatalSignal)); the alarm is cancelled")
            return 128 + fatalSignal
        }
        guard let outcome = runner.outcome(of: setup.id) else { return ExitStatus.noSound }
        return ExitStatus.code(for: outcome)
    }

    // MARK: sources

    private func register() {
        reactor.register(fd: signals.fd) { [unowned self] _ in handleSignals() }
        if terminal != nil {
            stdinRegistration = reactor.register(fd: STDIN_FILENO, events: 0) { [unowned self] revents in handleKeys(revents) }
        }
        if let tick {
            reactor.register(fd: tick.fd) { [unowned self] _ in
                if tick.acknowledge() == .clockChanged { tickArmed = false }  // re-aligned below
            }
        }
        if case .held(let bus) = inhibitor {
            bus.onPrepareForSleep = { [unowned self] going in runner.prepareForSleep(going) }
            do { try bus.watchSleep() } catch { console.error("warning: cannot watch for suspend: \(error)") }
            if let pfd = bus.pollDescriptor {
                let registration = reactor.register(fd: pfd.fd, events: pfd.events) { _ in bus.process() }
                // sd-bus queues what arrives during a blocking call and then asks for no events:
                // drain it before every poll, and wait for what it asks for now.
                reactor.addHook { [reactor] in
                    bus.process()
                    reactor.update(registration, events: bus.pollDescriptor?.events ?? Int16(POLLIN))
                }
            }
        }
        reactor.addHook { [unowned self] in beforePoll() }
    }

    /// Before every poll: keys only in the foreground (a background read would stop wake with
    /// SIGTTIN), cbreak whenever wake has become the foreground however it got there (`fg` of a
    /// running job sends no signal), and the countdown.
    private func beforePoll() {
        let foreground = stdinOpen && terminal?.isForeground == true
        if foreground { terminal?.enterCbreak() }
        if let stdinRegistration { reactor.update(stdinRegistration, events: foreground ? Int16(POLLIN) : 0) }
        let wait = runner.nextWait()
        let wantTick = (console.showsStatus && wait != nil) || (terminal != nil && stdinOpen && !foreground)
        if let tick {
            if wantTick && !tickArmed { tickArmed = (try? tick.armEveryWallSecond()) != nil }
            if !wantTick && tickArmed { tick.disarm(); tickArmed = false }
        }
        if let wait, console.showsStatus {
            let now = SystemClock.realtime
            let label = wait.snoozed ? "snoozed until" : "alarm"
            let at = Formatting.clockTime(wait.wall, zone: zone, alwaysSeconds: true)
            let nowText = Formatting.clockTime(now, zone: zone, alwaysSeconds: true)
            console.status { columns in
                StatusLine.render(label: label, deadline: at, remaining: wait.remaining, now: nowText, width: columns)
            }
        }
    }

    private func reportInhibitor() {
        switch inhibitor {
        case .held:
            log?.emit("inhibited", at: SystemClock.realtime, [("what", .string(InhibitorState.what)), ("mode", .string("block"))])
        case .failed(let reason):
            console.error("warning: cannot keep the machine awake (\(reason)); if it suspends, the alarm rings only when it wakes up")
            log?.emit("inhibit_failed", at: SystemClock.realtime, [("reason", .string(reason))])
        case .off:
            break
        }
    }

    // MARK: input becomes commands

    private func handleSignals() {
        for s in signals.drain() {
            let who = Requester.signal(name: SignalChannel.name(of: s), number: s)
            switch s {
            case SIGINT, SIGTERM, SIGHUP: runner.command(.cancel, by: who)
            case SIGUSR1: runner.command(.snooze, by: who)
            case SIGTSTP:
                // Give the terminal back as the shell expects it, then stop as the default action would.
                console.clearStatus()
                terminal?.restore()
                SignalChannel.stopSelf()
            case SIGCONT:
                if stdinOpen { terminal?.enterCbreak() }
                runner.continued()
                consoleObserver.redrawRinging()
            case SIGWINCH:
                break  // the status line is fitted to the new width before the next poll
            default:
                // Every other signal we receive would have ended the process: end the alarm
                // properly instead (sound stopped, terminal restored), then exit 128 + n.
                fatalSignal = s
                runner.command(.cancel, by: who)
                return
            }
            if runner.isFinished { return }
        }
    }

    private func handleKeys(_ revents: Int16) {
        guard let terminal else { return }
        let keys = terminal.readKeys()
        if keys.isEmpty && (revents & Int16(POLLHUP | POLLERR | POLLIN)) != 0 {
            stdinOpen = false  // end of input: signals alone control the alarm from here on
            if let stdinRegistration { reactor.unregister(stdinRegistration) }
            stdinRegistration = nil
            return
        }
        for k in keys {
            let (command, who) = KeyBinding.command(for: k)
            runner.command(command, by: who)
            if runner.isFinished { return }
        }
    }
}
