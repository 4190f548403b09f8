import WakeCore
import WakeEngine
import WakeSystem

/// The daemon's D-Bus API (`io.github.wakeclock.Wake1` on the session bus, wake(1) D-BUS
/// INTERFACE): a manager object and one object per standing alarm, kept in step with what the
/// daemon has read and armed; signals when an alarm rings, is snoozed, stopped or missed.
///
/// Every control path is the command line's: Snooze and Stop are the runner's commands, as the
/// notification's buttons give them (by `.busAPI(caller:)`); Add, Remove, Skip, Pause and Resume
/// are `StandingAlarmActions`, the functions `wake add` and the others call, which write the
/// files the daemon then reloads. Those may block (a sound decoded, a device probed, a lock), so
/// they run on a thread of their own, one at a time, and the call is answered when they end; the
/// loop never waits for them, nor for the bus: its descriptor is in the poll set and nothing
/// else runs while idle. With no session bus, or the name owned by another program, the daemon
/// says so once and rings without the API.
public final class BusAPI: RuntimeObserver, SessionAttachment {
    /// What an alarm's object shows, compared with what was shown to send only what changed.
    struct AlarmView: Equatable {
        var name: String
        var time: String
        var days: String
        var date: String
        var message: String
        /// Microseconds since the epoch; 0 for none.
        var nextRing: UInt64
        var state: String
        var skipped: [UInt64]
        var enabled: Bool
        /// `--unattended`: the round an unanswered occurrence has reached, and how many it has
        /// (`wake list`'s "round 2 of 3"); 0 and 0 until a ring has gone unanswered.
        var round: UInt32 = 0
        var rounds: UInt32 = 0
        /// `standing`, or `one-off` (a wake run from a terminal): read-only, its process's PID.
        var kind = "standing"
        var readOnly = false
        var pid: UInt32 = 0
        /// A timer's span, and while paused the span it holds (microseconds; 0 for an alarm, or a running timer's hold).
        var timerSpan: UInt64 = 0
        var timerHeld: UInt64 = 0

        var properties: [(String, BusValue)] {
            [("Name", .string(name)), ("Time", .string(time)), ("Days", .string(days)), ("Date", .string(date)),
             ("Message", .string(message)), ("NextRing", .uint64(nextRing)), ("State", .string(state)),
             ("Skipped", .array(element: "t", skipped.map { .uint64($0) })), ("Enabled", .boolean(enabled)),
             ("Round", .uint32(round)), ("Rounds", .uint32(rounds)), ("Kind", .string(kind)), ("ReadOnly", .boolean(readOnly)),
             ("Pid", .uint32(pid)), ("TimerSpan", .uint64(timerSpan)), ("TimerHeld", .uint64(timerHeld))]
        }

        func changes(from old: AlarmView) -> [String] {
            var names: [String] = []
            if name != old.name { names.append("Name") }
            if time != old.time { names.append("Time") }
            if days != old.days { names.append("Days") }
            if date != old.date { names.append("Date") }
            if message != old.message { names.append("Message") }
            if nextRing != old.nextRing { names.append("NextRing") }
            if state != old.state { names.append("State") }
            if skipped != old.skipped { names.append("Skipped") }
            if enabled != old.enabled { names.append("Enabled") }
            if round != old.round { names.append("Round") }
            if rounds != old.rounds { names.append("Rounds") }
            if timerSpan != old.timerSpan { names.append("TimerSpan") }
            if timerHeld != old.timerHeld { names.append("TimerHeld") }
            // Kind, ReadOnly and Pid are an object's for its life: a name is one alarm's.
            return names
        }
    }

    struct NextView: Equatable {
        var time: UInt64 = 0
        var id = ""
        var message = ""
    }

    /// A standing-alarm action, run on the worker thread: what it answers (Add: the alarm's
    /// name), or its failure; `Console` collects its lines for the journal.
    typealias Work = (Console) throws(WakeFailure) -> String

    /// What a job on the worker ends with: its answer, and what it found of the one-offs (a look,
    /// or a command forwarded to one and the look at it after).
    struct Outcome: Sendable {
        /// The answer, or the failure's message when `error` (its D-Bus error name) is set.
        var value = ""
        var error: String?
        var look: OneOffLook?
    }

    /// At most this many actions wait for the worker; more are refused (Busy), not queued without end.
    static let queueLimit = 16

    /// An action's end, posted from the worker to the loop: its answer or its failure's error
    /// name, and the lines it said.
    private typealias Posted = (job: Int, outcome: Outcome, lines: [String])

    private struct Job {
        var id: Int
        var method: String
        var sender: String
        var work: (Console) throws(WakeFailure) -> Outcome
        /// nil for the API's own look at the one-offs, which nobody called.
        var reply: BusPendingReply?
        var answer: (String) -> BusReply
        /// Whether it wrote the files, read again when it has ended (a forwarded command writes none).
        var reloads = true
    }

