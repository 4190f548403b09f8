import WakeCore
import WakeEngine
import WakeSystem

/// `wake next --follow`: a status bar's feed that pushes. It prints `wake next`'s answer in the
/// chosen format, then sleeps in poll until something can change it, and prints again only when
/// the line would differ. What it waits on, and nothing else:
///
/// - the files (inotify on their directories): alarms.toml (`wake add`, `skip`, `pause`,
///   `remove`, a hand edit), history.toml (the daemon records a ring and its end), config.toml;
/// - the running wakes: their sockets in the control directory come and go with them, and each
///   touches its socket when one of its alarms is armed, rings, snoozes or ends
///   (`ControlEndpoint`), which is how a ring and a snooze are seen without asking every second;
/// - the machine's zone (`ZoneWatch`, unless `TZ` pins it);
/// - one wall-clock timer, at the instant `NextAlarmFeed` says the line changes by itself (the
///   alarm's time, a day word turning); it also fires on a clock step or a resume.
///
/// No timeout otherwise: idle, it makes no wake-ups. A look that fails says why on stderr once
/// and keeps the line, since a bar has nobody to read an exit.
public final class NextFollower {
    public let format: NextAlarmFeedFormat
    private var feed: NextAlarmFeed
    private let context: StandingContext
    private let reactor: Reactor
    /// Writes one line to the reader; false when nobody reads any more.
    private let write: (String) -> Bool
    /// Says one line on stderr ("wake: ..." already).
    private let say: (String) -> Void
    private var watches: [DirectoryWatch] = []
    private var zoneWatch: ZoneWatch?
    private var timer: DeadlineTimer?
    private var armedAt: Instant?
    /// Something changed since the last look; the look is made before the next wait, once for
    /// every change of one turn (an atomic write is several inotify events).
    private var stale = true
    /// How the feed ended, once it has.
    public private(set) var result: CommandResult?
    /// How many looks were made (for the tests: a change is one look, not many).
    public private(set) var looks = 0

    /// Where a follower watches: the files' directories and the control directory.
    public struct Places {
        public var fileDirectories: [String]
        /// nil when the user has no control directory to watch (it is made by the first wake that runs).
        public var controlDirectory: String?
        public var watchZone: Bool

        public init(fileDirectories: [String], controlDirectory: String?, watchZone: Bool) {
            self.fileDirectories = fileDirectories
            self.controlDirectory = controlDirectory
            self.watchZone = watchZone
        }

        /// The user's: the alarms' and history's directories, config.toml's, the control directory.
        public static func standard(_ context: StandingContext) -> Places {
            let config = ConfigDefaults.standardPath.map { AtomicFile.split($0).directory }
            return Places(fileDirectories: [context.store.alarmsDirectory, context.store.historyDirectory] + [config].compactMap { $0 },
                          controlDirectory: ControlDirectory.path(), watchZone: !ZoneLoader.zonePinned)
        }
    }

    public init(format: NextAlarmFeedFormat, context: StandingContext, places: Places, reactor: Reactor, timers: TimerFactory,
                write: @escaping (String) -> Bool, say: @escaping (String) -> Void) throws(WakeFailure) {
        self.format = format
        feed = NextAlarmFeed(format: format)
        self.context = context
        self.reactor = reactor
        self.write = write
        self.say = say
        do {
            watches.append(try DirectoryWatch(directories: places.fileDirectories, ignoring: AlarmStore.isScratch))
            if let control = places.controlDirectory { watches.append(try DirectoryWatch(directories: [control], attributes: true)) }
            timer = try timers.deadlineTimer(.wall) { [weak self] _ in
                // Fired, or the clock was set or the machine resumed: look again either way.
                self?.armedAt = nil
                self?.stale = true
            }
        } catch {
            // Without a watch the feed would go stale unseen: refuse rather than print a lie.
            throw WakeFailure(.resource, "cannot watch the alarm files (\(error)); raise fs.inotify.max_user_instances, or poll 'wake next' instead")
        }
        for watch in watches {
            reactor.register(fd: watch.fd) { [weak self] _ in
                if watch.drain().any { self?.stale = true }
            }
        }
        if places.watchZone, let zone = try? ZoneWatch() {
            zoneWatch = zone
            reactor.register(fd: zone.fd) { [weak self] _ in
                if zone.drain() { self?.stale = true }
            }
        }
        // A reader that goes away (a pipe's POLLERR, a terminal's POLLHUP) ends the feed at once,
        // not at the next change. Asking for POLLERR alone reports nothing else: a file or
        // /dev/null never wakes the loop.
        reactor.register(fd: StandardDescriptors.output, events: Poll.error) { [weak self] revents in
            if revents & (Poll.error | Poll.hangUp) != 0 { self?.result = .done }
        }
        reactor.addHook { [weak self] in self?.lookIfStale() }
    }

