import Glibc
import WakeCore
import WakeEngine
import WakeSystem

/// One wake process from arming to exit: the reactor with its sources (signals, keys, the bus,
/// the countdown tick), the runner, and the observers. Raw input becomes commands here; what
/// the alarms do comes back as events to the console and the log. A one-off alarm and the
/// daemon differ only in what signals and keys mean, which is `Mode`.
public final class AlarmSession: SessionContext {
    enum Mode {
        /// `wake WHEN`: one alarm; signals and `q` cancel it.
        case oneOff
        /// `wake daemon`: standing alarms; keys reach only what rings, SIGTERM and SIGINT end the
        /// daemon, SIGHUP reloads.
        case daemon
    }

    let mode: Mode
    /// The local zone: the machine's, followed while wake runs unless `TZ` pins it.
    public private(set) var zone: TimeZoneRules
    public let console: Console
    public let reactor = Reactor()
    public let runner: Runner
    let output: SoundOutput
    public let timers: ReactorTimers
    /// Whether the deadlines are on the alarm clocks, so the RTC wakes a suspended machine for them.
    public let wakesSystem: Bool
    let consoleObserver: ConsoleObserver
    private let signals: SignalChannel
    private var inhibitor: InhibitorState
    private let log: EventLog?
    private let logObserver: EventLogObserver?
    private let terminal: Terminal?
    private var stdinOpen: Bool
    private var stdinRegistration: Reactor.Registration?
    /// The answer being typed while an alarm asks a `--challenge` sum.
    private var entry = ChallengeEntry()
    /// The terminal's bytes cut into keys, kept across reads: an escape sequence is one key.
    private var keyReader = TerminalKeyReader()
    /// `runner.challengesAsked` when the entry began: a new sum starts an empty entry.
    private var entryAsked = 0
    /// Ticks once a wall-clock second while a countdown is drawn or wake waits to be brought to
    /// the foreground; made now so the ring never needs a descriptor it cannot get.
    private let tick: WakeTimer?
    private var tickArmed = false
    private var fatalSignal: Int32?
    private var endRequested = false
    /// What runs beside the alarms (the control endpoint, the notifier, the notices), in the
    /// order attached: started with the session, stopped at its end in the reverse order.
    private var attachments: [SessionAttachment] = []
    private var started = false
    /// Called for SIGHUP in daemon mode.
    var onReload: (() -> Void)?
    /// `wake sleep`: every key ends the sound (there is nothing to snooze), `wake list`, `wake next`
    /// and the D-Bus API do not count it as an alarm, and its stream is named for what it is.
    public internal(set) var isSleepTimer = false
    var streamTitle: String?
    /// `wake sleep`'s key: the sound fades away over this long, then stops; a second key stops it now.
    static let keyFade: Duration = .seconds(3)
    private var keyFadeTimer: DeadlineTimer?
    /// Called before every poll, after the session's own work (the daemon re-arms here), and
    /// before the attachments' turn.
    var beforeEachPoll: (() -> Void)?
    /// Called in daemon mode after the machine's zone changed (the session's own zone, the
    /// console's and the log's are already the new one).
    var onZoneChange: ((TimeZoneRules) -> Void)?
    /// The one-off alarm as typed and as armed, so a zone change can resolve it again.
    private var oneOff: (spec: WakeSpec, setup: AlarmSetup)?
    private var zoneWatch: ZoneWatch?
    private let codeRelease = CodeReleasePolicy()

    /// What the runner runs on instead of the system's clock, timers and devices: the
    /// in-process tests' fake world.
    struct World {
        var clock: RuntimeClock
        var timers: TimerFactory
        var output: SoundOutput
        var light: LightOutput?
    }