    private unowned var session: SessionContext!
    private let controller: any BusAPIHost
    private let clock: RuntimeClock
    private let address: String?
    /// Where Resume's action reads and writes; nil: the user's files (the in-process tests' own).
    private let standing: (() -> StandingContext)?
    private var service: BusService?
    private var objects: BusObjects?
    private var registration: Reactor.Registration?
    private var mailbox: PostBox<Posted>?
    private var waiting: [Job] = []
    private var running: Job?
    private var jobs = 0
    private var views: [String: AlarmView] = [:]
    /// The one-offs' objects as the last looks found them, by PID.
    private var oneOffViews: [Int32: AlarmView] = [:]
    private let oneOffs: BusAPIOneOffPlace
    private var oneOffWatch: (watch: DirectoryWatch, registration: Reactor.Registration)?
    /// Each shown one-off's end, watched: one killed without a word (SIGKILL) leaves its socket,
    /// and nothing in the directory changes, so its object would stay.
    private var oneOffExits: [Int32: (watch: ProcessExitWatch, registration: Reactor.Registration)] = [:]
    /// The control directory changed (a wake came, went, or touched its socket): look again.
    private var oneOffsStale = true
    /// A look is waiting for the worker or running: changes meanwhile make one more, not many.
    private var looking = false
    /// The last look's problem, said once until it changes.
    private var oneOffProblem: String?
    private var next = NextView()
    private var dirty = true
    /// Set from inside the bus's dispatch (the name refused); acted on before the next poll.
    private var giveUp: String?
    /// The objects of the first refresh are served without InterfacesAdded: nobody can know
    /// the connection yet (the name is not even owned).
    private var announced = false

    /// `address`: another bus than the session's (the in-process tests' private one); `oneOffs`:
    /// where the one-off alarms are found.
    public init(controller: any BusAPIHost, clock: RuntimeClock, address: String? = nil, standing: (() -> StandingContext)? = nil,
                oneOffs: BusAPIOneOffPlace = .standard) {
        self.controller = controller
        self.clock = clock
        self.address = address
        self.standing = standing
        self.oneOffs = oneOffs
    }

    /// Whether the API is on the bus (for the tests).
    var isServing: Bool { service?.isOpen ?? false }

    /// The one-offs' names shown now, and whether a look is under way (for the tests).
    var oneOffNames: [String] { oneOffViews.values.map(\.name).sorted() }
    var isLooking: Bool { looking || oneOffsStale }
    func oneOffState(_ pid: Int32) -> String? { oneOffViews[pid]?.state }

    // MARK: the session

    public func start(in session: SessionContext) {
        self.session = session
        session.runner.observe(with: self)
        let previous = controller.onReloaded
        controller.onReloaded = { [unowned self] in previous?(); dirty = true }
        let previousMissed = controller.onMissed
        controller.onMissed = { [unowned self] name, at in previousMissed?(name, at); missed(name, at) }
        let service: BusService
        do { service = try BusService(description: "wake-api", address: address) } catch {
            session.console.info("no D-Bus API: \(error.description.printable); the daemon rings the alarms without it")
            return
        }
        guard let pfd = service.pollDescriptor else {
            session.console.info("no D-Bus API: the session bus connection failed at once; the daemon rings the alarms without it")
            return
        }
        do {
            let objects = try BusObjects(service: service, root: BusAPIDescription.root, objectManager: true)
            objects.put(BusAPIDescription.root, [managerInterface()])
            try service.requestName(BusAPIDescription.busName) { [unowned self] result in
                if case .failure(let error) = result {
                    giveUp = "cannot own \(BusAPIDescription.busName) on the session bus (\(error.description.printable)); "
                        + "the daemon rings the alarms without its D-Bus API: stop the program that owns the name and restart the daemon"
                }
            }
            let mailbox = try PostBox<Posted>()
            session.reactor.register(fd: mailbox.signal.fd) { [unowned self] _ in collect() }
            self.mailbox = mailbox
            self.objects = objects
        } catch {
            session.console.info("no D-Bus API: \(String(describing: error).printable); the daemon rings the alarms without it")
            service.close()
            return
        }
        self.service = service
        registration = session.reactor.register(fd: pfd.fd, events: pfd.events) { [unowned self] _ in
            // Dispatched after the poll, never in the hook: a Stop must be seen by the loop's
            // check before it polls again.
            self.service?.process()
        }
        watchOneOffs()
        refresh()
    }