    /// Ends on SIGINT, SIGTERM and SIGHUP with success; stops on Ctrl-Z.
    public func listen(to signals: SignalChannel) {
        reactor.register(fd: signals.fd) { [weak self] _ in
            for signal in signals.drain() {
                switch SignalChannel.request(of: signal) {
                case .finish: self?.result = .done
                case .stop: SignalChannel.stopSelf()
                case .lookAgain: self?.stale = true
                case .end: self?.result = .endedBySignal(signal)
                }
            }
        }
    }

    /// Follows until a signal or the reader's going ends it.
    public func run() -> CommandResult {
        while result == nil {
            do { try reactor.runOnce() } catch {
                say("wake: the event loop failed (\(error)); run 'wake next --follow' again")
                return .failed(.resource)
            }
        }
        return result ?? .done
    }

    private func lookIfStale() {
        guard stale, result == nil else { return }
        stale = false
        look()
    }

    /// One look at the alarms: print when the line changed, say new warnings, set the timer.
    func look() {
        looks += 1
        let capture = Console.LineCapture()
        let console = Console(capturing: capture)
        let found: StandingAlarmActions.NextLook
        do { found = try StandingAlarmActions.soonest(console: console, in: context) } catch {
            for line in feed.failed(capture.lines + ["wake: " + TerminalText.sanitizeLine(error.message)]) { say(line) }
            return
        }
        let update = feed.update(found.alarm, problems: capture.lines + (found.note.map { ["wake: " + TerminalText.sanitizeLine($0)] } ?? []),
                                 now: found.now, zone: found.zone)
        for line in update.problems { say(line) }
        if let line = update.line, !write(line + "\n") {
            result = .done
            return
        }
        arm(update.lookAgainAt)
    }

    private func arm(_ instant: Instant?) {
        guard instant != armedAt, let timer else { return }
        armedAt = instant
        guard let instant else { return timer.disarm() }
        do { try timer.arm(Wait(instant: instant, clock: .wall)) } catch {
            say("wake: cannot set a timer (\(error)); the feed changes only with the alarms, not at their times")
        }
    }
}

extension NextFollower {
    /// `wake next --follow [--format F]` from the command line's words: checked, then followed
    /// until a signal or the reader's going ends it.
    public static func follow(format: String?, follow: Bool, json: Bool, console: Console, signals: SignalChannel) throws(WakeFailure) -> CommandResult {
        let chosen = try checked(format: format, follow: follow, json: json)
        let context = try StandingContext.standard()
        let reactor = Reactor()
        let follower = try NextFollower(format: chosen, context: context, places: .standard(context), reactor: reactor,
                                        timers: ReactorTimers(reactor: reactor),
                                        write: { StandardDescriptors.write($0, to: StandardDescriptors.output) },
                                        say: { _ = StandardDescriptors.write($0 + "\n", to: StandardDescriptors.error) })
        follower.listen(to: signals)
        return follower.run()
    }

    /// The format asked for; `--format` and `--json` are refused where they mean nothing.
    static func checked(format: String?, follow: Bool, json: Bool) throws(WakeFailure) -> NextAlarmFeedFormat {
        let names = NextAlarmFeedFormat.names.joined(separator: ", ")
        guard follow else {
            throw WakeFailure(.usage, "--format is for --follow; use 'wake next --follow --format \((format ?? "plain").printable)', or 'wake next --json' for one JSON answer")
        }
        if json { throw WakeFailure(.usage, "--json and --follow do not go together; use 'wake next --follow --format json'") }
        guard let format else { return .plain }
        guard let chosen = NextAlarmFeedFormat(rawValue: format) else {
            throw WakeFailure(.usage, "unknown format '\(format.printable)' for --format; give one of \(names)")
        }
        return chosen
    }
}