    init(mode: Mode, zone: TimeZoneRules, console: Console, log: EventLog?, signals: SignalChannel, inhibitor: InhibitorState,
         alarmTimers: WakeSystemSupport.TimerSource?, settings: AlarmEngine.Settings, world: World? = nil) throws(SystemCallError) {
        self.mode = mode
        self.zone = zone
        self.console = console
        self.signals = signals
        self.inhibitor = inhibitor
        self.log = log
        timers = ReactorTimers(reactor: reactor, alarmTimers: alarmTimers)
        wakesSystem = alarmTimers != nil
        if let world {
            output = world.output
            runner = Runner(clock: world.clock, timers: world.timers, output: world.output)
            runner.light = world.light
        } else {
            let clock = SystemRuntimeClock()
            output = try SupervisedOutput(reactor: reactor, clock: clock, bell: TerminalBell()) { try? DefaultSound.open() }
            // One real timer per clock, whatever the number of alarms (a daemon may hold thousands).
            runner = Runner(clock: clock, timers: SharedTimers(base: timers, clock: clock), output: output)
            runner.light = try ScreenLight(reactor: reactor)
        }
        // A test's world has no keyboard: the developer's terminal is left alone.
        terminal = world == nil ? Terminal(fd: STDIN_FILENO) : nil
        stdinOpen = terminal != nil
        tick = terminal != nil || console.showsStatus ? try WakeTimer(clock: .wall) : nil
        consoleObserver = ConsoleObserver(console: console, zone: zone, settings: settings)
        let wakes = wakesSystem
        logObserver = log.map { log in
            let observer = EventLogObserver(log: log, zone: zone)
            observer.includeAlarmID = mode == .daemon
            observer.wakesSystem = wakes
            return observer
        }
        consoleObserver.keysReadable = { [unowned self] in stdinOpen && terminal?.isForeground == true }
        consoleObserver.message = { [unowned self] in runner.setup(of: $0)?.message }
        consoleObserver.snoozes = { [unowned self] in runner.snoozes(of: $0) ?? SnoozeCount() }
        consoleObserver.challenge = { [unowned self] in runner.challenge(of: $0)?.question }
        logObserver?.message = { [unowned self] in runner.setup(of: $0)?.message }
        consoleObserver.soundChoice = { [unowned self] in runner.setup(of: $0)?.ring.entries.first }
        logObserver?.soundChoice = { [unowned self] in runner.setup(of: $0)?.ring.entries.first }
        runner.streamName = { [unowned self] in streamTitle ?? alarmTitle(of: $0) }
        if let logObserver { runner.observe(with: logObserver) }
        runner.observe(with: consoleObserver)
        runner.observe(with: codeRelease)
    }

    /// The daemon read its files: what the reload ran is given back before the wait.
    func releaseAfterReload() { codeRelease.requestRelease() }

    /// A one-off alarm: armed, run to its end; the result says how it ended. `spec` is what
    /// was typed: a local reading follows the machine's zone (see `ZoneChange`). `label` names
    /// the alarm instead of its time (`wake test`'s ring, due now).
    func run(_ setup: AlarmSetup, spec: WakeSpec, wake: WakeSystemPlan, label: String? = nil) -> CommandResult {
        oneOff = (spec, setup)
        consoleObserver.deadlineText = { [unowned self] _ in
            label ?? Formatting.clockTime(oneOff?.setup.deadline.instant ?? setup.deadline.instant, zone: zone)
        }
        consoleObserver.gapNote = Formatting.gapNote(setup.deadline, zone: zone)
        start()
        defer { finish() }
        // A signal that came during the arm-time checks counts before anything rings. A due
        // alarm (`now`, or late) starts ringing inside arm(), so a pending cancel is taken first.
        let early = signals.drain()
        if let s = early.first(where: Self.cancelsBeforeRinging) {
            log?.emit("cancelled", at: SystemClock.realtime, [("by", .string("signal")), ("signal", .string(SignalChannel.name(of: s)))])
            return endedBySignal(s)
        }
        do {
            try runner.arm(setup)
        } catch {
            console.error("cannot arm the alarm: \(error)")
            return .failed(.resource)
        }
        reportInhibitor()
        if wake.wakesSystem {
            let at = Formatting.clockTime(setup.deadline.instant, zone: zone)
            console.info("if the machine is suspended, its RTC will wake it at \(at)")
            log?.emit("wake_system", at: SystemClock.realtime, [("at", .string(Formatting.iso8601(setup.deadline.instant, zone: zone)))])
        } else if let warning = wake.warning, setup.deadline.instant > SystemClock.realtime {
            // Said under the armed line (an alarm due now has nothing to wait through).
            console.info("note: " + warning)
        }
        // The rest of what came early (SIGUSR1, a resize, Ctrl-Z) means what it means now.
        handleSignals(early)
        if let failure = loop(until: { runner.isFinished }) { return failure }
        if let fatalSignal { return endedBySignal(fatalSignal) }
        guard let outcome = runner.outcome(of: setup.id) else { return .failed(.noSound) }
        return .rang(outcome)
    }