    /// The control directory watched: wakes come and go with their sockets and touch them on
    /// each change (IN_ATTRIB); the daemon's own touches are left out. Without a watch the
    /// one-offs would go stale unseen, so none is shown then.
    private func watchOneOffs() {
        guard let dir = oneOffs.directory else { return }
        let own = oneOffs.ownSocketName
        do {
            let watch = try DirectoryWatch(directories: [dir], attributes: true, ignoring: { $0 == own })
            let registration = session.reactor.register(fd: watch.fd) { [unowned self] _ in
                if watch.drain().any { oneOffsStale = true }
            }
            oneOffWatch = (watch, registration)
        } catch {
            oneOffsStale = false
            session.console.info("the D-Bus API shows no one-off alarm: cannot watch '\(dir.printable)' (\(error)); "
                + "raise fs.inotify.max_user_instances and restart the daemon")
        }
    }

    public func beforePoll() {
        if let why = giveUp {
            giveUp = nil
            session.console.info(why)
            detach()
            return
        }
        guard let service else { return }
        if !service.isOpen {
            session.console.info("the session bus went away; the daemon rings the alarms without its D-Bus API until it is restarted")
            detach()
            return
        }
        sendSignals()
        if oneOffsStale, !looking, oneOffWatch != nil { lookAtOneOffs() }
        if dirty { refresh() }
        if let registration, let pfd = service.pollDescriptor { session.reactor.update(registration, events: pfd.events) }
    }

    public func stop() {
        mailbox?.close()
        mailbox = nil
        waiting = []
        running = nil
        // A last signal (Stopped) is written if it can be at once; the bus daemon releases the name.
        sendSignals()
        service?.close(flushing: .milliseconds(100))
        detach()
    }

    private func detach() {
        if let registration { session.reactor.unregister(registration) }
        registration = nil
        if let oneOffWatch { session.reactor.unregister(oneOffWatch.registration) }
        oneOffWatch = nil
        for pid in Array(oneOffExits.keys) { forgetExit(of: pid) }
        objects = nil
        service?.close()
        service = nil
    }

    // MARK: what the objects show

    private func µs(_ t: Instant?) -> UInt64 { Self.microseconds(t) }

    static func microseconds(_ t: Instant?) -> UInt64 {
        guard let t, t.nanoseconds > 0 else { return 0 }
        return UInt64(t.nanoseconds / 1000)
    }

    func view(of alarm: StandingAlarm, now: Instant) -> AlarmView {
        let name = alarm.name
        let record = controller.records[name] ?? AlarmRecord(name: name)
        let paused = record.isPaused(now)
        let state: String
        switch session.runner.state(of: name) {
        case .ringing?: state = "ringing"
        case .snoozed?: state = "snoozed"
        case .preRinging?: state = "pre-ringing"
        default: state = alarm.isOff ? "off" : paused || alarm.isPausedTimer ? "paused" : "waiting"
        }
        let skipped = (record.skipInstants(of: alarm, zone: controller.zone, firstEvent: controller.firstEvents[name])
                       + [record.lastSkipped].compactMap { $0 })
            .filter { $0 > now }.map(µs)
        var view = AlarmView(name: name, time: alarm.shortTimeText, days: alarm.daysText(zone: controller.zone),
                             date: alarm.dateText ?? "", message: alarm.options[AlarmOption.message.name] ?? "",
                             nextRing: µs(session.runner.nextWall(of: name)), state: state, skipped: Array(Set(skipped)).sorted(),
                             enabled: !alarm.isOff)
        (view.timerSpan, view.timerHeld) = Self.timerMicroseconds(alarm)
        // As the control endpoint tells `wake list`: from the first ring gone unanswered on.
        if let (round, news) = session.runner.round(of: name), round > 1, let news {
            (view.round, view.rounds) = (UInt32(clamping: round), UInt32(clamping: news.of))
        }
        return view
    }

    /// Brings the objects up to what the daemon holds: new alarms announced, gone ones removed,
    /// each changed property in one PropertiesChanged per object.
    private func refresh() {
        dirty = false
        guard let objects else { return }
        let now = clock.now().realtime
        var fresh: [String: AlarmView] = [:]
        for alarm in controller.standingAlarms { fresh[alarm.name] = view(of: alarm, now: now) }
        for v in oneOffViews.values { fresh[v.name] = v }
        let old = views
        views = fresh
        for name in old.keys where fresh[name] == nil { objects.remove(BusAPIDescription.path(of: name)) }
        for (name, v) in fresh.sorted(by: { $0.key < $1.key }) {
            let path = BusAPIDescription.path(of: name)
            guard let before = old[name], objects.has(path) else {
                let pid = BusAPIDescription.oneOffPID(name)
                objects.put(path, [pid.map(oneOffInterface) ?? alarmInterface(name)], announce: announced)
                continue
            }
            let changed = v.changes(from: before)
            if !changed.isEmpty { objects.changed(path, interface: BusAPIDescription.alarm, changed) }
        }
        var n = NextView()
        if let first = fresh.values.filter({ $0.nextRing > 0 }).min(by: { ($0.nextRing, $0.name) < ($1.nextRing, $1.name) }) {
            n = NextView(time: first.nextRing, id: first.name, message: first.message)
        }
        announced = true
        if n != next {
            var names: [String] = []
            if n.time != next.time { names.append("NextAlarmTime") }
            if n.id != next.id { names.append("NextAlarmId") }
            if n.message != next.message { names.append("NextAlarmMessage") }
            next = n
            objects.changed(BusAPIDescription.root, interface: BusAPIDescription.manager, names)
        }
    }

