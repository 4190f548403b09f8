import Glibc
import WakeCore
import WakeEngine
import WakeSystem

/// A session's answer to `wake list`, `stop`, `snooze` and `cancel` from another shell: the
/// control server in the user's control directory, its requests turned into the runner's
/// commands (with who asked, so the log says `by: "control"`), and what the alarms are now.
/// A one-off alarm answers to its PID, the daemon's alarms to their names.
public final class ControlEndpoint: SessionAttachment, RuntimeObserver {
    private(set) var server: ControlServer?
    private unowned var session: SessionContext!
    private let pid = getpid()
    /// The control directory, or nil for the user's (`ControlDirectory`).
    private let directory: String?

    public init(directory: String? = nil) { self.directory = directory }

    /// Opens the socket in the control directory; without it the alarm still rings and stops by
    /// key or signal, and that is said.
    public func start(in session: SessionContext) {
        self.session = session
        let why: String
        do {
            guard let dir = try directory ?? ControlDirectory.prepare(create: true) else { return }
            let me = WeakBox<ControlEndpoint>()
            let server = try ControlServer(reactor: session.reactor, timers: session.timers,
                                           path: ControlDirectory.socketPath(in: dir, pid: pid)) { request, peer in
                me.object?.answer(request, from: peer) ?? []
            }
            me.object = self
            server.onRefused = { [weak session] peer in
                // Another user's process reached the socket: shut out, and recorded.
                session?.record("control_refused", [("uid", .int(Int64(peer.uid))), ("pid", .int(Int64(peer.pid)))])
            }
            self.server = server
            socketPath = ControlDirectory.socketPath(in: dir, pid: pid)
            session.runner.observe(with: self)
            return
        } catch let error as ControlDirectoryError {
            why = error.description
        } catch {
            why = "cannot open the control socket (\(error))"
        }
        session.console.error("warning: \(why); 'wake stop' and 'wake list' cannot reach this \(session.standing ? "daemon" : "alarm")")
    }

    public func stop() { server?.close() }

    /// Closed before the alarms are shut down: no client is told of an alarm that is going away.
    public var stopsBeforeTheAlarms: Bool { true }

    /// The socket's path while it is open.
    private var socketPath: String?

    /// An alarm changed since the last turn of the loop.
    private var changed = false

    /// An alarm armed, rung, snoozed or ended: said by touching the socket, the one file of this
    /// process that others watch, so `wake next --follow` asks again at once instead of polling.
    /// Only noted here: a ring starts inside this event, and nothing may come between the
    /// deadline and the first frame, so the touch waits for the loop's next turn.
    public func observe(_ event: RuntimeEvent) {
        switch event.kind {
        case .armed, .ringStarted, .snoozed, .finished, .preRingStarted, .preRingStopped: changed = true
        default: break
        }
    }

    public func beforePoll() {
        guard changed else { return }
        changed = false
        if let socketPath, server != nil { ControlDirectory.announceChange(socketPath) }
    }

    // MARK: answers

    private var standing: Bool { session.standing }

    /// The ID others name an alarm by.
    private func publicID(_ id: String) -> String { standing ? id : String(pid) }
    private func internalID(_ publicID: String) -> String? { session.runner.alarmIDs.first { self.publicID($0) == publicID } }

    private func phase(_ id: String) -> ControlRouting.Phase {
        switch session.runner.state(of: id) {
        case .armed?: return .waiting
        case .ringing?: return .ringing
        case .preRinging?: return .preRinging
        case .snoozed?: return .snoozed
        case .finished?, nil: return .finished
        }
    }