    /// The daemon: its controller arms and re-arms alarms; this runs until SIGTERM or SIGINT.
    func runDaemon() -> CommandResult {
        start()
        defer { finish() }
        handleSignals()
        if let failure = loop(until: { endRequested }) { return failure }
        if let fatalSignal { return endedBySignal(fatalSignal) }
        return .done
    }

    /// Ends the daemon before its next wait, as SIGTERM would: what rings now stops with it.
    /// (Another daemon took over its alarms.)
    func endDaemon(because who: String) {
        runner.command(.cancel, by: .control(who), activeOnly: true)
        endRequested = true
    }

    /// Swaps the "never sleep" lock (the daemon holds it only in a window before an alarm).
    func setInhibitor(_ new: InhibitorState) {
        inhibitor.release()
        inhibitor = new
        watchSleep()
    }

    /// Runs `attachment` beside the alarms from the session's start (at once, if it has started).
    func attach(_ attachment: SessionAttachment) {
        attachments.append(attachment)
        if started { attachment.start(in: self) }
    }

    /// What the ring's outputs took (`wake test`): nothing on a test's fake world.
    var meter: OutputMeter { (output as? SupervisedOutput)?.meter ?? OutputMeter() }

    public var standing: Bool { mode == .daemon }
    public var isSilent: Bool { (output as? SupervisedOutput)?.isSilent ?? false }
    public func deadlineText(of id: String) -> String { consoleObserver.deadlineText(id) }
    public func record(_ event: String, _ fields: [(String, JSONValue)]) { log?.emit(event, at: SystemClock.realtime, fields) }

    private func start() {
        terminal?.enterCbreak()
        register()
        watchZone()
        started = true
        for attachment in attachments { attachment.start(in: self) }
    }

    // MARK: the machine's zone

    /// Watches `/etc/localtime` unless `TZ` pins the zone. Without the watch the alarm still
    /// rings, at the time it was set for in the zone it was set in: say so, and go on.
    private func watchZone() {
        guard !ZoneLoader.zonePinned else { return }
        do {
            let watch = try ZoneWatch()
            zoneWatch = watch
            reactor.register(fd: watch.fd) { [unowned self] _ in
                if watch.drain() { zoneFilesChanged() }
            }
            // The zone was read before the watch began: a change in between is found now, not never.
            zoneFilesChanged()
        } catch {
            console.error("warning: cannot watch the time zone (\(error)); if the machine's zone changes, "
                          + "the alarm rings at the time it was set for in \(zone.name.printable)")
        }
    }

    /// `/etc/localtime` may have changed: read the zone again, and follow it.
    private func zoneFilesChanged() {
        guard !ZoneLoader.zonePinned else { return }
        let path = zoneWatch?.path ?? ZoneLoader.localtimePath
        // `ln -sf` unlinks before it links again: the file missing is a step, not UTC.
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        let (new, warning) = ZoneLoader.local()
        if let warning {
            console.error("warning: the time zone changed, but \(warning); keeping \(zone.name.printable)")
            return
        }
        guard new != zone else { return }
        followZone(new)
    }