    // MARK: events

    public func observe(_ event: RuntimeEvent) {
        let name = event.alarm
        let path = BusAPIDescription.path(of: name)
        switch event.kind {
        case .ringStarted:
            signal("Ringing", [.objectPath(path), .string(name)])
        case .snoozed(let until, _):
            signal("Snoozed", [.objectPath(path), .string(name), .uint64(µs(until))])
        case .finished(.stopped(let by)), .finished(.cancelled(let by)):
            // What a program reads stays English, whatever the daemon's language.
            let who = MessageCatalogue.$current.withValue(nil) { by.description }
            signal("Stopped", [.objectPath(path), .string(name), .string(who)])
        case .finished(.timedOut):
            signal("Stopped", [.objectPath(path), .string(name), .string(AlarmOption.ringFor.flag)])
        case .finished(.missed):
            missed(name, controller.occurrence(of: name))
        case .armed, .finished, .clockChanged, .resumed, .preRingStarted, .preRingStopped:
            // State changes (pre-ringing shows as such).
            break
        default:
            return
        }
        dirty = true
    }

    private func missed(_ name: String, _ at: Instant?) {
        signal("Missed", [.objectPath(BusAPIDescription.path(of: name)), .string(name), .uint64(µs(at))])
        dirty = true
    }

    /// Signals noted by events, sent at the loop's next turn: `Ringing` is noted inside the
    /// event that starts the ring, and nothing may come between the deadline and the first frame.
    private var unsent: [(member: String, values: [BusValue])] = []

    private func signal(_ member: String, _ values: [BusValue]) {
        guard objects != nil else { return }
        unsent.append((member, values))
    }

    private func sendSignals() {
        let queued = unsent
        unsent = []
        for s in queued { objects?.emit(BusAPIDescription.root, interface: BusAPIDescription.manager, member: s.member, s.values) }
    }

    // MARK: the interfaces

    private func managerInterface() -> BusInterface {
        BusInterface(name: BusAPIDescription.manager, introspection: BusAPIDescription.managerXML,
                     properties: { [unowned self] in
                         [("Version", .uint32(BusAPIDescription.version)), ("NextAlarmTime", .uint64(next.time)),
                          ("NextAlarmId", .string(next.id)), ("NextAlarmMessage", .string(next.message))]
                     },
                     call: { [unowned self] call in manager(call) })
    }

    private func alarmInterface(_ name: String) -> BusInterface {
        BusInterface(name: BusAPIDescription.alarm, introspection: BusAPIDescription.alarmXML,
                     properties: { [unowned self] in views[name]?.properties ?? [] },
                     setProperty: { [unowned self] property, value, call in setAlarm(name, property, value, call) },
                     call: { [unowned self] call in
                         switch call.member {
                         case "Snooze": return control(.snooze, name, call, options: call.arguments.first)
                         case "Stop": return control(.stop, name, call, options: nil)
                         case "Skip":
                             return enqueue(call, "Skip") { console throws(WakeFailure) in
                                 _ = try StandingAlarmActions.skip(.init(name: name), console: console)
                                 return ""
                             }
                         case "Update": return update(name, call)
                         default: return nil
                         }
                     })
    }

    /// An alarm's Update(a{sv}): `wake change`, on the worker as Add is.
    private func update(_ name: String, _ call: BusCall) -> BusReply {
        let a = call.arguments
        guard a.count == 1 else { return .invalidArgs("Update takes (a{sv}), not (\(a.map(\.signature).joined()))") }
        do {
            let request = try BusAPIOptions.changeRequest(name: name, options: try BusAPIOptions(a[0], method: "Update"))
            let standing = self.standing
            return enqueue(call, "Update") { console throws(WakeFailure) in
                _ = try StandingAlarmActions.changeAlarm(request, console: console, signals: nil, in: standing.map { $0() })
                return ""
            }
        } catch {
            return BusAPIDescription.reply(error)
        }
    }