    func answer(_ request: ControlRequest, from peer: PeerCredentials) -> [ControlRecord] {
        switch request {
        case .list:
            return session.runner.alarmIDs.filter { phase($0) != .finished }.map(describe)
        case .extendSleep(let span):
            // Only a sleep timer plays on for longer; an alarm's --ring-for is its own.
            guard session.isSleepTimer else { return [] }
            return session.runner.alarmIDs.compactMap { id in
                guard let until = session.runner.extendRingLimit(of: id, by: span) else { return nil }
                var record = base(id)
                record["kind"] = "done"
                record["action"] = "extended"
                record.set("until", instant: until)
                return record
            }
        case .command(let command, let id, let length):
            let alarms = session.runner.alarmIDs.map {
                ControlRouting.Alarm(id: publicID($0), phase: phase($0), standing: standing, snoozes: session.runner.snoozes(of: $0) ?? SnoozeCount())
            }
            let who = Requester.control("wake \(command.rawValue) (pid \(peer.pid))")
            var records: [ControlRecord] = []
            for (target, verdict) in ControlRouting.route(command, id: id, alarms: alarms) {
                guard let local = internalID(target) else { continue }
                var record = base(local)
                switch verdict {
                case .apply:
                    let before = phase(local)
                    session.runner.command(command, by: who, alarm: local, length: length)
                    record["kind"] = "done"
                    switch session.runner.state(of: local) {
                    case .armed? where before == .preRinging:
                        // The pre-alarm stopped; the alarm stays set (its time is the record's).
                        record["action"] = "pre-stopped"
                    case .snoozed?:
                        record["action"] = "snoozed"
                        record.set("until", instant: session.runner.nextWall(of: local))
                    case .finished(.cancelled)?: record["action"] = "cancelled"
                    case .finished(.upAlready)?: record["action"] = "up-already"
                    case .finished?: record["action"] = "stopped"
                    default: record["action"] = "unchanged"
                    }
                case .refuse(let why):
                    record["kind"] = "refused"
                    record["reason"] = why.rawValue
                    if why == .snoozeLimit, let count = session.runner.snoozes(of: local) {
                        record.snoozes = count
                        // Refused where it rings too (the engine's own rule), so its console and
                        // event log say so as for a key.
                        session.runner.command(command, by: who, alarm: local)
                    }
                }
                records.append(record)
            }
            return records
        }
    }

    /// The fields every record about an alarm has.
    private func base(_ id: String) -> ControlRecord {
        var r = ControlRecord()
        r["id"] = publicID(id)
        r["pid"] = String(pid)
        r["standing"] = standing ? "1" : "0"
        // Read by other processes (list --json, the D-Bus API): 24-hour, whatever this reader's clock.
        r["time"] = ClockStyle.$current.withValue(.twentyFourHour) { session.deadlineText(of: id) }
        return r
    }

    private func describe(_ id: String) -> ControlRecord {
        var r = base(id)
        // A sleep timer answers `wake stop`, but is no alarm to list, to show next or to publish.
        r["kind"] = session.isSleepTimer ? "sleep" : "alarm"
        let phase = phase(id)
        // Ringing with no device working and no bell: said as it is, never shown as ringing.
        r["state"] = phase == .ringing && session.isSilent ? "silent" : phase.rawValue
        r["wakes_system"] = session.wakesSystem ? "1" : "0"
        r.set("next", instant: session.runner.nextWall(of: id))
        r.set("since", instant: session.runner.ringingSince(of: id))
        // The occurrence's snoozes, for `wake list` ("snoozed 2 of 3 until 07:18").
        r.snoozes = session.runner.snoozes(of: id)
        // `--unattended`: the round an unanswered occurrence has reached ("round 2 of 3").
        if let (round, news) = session.runner.round(of: id), round > 1, let news {
            r["round"] = String(round)
            r["rounds"] = String(news.of)
        }
        if let setup = session.runner.setup(of: id) {
            // A folder or list: the file this ring plays first.
            r["sound"] = setup.ring.soundKind == .builtIn ? "" : setup.ring.entries.first ?? setup.ring.sound.path
            r["device"] = setup.ring.device
            r["message"] = setup.message
        }
        return r
    }
}