    /// The session's zone, the console's, the log's and the alarms' become `new`.
    func followZone(_ new: TimeZoneRules) {
        let old = zone
        zone = new
        consoleObserver.zone = new
        logObserver?.zone = new
        log?.zone = new
        if mode == .daemon {
            onZoneChange?(new)
            return
        }
        guard let (spec, setup) = oneOff.map({ ($0.spec, $0.setup) }) else { return }
        guard case .armed? = runner.state(of: setup.id) else {
            console.info("the time zone is now \(new.name.printable)")
            return
        }
        let now = SystemClock.now()
        let decision = ZoneChange.follow(spec, armed: setup.deadline, from: old, to: new, now: now.realtime,
                                         lateLimit: setup.settings.lateLimit)
        guard let deadline = decision.deadline else {
            // A span or an instant with its own offset: the same moment, said in the new zone.
            let wall = runner.nextWall(of: setup.id) ?? setup.deadline.instant
            console.info("the time zone is now \(new.name.printable): the alarm keeps its time, "
                         + "\(Formatting.ringsAt(wall, now: now.realtime, zone: new)) (\(Formatting.iso8601(wall, zone: new)))")
            return
        }
        var moved = setup
        moved.deadline = deadline
        moved.resolvedAt = now
        moved.reason = "zone"
        oneOff = (spec, moved)
        consoleObserver.gapNote = Formatting.gapNote(deadline, zone: new)
        do { try runner.arm(moved) } catch {
            console.error("cannot arm the alarm again for the new time zone: \(error); it is cancelled")
        }
    }

    private func finish() {
        // The control socket first: nobody is told of an alarm that is going away. The others
        // after the sound has stopped (the notifier takes down what the ended alarms showed).
        for attachment in attachments where attachment.stopsBeforeTheAlarms { attachment.stop() }
        runner.shutDown()
        for attachment in attachments.reversed() where !attachment.stopsBeforeTheAlarms { attachment.stop() }
        inhibitor.release()
        terminal?.restore()
        console.clearStatus()
    }

    /// Turns the reactor until `done`; a result when the loop itself failed.
    private func loop(until done: () -> Bool) -> CommandResult? {
        while !done() && fatalSignal == nil {
            codeRelease.releaseIfRinging()
            do {
                // The wait's release once the arming has been quiet a while (a reload's client answered).
                try reactor.runOnce(quiet: { [codeRelease, runner] in codeRelease.beforeWait(now: .now, prerolled: runner.isPrerolled) })
            } catch {
                console.error("the event loop failed (\(error)); stopping")
                return .failed(.noSound)
            }
        }
        return nil
    }

    private func endedBySignal(_ signal: Int32) -> CommandResult {
        console.error("ended by \(SignalChannel.name(of: signal))" + (mode == .oneOff ? "; the alarm is cancelled" : ""))
        return .endedBySignal(signal)
    }

    // MARK: sources