    /// The one writable property: `Enabled`, the alarm's switch (`wake on`, `wake off`).
    private func setAlarm(_ name: String, _ property: String, _ value: BusValue, _ call: BusCall) -> BusReply {
        guard property == "Enabled" else {
            return .error(name: "org.freedesktop.DBus.Error.PropertyReadOnly",
                          message: "'\(property)' is read-only; only Enabled is written")
        }
        guard let on = value.bool else { return .invalidArgs("Enabled takes a boolean, not '\(value.signature)'") }
        let standing = self.standing
        return enqueue(call, "Set") { console throws(WakeFailure) in
            try StandingAlarmActions.switchAlarms(on: on, names: [name], group: nil, console: console, in: standing.map { $0() })
            return ""
        }
    }

    /// A one-off's object: Stop and Snooze are sent to its wake; Skip is refused, as every edit is.
    private func oneOffInterface(_ pid: Int32) -> BusInterface {
        let name = BusAPIDescription.oneOffName(pid: pid)
        return BusInterface(name: BusAPIDescription.alarm, introspection: BusAPIDescription.alarmXML,
                            properties: { [unowned self] in views[name]?.properties ?? [] },
                            call: { [unowned self] call in
                                switch call.member {
                                case "Snooze": return forward(.snooze, pid, call, options: call.arguments.first)
                                case "Stop": return forward(.stop, pid, call, options: nil)
                                case "Skip": return Self.readOnly(pid, "Skip")
                                case "Update": return Self.readOnly(pid, "Update")
                                default: return nil
                                }
                            })
    }

    private func manager(_ call: BusCall) -> BusReply? {
        let a = call.arguments
        func text(_ i: Int) -> String? { a.count > i ? a[i].string : nil }
        func options(_ i: Int) throws(WakeFailure) -> BusAPIOptions { try BusAPIOptions(a.count > i ? a[i] : nil, method: call.member) }
        func signature(_ s: String) -> BusReply { .invalidArgs("\(call.member) takes (\(s)), not (\(a.map(\.signature).joined()))") }
        do {
            switch call.member {
            case "ListAlarms":
                return .values([.array(element: "o", views.keys.sorted().map { .objectPath(BusAPIDescription.path(of: $0)) })])
            case "Add":
                guard a.count == 2, let when = text(0) else { return signature("sa{sv}") }
                let o = try options(1)
                return enqueue(call, "Add", answer: { .values([.objectPath(BusAPIDescription.path(of: $0))]) }) { console throws(WakeFailure) in
                    try StandingAlarmActions.addAlarm(try BusAPIOptions.addRequest(when: when, options: o), console: console, signals: nil)
                }
            case "AddTimer":
                guard a.count == 3, let span = text(0), let name = text(1) else { return signature("ssa{sv}") }
                let o = try options(2)
                let answer: (String) -> BusReply = { .values([.objectPath(BusAPIDescription.path(of: $0))]) }
                return enqueue(call, "AddTimer", answer: answer) { console throws(WakeFailure) in
                    try StandingAlarmActions.addAlarm(try BusAPIOptions.timerRequest(span: span, name: name, options: o), console: console,
                                                      signals: nil)
                }
            case "Remove":
                guard a.count == 1, let name = text(0) else { return signature("s") }
                if let pid = BusAPIDescription.oneOffPID(name) { return Self.readOnly(pid, call.member) }
                return enqueue(call, "Remove") { console throws(WakeFailure) in
                    _ = try StandingAlarmActions.remove(name: name, console: console)
                    return ""
                }
            case "Skip":
                guard a.count == 2, let name = text(0) else { return signature("sa{sv}") }
                if let pid = BusAPIDescription.oneOffPID(name) { return Self.readOnly(pid, call.member) }
                let request = try BusAPIOptions.skipRequest(name: name, options: try options(1))
                return enqueue(call, "Skip") { console throws(WakeFailure) in
                    _ = try StandingAlarmActions.skip(request, console: console)
                    return ""
                }
            case "Pause":
                guard a.count == 2, let name = text(0) else { return signature("sa{sv}") }
                if let pid = BusAPIDescription.oneOffPID(name) { return Self.readOnly(pid, call.member) }
                if try options(1).isEmpty, !name.isEmpty {
                    // A timer's pause: the span held (`wake pause NAME`).
                    return enqueue(call, "Pause") { console throws(WakeFailure) in
                        _ = try StandingAlarmActions.pauseTimers([name], console: console)
                        return ""
                    }
                }
                let p = try BusAPIOptions.pause(try options(1))
                return enqueue(call, "Pause") { console throws(WakeFailure) in
                    _ = try StandingAlarmActions.pause(until: p.until, from: p.from, long: p.long, names: name.isEmpty ? [] : [name], console: console)
                    return ""
                }
            case "Resume":
                // (s) alone, as the first Resume took: the pause on now.
                guard a.count == 1 || a.count == 2, let name = text(0) else { return signature("sa{sv}") }
                if let pid = BusAPIDescription.oneOffPID(name) { return Self.readOnly(pid, call.member) }
                let r = try BusAPIOptions.resume(try options(1))
                let standing = self.standing
                return enqueue(call, "Resume") { console throws(WakeFailure) in
                    try Self.resume(name.isEmpty ? [] : [name], all: r.all, on: r.on, console: console,
                                    in: try StandingContext.given(standing?()))
                    return ""
                }
            case "Snooze":
                guard a.count == 2, let name = text(0) else { return signature("sa{sv}") }
                if let pid = BusAPIDescription.oneOffPID(name) { return forward(.snooze, pid, call, options: a[1]) }
                return control(.snooze, name, call, options: a[1])
            case "Stop":
                guard a.count == 1, let name = text(0) else { return signature("s") }
                if let pid = BusAPIDescription.oneOffPID(name) { return forward(.stop, pid, call, options: nil) }
                return control(.stop, name, call, options: nil)
            default:
                return nil
            }
        } catch {
            return BusAPIDescription.reply(error)
        }
    }

