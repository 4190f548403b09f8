import WakeCore
import WakeEngine
import WakeSystem

/// `--mpris`: while an alarm rings or is snoozed, it is a media player on the session bus
/// (`org.mpris.MediaPlayer2.wake`), so media keys, a headset's button, the desktop's media
/// widget and playerctl reach it: Pause and PlayPause snooze, Stop and Next stop (or snooze,
/// with `snooze-only`), Play does nothing. The player goes when the alarm ends.
///
/// As with the notifier, events only record what each alarm should show; the bus work happens
/// before the next poll. The connection is opened only once the ring is audible (nothing may
/// stand between the deadline and the first frame), and nothing waits for the bus daemon.
/// Every call a client makes is recorded in the event log with the caller's unique bus name: any
/// program on the session bus can pause every player (screen lockers and other alarm clocks do),
/// so a snooze nobody remembers must be traceable.
public final class MediaPlayers: RuntimeObserver, SessionAttachment {
    /// How long the end of an alarm waits for what its player queued (the reply to the Stop that
    /// ended it) to be written before the connection closes: a local socket takes it at once.
    static let closeFlush: Duration = .milliseconds(200)

    private enum Phase: Equatable {
        case ringing
        /// Snoozed at `at` until `until` (both wall clock): the title names the day when it is not `at`'s.
        case snoozed(until: Instant, at: Instant)
        /// The pre-alarm rings quietly: any button stops it, and the alarm stays set.
        case preRinging
        case ended
    }

    private struct Tracked {
        var phase: Phase = .ringing
        /// The ring has been heard (or will not be: silent), so the bus may be touched.
        var audible = false
        /// A player was tried for this alarm: not again if it failed (no bus, no name).
        var tried = false
        var player: MediaPlayer?
        var registration: Reactor.Registration?
        /// The bus gave it no name: closed on the next turn, never inside the reply's callback.
        var rejected = false
    }

    private unowned var session: SessionContext!
    private let mode: (String) -> MediaPlayerMode
    private let pid: Int32
    private let address: String?
    private var alarms: [String: Tracked] = [:]
    private var warned = false

    /// `mode`: each alarm's `--mpris`, by id (a daemon's alarms have their own). `pid` names a
    /// second player's instance. `address`: another bus than the session's, for tests.
    public init(mode: @escaping (String) -> MediaPlayerMode, pid: Int32 = CurrentProcess.id, address: String? = nil) {
        self.mode = mode
        self.pid = pid
        self.address = address
    }

    public func start(in session: SessionContext) {
        self.session = session
        session.runner.observe(with: self)
    }

    /// The names owned now, by alarm: for tests and `wake test`.
    var names: [String: String] { alarms.compactMapValues { $0.player?.owned } }

    // MARK: events in

    public func observe(_ event: RuntimeEvent) {
        let id = event.alarm
        switch event.kind {
        case .ringStarted:
            // An alarm that joins a ring already heard shares its sound, and the runner says
            // `ringing` only when the output next becomes audible: it is heard now.
            let joining = alarms.contains { $0.key != id && $0.value.phase == .ringing && $0.value.audible }
            alarms[id, default: Tracked()].phase = .ringing
            if joining { alarms[id]?.audible = true }
        case .ringing, .sound(.silent):
            alarms[id, default: Tracked()].audible = true
        case .snoozed(let until, _):
            guard alarms[id] != nil else { return }
            alarms[id]?.phase = .snoozed(until: until, at: event.time.realtime)
        case .preRingStarted:
            // Heard from its start (the runner says `ringing` for the alarm's own ring only).
            alarms[id, default: Tracked()].phase = .preRinging
            alarms[id]?.audible = true
        case .checkUp(.set(let at, _)):
            // Silent until it asks: paused, as a snooze is; its Stop is the answer.
            guard alarms[id] != nil else { return }
            alarms[id]?.phase = .snoozed(until: at, at: event.time.realtime)
        case .preRingStopped:
            // The player goes with the pre-ring; the alarm's ring brings a new one.
            guard alarms[id] != nil else { return }
            alarms[id]?.phase = .ended
        case .finished:
            guard alarms[id] != nil else { return }
            alarms[id]?.phase = .ended
        default:
            return
        }
    }

    // MARK: the bus

    /// Before each poll: players opened, shown and closed as their alarms are now. Never inside
    /// a player's dispatch (a Stop ends the alarm while sd-bus is in its callback): the player
    /// must not be closed under it.
    public func beforePoll() {
        for id in alarms.keys.sorted() { settle(id) }
    }

    private func settle(_ id: String) {
        guard var t = alarms[id] else { return }
        if t.phase == .ended {
            close(id)
            alarms[id] = nil
            return
        }
        if let player = t.player {
            guard player.service.isOpen, !t.rejected else {
                // The bus daemon went away or dropped us: the alarm rings on without a player.
                close(id)
                return
            }
            player.show(status(t.phase), track(for: id, t.phase))
        } else if t.audible && !t.tried && mode(id) != .off {
            t.tried = true
            alarms[id] = t
            open(id)
        }
        if let player = alarms[id]?.player, let registration = alarms[id]?.registration {
            if let pfd = player.service.pollDescriptor {
                session.reactor.update(registration, events: pfd.events)
            } else {
                close(id)
            }
        }
    }