    private var busRegistration: Reactor.Registration?
    private var busHook: Reactor.Registration?

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
        watchSleep()
        reactor.addHook { [unowned self] in beforePoll() }
    }

    /// logind's PrepareForSleep through the inhibitor's bus connection, while one is held.
    private func watchSleep() {
        if let busRegistration { reactor.unregister(busRegistration) }
        if let busHook { reactor.unregister(busHook) }
        (busRegistration, busHook) = (nil, nil)
        guard case .held(let bus) = inhibitor else { return }
        bus.onPrepareForSleep = { [unowned self] going in runner.prepareForSleep(going) }
        do { try bus.watchSleep() } catch { console.error("warning: cannot watch for suspend: \(error)") }
        guard let pfd = bus.pollDescriptor else { return }
        let registration = reactor.register(fd: pfd.fd, events: pfd.events) { _ in bus.process() }
        busRegistration = registration
        // sd-bus queues what arrives during a blocking call and then asks for no events: drain
        // it before every poll, and wait for what it asks for now.
        busHook = reactor.addHook { [reactor] in
            bus.process()
            reactor.update(registration, events: bus.pollDescriptor?.events ?? Int16(POLLIN))
        }
    }

    /// Before every poll: keys only in the foreground (a background read would stop wake with
    /// SIGTTIN), cbreak whenever wake has become the foreground however it got there (`fg` of a
    /// running job sends no signal), and the countdown.
    private func beforePoll() {
        beforeEachPoll?()
        for attachment in attachments { attachment.beforePoll() }
        let foreground = stdinOpen && terminal?.isForeground == true
        if foreground { terminal?.enterCbreak() }
        if let stdinRegistration { reactor.update(stdinRegistration, events: foreground ? Int16(POLLIN) : 0) }
        let wait = runner.nextWait()
        let wantTick = (console.showsStatus && wait != nil) || (terminal != nil && stdinOpen && !foreground)
        if let tick {
            if wantTick && !tickArmed { tickArmed = (try? tick.armEveryWallSecond()) != nil }
            if !wantTick && tickArmed { tick.disarm(); tickArmed = false }
        }
        if console.showsStatus, runner.isChallenging, entryAsked == runner.challengesAsked, !entry.text.isEmpty {
            // The answer being typed keeps the line (the daemon's countdown to its next alarm waits).
            console.status { _ in "answer: \(entry.text)" }
        } else if let wait, console.showsStatus {
            let now = SystemClock.realtime
            // The message too (escaped by the line): the narrower forms leave the label out first.
            let snoozed = localized("{snoozed} until", (runner.snoozes(of: wait.alarm) ?? SnoozeCount()).snoozed)
            let label = (wait.snoozed ? snoozed : localized("alarm")) + (mode == .daemon ? " " + wait.alarm : "")
                + (runner.setup(of: wait.alarm)?.message.map { " (\($0))" } ?? "")
            // A snooze's end names its day when it is not today's, as every "snoozed until" does.
            let at = wait.snoozed ? Formatting.clockTimeAndDay(wait.wall, now: now, zone: zone)
                : Formatting.clockTime(wait.wall, zone: zone)
            let nowText = Formatting.clockTime(now, zone: zone, alwaysSeconds: true)
            console.status { columns in
                StatusLine.render(label: label, deadline: at, remaining: wait.remaining, now: nowText, width: columns)
            }
        }
    }

    /// The control socket, so `wake list/stop/snooze/cancel` reach this process from anywhere.
    /// Without it the alarm still rings and keys and signals still work: say so, and go on.
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

    /// Signals a waiting alarm takes without being cancelled: a snooze (nothing rings to snooze),
    /// job control, a resize. Every other received signal ends it (`handleSignals`).
    static let keptWaitingBy: Set<Int32> = [SIGUSR1, SIGTSTP, SIGCONT, SIGWINCH]
    /// Signals the daemon takes without ending: those, and SIGHUP, a reload (`handleSignals`).
    static let keptRunningBy: Set<Int32> = keptWaitingBy.union([SIGHUP])

    /// Signals that end a one-off alarm that is not ringing yet.
    static func cancelsBeforeRinging(_ s: Int32) -> Bool { !keptWaitingBy.contains(s) }

    /// Internal, not private: the in-process tests hand it signals (a test process cannot take
    /// a real SIGTSTP).
    func handleSignals(_ arrived: [Int32]? = nil) {
        for s in arrived ?? signals.drain() {
            let who = Requester.signal(name: SignalChannel.name(of: s), number: s)
            switch (s, mode) {
            case (SIGINT, .oneOff), (SIGTERM, .oneOff), (SIGHUP, .oneOff):
                runner.command(.cancel, by: who)
            case (SIGINT, .daemon), (SIGTERM, .daemon):
                // The daemon ends; what rings now stops with it (it was recorded as fired).
                runner.command(.cancel, by: who, activeOnly: true)
                endRequested = true
                return
            case (SIGHUP, .daemon):
                zoneFilesChanged()  // also where the watch could not be set up
                onReload?()
            case (SIGUSR1, _):
                runner.command(.snooze, by: who, activeOnly: mode == .daemon)
            case (SIGTSTP, _):
                // Ringing or pre-ringing, a stopped process would be silent until fg: not stopped.
                guard !ctrlZWhileRinging(by: who) else { break }
                // Give the terminal back as the shell expects it, then stop as the default action would.
                console.clearStatus()
                terminal?.restore()
                SignalChannel.stopSelf()
            case (SIGCONT, _):
                if stdinOpen { terminal?.enterCbreak() }
                runner.continued()
                consoleObserver.redrawRinging()
            case (SIGWINCH, _):
                break  // the status line is fitted to the new width before the next poll
            default:
                // Every other signal we receive would have ended the process: end the alarms
                // properly instead (sound stopped, terminal restored), then exit 128 + n.
                fatalSignal = s
                runner.command(.cancel, by: who, activeOnly: mode == .daemon)
                return
            }
            if mode == .oneOff && runner.isFinished { return }
        }
    }

    /// Ctrl-Z (SIGTSTP) while something rings or pre-rings, by `AlarmEngine.suspended`: refused
    /// under `--challenge` (said, it rings on), else a snooze as the snooze key's. Each is said on
    /// the console and is a `ctrl_z` event. False when nothing rings: wake stops as job control expects.
    private func ctrlZWhileRinging(by who: Requester) -> Bool {
        let rules = runner.alarmIDs.compactMap { id -> (String, AlarmEngine.SuspendRule)? in
            guard let state = runner.state(of: id), let settings = runner.setup(of: id)?.settings else { return nil }
            return (id, AlarmEngine.suspended(in: state, challenge: settings.challenge))
        }
        guard rules.contains(where: { $0.1 != .stopsProcess }) else { return false }
        for (id, rule) in rules where rule != .stopsProcess {
            let result: String
            if rule == .refused, case .snoozed? = runner.state(of: id) {
                console.info("Ctrl-Z does not stop wake while a --challenge alarm is snoozed: it rings again when the snooze ends")
                result = "refused"
            } else if rule == .refused {
                let sum = runner.challenge(of: id).map { " (\($0.question))" } ?? ""
                console.info("Ctrl-Z does not pause a ringing alarm under --challenge; solve the sum\(sum) or snooze (s, z or space)")
                result = "refused"
            } else {
                let preRinging: Bool
                if case .preRinging? = runner.state(of: id) { preRinging = true } else { preRinging = false }
                console.info(preRinging ? "Ctrl-Z does not pause a ringing alarm: the quiet ring stops, as a key does"
                                        : "Ctrl-Z does not pause a ringing alarm: it snoozes it, as s does")
                runner.command(.snooze, by: who, alarm: id)
                switch runner.state(of: id) {
                case .snoozed?: result = "snoozed"
                case .armed?: result = "pre_stopped"
                default: result = "snooze_refused"  // past --snooze-limit: it rings on, and the refusal is said
                }
            }
            var fields: [(String, JSONValue)] = mode == .daemon ? [("alarm", .string(id))] : []
            fields.append(("result", .string(result)))
            log?.emit("ctrl_z", at: SystemClock.realtime, fields)
        }
        return true
    }

    /// A sleep sound's key: it fades away, then stops (as that key's stop); false when no timer
    /// can be made (then the key stops it at once).
    private func fadeThenStop(by who: Requester) -> Bool {
        guard let timer = try? timers.deadlineTimer(.elapsed, { [unowned self] _ in
            runner.command(.stop, by: who, activeOnly: false)
            keyFadeTimer?.disarm()
        }) else { return false }
        // The fade, plus what the device holds (its buffer plays at the level it was written at).
        let end = Wait(instant: SystemClock.now().boottime + Self.keyFade + .milliseconds(700), clock: .elapsed)
        guard (try? timer.arm(end)) != nil else { return false }
        keyFadeTimer = timer
        output.fadeNow(over: Self.keyFade)
        return true
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
        for k in keyReader.keys(in: keys) {
            // Under --challenge, digits, backspace and Enter type the answer; the snooze keys
            // still snooze, and any other key is a stop the engine refuses (and says so).
            if runner.isChallenging {
                if entryAsked != runner.challengesAsked {
                    entry.clear()
                    entryAsked = runner.challengesAsked
                }
                // An escape sequence (Delete, an F-key, a mouse report) is no key of the entry.
                switch k.byte.map({ entry.key($0) }) ?? .notEntry {
                case .typing(let text):
                    console.status { _ in "answer: \(text)" }
                    continue
                case .entered(let text):
                    console.clearStatus()
                    runner.answer(text)
                    entryAsked = runner.challengesAsked
                    if mode == .oneOff && runner.isFinished { return }
                    continue
                case .empty:
                    continue
                case .notEntry:
                    break
                }
            } else {
                entry.clear()
            }
            if isSleepTimer, keyFadeTimer == nil, fadeThenStop(by: .key(k.name)) { continue }
            let (command, who) = isSleepTimer ? (.stop, .key(k.name)) : KeyBinding.command(for: k)
            runner.command(command, by: who, activeOnly: mode == .daemon)
            if mode == .oneOff && runner.isFinished { return }
        }
    }
}