    /// `wake resume`'s action, answered as an API call: what it lifted is said to the journal; a
    /// call that lifts nothing is NothingMatched, saying what is there and which option lifts
    /// it (the action's own line names the command line's flags, which the method does not take).
    static func resume(_ names: [String], all: Bool, on date: String?, console: Console, in context: StandingContext) throws(WakeFailure) {
        let store = context.store
        let chosen = try StandingAlarmActions.chosenAlarms(names, store: store, verb: "resume")
        let now = context.now()
        func pauses() throws(WakeFailure) -> [String: [Pause]] {
            let history: [String: AlarmRecord]
            do { history = try store.loadHistory() } catch { throw StandingAlarmActions.storeError(error) }
            return history.mapValues { $0.pauses.filter { $0.until > now } }
        }
        let before = try pauses()
        let capture = Console.LineCapture()
        do {
            _ = try StandingAlarmActions.resume(names: names, all: all, on: date, console: Console(capturing: capture), in: context)
        } catch where error.kind == .usage && error.message.hasPrefix("--on: ") {
            throw WakeFailure(.usage, "Resume: option 'on': " + error.message.dropFirst(6))
        }
        let after = try pauses()
        // Lifted: a pause there before that is gone or cut short now.
        let lifted = chosen.contains { a in (before[a.name] ?? []).contains { !(after[a.name] ?? []).contains($0) } }
        guard lifted else {
            let zone = context.zone(console)
            let there = chosen.compactMap { a -> String? in
                guard let left = after[a.name], !left.isEmpty else { return nil }
                return "'\(a.name.printable)' is paused "
                    + left.map { StandingAlarmActions.span($0, now: now, zone: zone) }.joined(separator: ", ")
            }
            let what = date.map { "no pause falls on \(TerminalText.printable($0, limit: 40))" }
                ?? (all ? "no pause" : "no pause is on now")
            let fix = there.isEmpty ? "" : "; \(there.joined(separator: "; ")): lift one with the option 'on' (a date in it), "
                + "or every pause with 'all' true"
            throw WakeFailure(.nothingMatched, "Resume: nothing lifted: \(what)" + fix)
        }
        for line in capture.lines { console.info(line) }
    }

    /// Snooze and Stop: the runner's commands, as a notification button gives them, to an
    /// alarm that is ringing, snoozed or pre-ringing (either ends the pre-alarm and keeps the
    /// alarm set, as the notification's Stop does; Skip is "up already").
    private func control(_ command: AlarmCommand, _ name: String, _ call: BusCall, options: BusValue?) -> BusReply {
        if name.isEmpty { return controlActive(command, call, options: options) }
        guard controller.standingAlarms.contains(where: { $0.name == name }) || session.runner.state(of: name) != nil else {
            return BusAPIDescription.reply(StandingAlarmActions.unknown(name))
        }
        switch session.runner.state(of: name) {
        case .ringing?, .snoozed?, .preRinging?: break
        default:
            let verb = command == .snooze ? "snooze" : "stop"
            return BusAPIDescription.reply(WakeFailure(.nothingMatched, "'\(name.printable)' is not ringing or snoozed: nothing to \(verb); "
                                                       + "use Skip for its next occurrence"))
        }
        var length = SnoozeLength.standard
        if command == .snooze {
            do {
                length = try BusAPIOptions.snoozeLength(try BusAPIOptions(options, method: "Snooze"), name: name,
                                                        now: clock.now().realtime, zone: session.zone)
            } catch {
                return BusAPIDescription.reply(error)
            }
        }
        session.runner.command(command, by: .busAPI(caller: call.caller), alarm: name, activeOnly: true, length: length)
        return .done
    }