    private func open(_ id: String) {
        guard var t = alarms[id] else { return }
        let player: MediaPlayer
        do {
            player = try MediaPlayer(status: status(t.phase), track: track(for: id, t.phase), address: address)
        } catch {
            // No session bus at all (a console, a server): no player is expected there, as no
            // notification is. Said nowhere.
            return
        }
        guard let pfd = player.service.pollDescriptor else {
            player.close(flushing: .zero)
            return
        }
        player.onCall = { [unowned self] method, caller in called(method, by: caller, alarm: id) }
        t.player = player
        t.registration = session.reactor.register(fd: pfd.fd, events: pfd.events) { [unowned self] _ in
            // Dispatched here, after the poll, never in the hook: a Stop that ends the alarm
            // must be seen by the loop's check before it polls again.
            player.service.process()
            if alarms[id]?.phase == .ended || alarms[id]?.rejected == true || !player.service.isOpen { settle(id) }
        }
        alarms[id] = t
        // Another of this process's players may hold an instance name, or be asking for one now:
        // the bus daemon decides, in order, so there is one more name than there are alarms.
        let instances = (0...alarms.count).map { MediaPlayer.instanceName(pid: pid, slot: $0) }
        player.claim(MediaPlayer.name, else: instances) { [unowned self] result in
            switch result {
            case .success(let name):
                warned = false
                record("mpris_player", alarm: id, [("name", .string(name))])
            case .failure(let error):
                warn("the alarm's media player could not take a name on the session bus (\(error.description.printable)); "
                     + "media keys will not reach it: stop it with a key, a signal or 'wake stop'")
                alarms[id]?.player?.onCall = nil
                alarms[id]?.rejected = true
            }
        }
    }

    private func close(_ id: String) {
        guard var t = alarms[id] else { return }
        if let registration = t.registration { session.reactor.unregister(registration) }
        t.player?.close(flushing: Self.closeFlush)
        t.player = nil
        t.registration = nil
        alarms[id] = t
    }

    // MARK: what it shows

    private func status(_ phase: Phase) -> MediaPlayer.Status {
        if case .snoozed = phase { return .paused }
        return .playing
    }

    private func track(for id: String, _ phase: Phase) -> MediaPlayer.Track {
        var title = session.alarmTitle(of: id)
        if case .snoozed(let until, let at) = phase {
            title += localized(", snoozed until {time}", Formatting.clockTimeAndDay(until, now: at, zone: session.zone))
        }
        if phase == .preRinging { title += localized(", pre-alarm") }
        // `--unattended`: the round a ring nobody answered has reached, as `wake list` says it.
        if let (round, news) = session.runner.round(of: id), round > 1, let news {
            title += localized(", round {round} of {rounds}", String(round), String(news.of))
        }
        let message = session.runner.setup(of: id)?.message
        return MediaPlayer.Track(title: title, artist: message ?? title, id: "/wake/alarm/" + BusObjects.pathElement(id))
    }

    // MARK: calls in

    private func called(_ method: MediaPlayer.Method, by caller: BusCaller, alarm id: String) {
        let who = Requester.mediaControl(caller: caller)
        let command: AlarmCommand?
        switch method {
        case .pause:
            command = .snooze
        case .playPause:
            // A toggle: on a snoozed alarm it is a Play.
            if case .snoozed = alarms[id]?.phase { command = nil } else { command = .snooze }
        case .play:
            // Nothing: a ringing alarm already plays, and a snoozed one rings again at the end of
            // its snooze. A Play meant for music (a media key, a screen unlocked) must neither
            // ring the alarm early nor stop it.
            command = nil
        case .stop, .next:
            command = mode(id).stopCommand
        }
        record("mpris", alarm: id, [("method", .string(method.rawValue)), ("command", .string(command?.rawValue ?? "none")),
                                    ("by", .string(who.kind))] + EventLogObserver.callerFields(caller))
        if let command { session.runner.command(command, by: who, alarm: id, activeOnly: true) }
    }

    private func record(_ event: String, alarm id: String, _ fields: [(String, JSONValue)]) {
        session.record(event, (session.standing ? [("alarm", .string(id))] : []) + fields)
    }

    /// One warning while players keep failing: `line` says what failed and what to do instead.
    private func warn(_ line: String) {
        guard !warned else { return }
        warned = true
        session.console.error("warning: " + line)
    }

    /// The dry run's words for `mode`: what the buttons will do (the bus is not asked: the
    /// player appears only at ring time).
    static func dryRunText(_ mode: MediaPlayerMode) -> String {
        switch mode {
        case .on: return localized("on (a media player while it rings: pause snoozes, stop and next stop)")
        case .snoozeOnly: return localized("snooze-only (a media player while it rings: every button snoozes)")
        case .off: return "off"
        }
    }

    // MARK: the end

    /// The session ends: every player leaves the bus, which releases its name.
    public func stop() {
        for id in alarms.keys.sorted() { close(id) }
        alarms = [:]
    }
}