    /// Snooze("") and Stop(""): as `wake snooze` and `wake stop` without an ID, whatever of the
    /// daemon's alarms rings (Stop: or is snoozed), each said in the journal by its name; else a
    /// ringing one-off.
    private func controlActive(_ command: AlarmCommand, _ call: BusCall, options: BusValue?) -> BusReply {
        let active = controller.standingAlarms.map(\.name).filter { name in
            switch session.runner.state(of: name) {
            case .ringing?, .preRinging?: return true
            case .snoozed?: return command == .stop
            default: return false
            }
        }
        guard !active.isEmpty else {
            // Else the first one-off that rings (or is snoozed), as its own wake is asked.
            let states = ["ringing", "pre-ringing"] + (command == .stop ? ["snoozed"] : [])
            if let pid = oneOffViews.keys.sorted().first(where: { states.contains(oneOffViews[$0]?.state ?? "") }) {
                return forward(command, pid, call, options: options)
            }
            let what = command == .snooze ? "nothing is ringing: nothing to snooze" : "nothing is ringing or snoozed: nothing to stop"
            return BusAPIDescription.reply(WakeFailure(.nothingMatched, what + "; give an alarm's name, or use Skip for the next one"))
        }
        for name in active {
            let reply = control(command, name, call, options: options)
            if case .error = reply { return reply }
        }
        return .done
    }

    // MARK: one-offs

    /// An edit of a one-off, refused: the daemon keeps no file of it, its wake holds it.
    static func readOnly(_ pid: Int32, _ method: String) -> BusReply {
        let name = BusAPIDescription.oneOffName(pid: pid)
        return .error(name: BusAPIDescription.readOnly,
                      message: "\(method): '\(name)' is a one-off alarm that its own wake (pid \(pid)) rings: it owns itself, "
                          + "so the daemon cannot change it; Stop or Snooze it here, stop it from its terminal or with 'wake stop \(pid)', "
                          + "or end it before it rings with 'wake cancel \(pid)'")
    }

    /// Snooze and Stop of a one-off: `wake snooze`'s and `wake stop`'s request, sent to its wake
    /// from the worker; answered when the wake has, with the object showing what it did.
    private func forward(_ command: AlarmCommand, _ pid: Int32, _ call: BusCall, options: BusValue?) -> BusReply {
        let name = BusAPIDescription.oneOffName(pid: pid)
        let method = command == .snooze ? "Snooze" : "Stop"
        guard oneOffViews[pid] != nil, let dir = oneOffs.directory else {
            return BusAPIDescription.reply(WakeFailure(.nothingMatched, "\(method): no one-off alarm '\(name)' is running; "
                                                       + "ListAlarms names the alarms there are"))
        }
        let now = clock.now().realtime, zone = session.zone
        var length = SnoozeLength.standard
        if command == .snooze {
            do {
                length = try BusAPIOptions.snoozeLength(try BusAPIOptions(options, method: method), name: name, now: now, zone: zone)
            } catch {
                return BusAPIDescription.reply(error)
            }
        }
        let place = oneOffs
        return enqueue(call, method, reloads: false) { console in
            let replies = ControlClient.ask(.command(command, id: String(pid), length: length), directory: dir,
                                            timeout: OneOffLook.timeout) { $0 == pid }
            let look = OneOffLook.take(place, only: pid)
            func failed(_ kind: WakeFailure.Kind, _ why: String) -> Outcome {
                Outcome(value: "\(method): \(why)", error: BusAPIDescription.errorName(kind), look: look)
            }
            guard let reply = replies.first else { return failed(.nothingMatched, "'\(name)' has ended: its wake is gone") }
            guard let records = reply.records else {
                return failed(.unavailable, "'\(name)' did not answer: \(reply.problem ?? "no answer"); if it was stopped (Ctrl-Z), "
                    + "'kill -CONT \(pid)' resumes it")
            }
            if let done = records.first(where: { $0["kind"] == "done" }) {
                console.info(ControlActions.doneLine(done, zone: zone, now: now))
                return Outcome(look: look)
            }
            if let refused = records.first(where: { $0["kind"] == "refused" }) {
                return failed(.nothingMatched, ControlActions.refusalLine(refused))
            }
            return failed(.nothingMatched, "'\(name)' has just ended")
        }
    }

    /// A look at every one-off, on the worker; nobody waits for its answer.
    private func lookAtOneOffs() {
        oneOffsStale = false
        looking = true
        let place = oneOffs
        jobs += 1
        waiting.append(Job(id: jobs, method: "one-off look", sender: "", work: { _ in Outcome(look: OneOffLook.take(place)) },
                           reply: nil, answer: { _ in .done }, reloads: false))
        startNext()
    }

    private func apply(_ look: OneOffLook) {
        if look.problem != oneOffProblem {
            oneOffProblem = look.problem
            if let problem = look.problem { session.console.info(problem) }
        }
        let before = oneOffViews
        oneOffViews = look.applied(to: oneOffViews)
        signalOneOffChanges(from: before)
        watchOneOffExits()
        refresh()
    }

    /// The manager's signals for one-offs, as for standing alarms, from what the looks saw change
    /// (the daemon runs no one-off: it sees their states, not their events). A one-off that has
    /// gone while ringing or snoozed is `Stopped` with an empty `by`: how it ended is its own.
    private func signalOneOffChanges(from before: [Int32: AlarmView]) {
        for (pid, view) in oneOffViews where view.state != before[pid]?.state {
            let path = BusAPIDescription.path(of: view.name)
            if view.state == "ringing" { signal("Ringing", [.objectPath(path), .string(view.name)]) }
            if view.state == "snoozed" { signal("Snoozed", [.objectPath(path), .string(view.name), .uint64(view.nextRing)]) }
        }
        for (pid, old) in before where oneOffViews[pid] == nil && (old.state == "ringing" || old.state == "snoozed") {
            signal("Stopped", [.objectPath(BusAPIDescription.path(of: old.name)), .string(old.name), .string("")])
        }
    }

    private func watchOneOffExits() {
        for pid in oneOffExits.keys where oneOffViews[pid] == nil { forgetExit(of: pid) }
        for pid in oneOffViews.keys where oneOffExits[pid] == nil {
            guard let watch = ProcessExitWatch(pid: pid) else { continue }
            let registration = session.reactor.register(fd: watch.fd) { [unowned self] _ in
                forgetExit(of: pid)
                oneOffsStale = true  // the next look finds nobody at its socket, and drops its object
            }
            oneOffExits[pid] = (watch, registration)
        }
    }

    private func forgetExit(of pid: Int32) {
        guard let e = oneOffExits.removeValue(forKey: pid) else { return }
        session.reactor.unregister(e.registration)
        e.watch.close()
    }

    // MARK: the worker

    private func enqueue(_ call: BusCall, _ method: String, answer: @escaping (String) -> BusReply = { _ in .done },
                         _ work: @escaping Work) -> BusReply {
        enqueue(call, method, answer: answer, reloads: true) { console throws(WakeFailure) in Outcome(value: try work(console)) }
    }

    private func enqueue(_ call: BusCall, _ method: String, answer: @escaping (String) -> BusReply = { _ in .done }, reloads: Bool,
                         _ work: @escaping (Console) throws(WakeFailure) -> Outcome) -> BusReply {
        guard mailbox != nil, let service, let reply = service.deferReply() else {
            return .error(name: "org.freedesktop.DBus.Error.Failed", message: "\(method): the daemon cannot take it now; try again")
        }
        guard waiting.count < Self.queueLimit else {
            reply.answer(.error(name: "\(BusAPIDescription.busName).Error.Busy",
                                message: "\(method): \(Self.queueLimit) calls are waiting already; try again when they are answered"))
            return .deferred
        }
        jobs += 1
        waiting.append(Job(id: jobs, method: method, sender: call.caller.description, work: work, reply: reply, answer: answer,
                           reloads: reloads))
        startNext()
        return .deferred
    }

    private func startNext() {
        guard running == nil, !waiting.isEmpty, let mailbox else { return }
        let job = waiting.removeFirst()
        let id = job.id, work = job.work
        do {
            try DetachedThread.start {
                let capture = Console.LineCapture()
                let console = Console(capturing: capture)
                do throws(WakeFailure) {
                    mailbox.post((id, try work(console), capture.lines))
                } catch {
                    mailbox.post((id, Outcome(value: error.message, error: BusAPIDescription.errorName(error.kind)), capture.lines))
                }
            }
            running = job
        } catch {
            if let reply = job.reply {
                reply.answer(BusAPIDescription.reply(WakeFailure(.resource, "\(job.method): cannot start a thread (\(error)); try again")))
            } else {
                looking = false  // looked again at the next change
            }
            startNext()
        }
    }

    private func collect() {
        guard let mailbox else { return }
        for (id, outcome, lines) in mailbox.take() {
            guard let job = running, job.id == id else { continue }
            running = nil
            for line in lines {
                // The capture marks problems as the command line does ("wake: "); the journal names the caller instead.
                let text = line.hasPrefix("wake: ") ? String(line.dropFirst(6)) : line
                session.console.info(job.reply == nil ? text : "D-Bus \(job.method) from \(job.sender): \(text)")
            }
            if job.reply == nil { looking = false }
            // The objects first, then the answer: a client that calls ListAlarms or reads the
            // State next finds what the call made.
            if let look = outcome.look { apply(look) }
            if outcome.error == nil, job.reloads {
                // Read the files it wrote now.
                controller.requestReload()
                controller.applyPending()
                refresh()
            }
            job.reply?.answer(outcome.error.map { .error(name: $0, message: outcome.value) } ?? job.answer(outcome.value))
        }
        startNext()
    }
}
