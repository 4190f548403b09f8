import WakeCore
import WakeEngine
import WakeSystem

/// The hooks of a session (an attachment): on each event of the event log that hooks run on
/// (`HookCommand.events`), every program of the hooks folder and the alarm's own `--hook`s, on
/// `HookWorker`'s thread. It listens to the log, so a hook is told what the log says, and the
/// loop only hands a job over. Output is said on the console (the journal, for the daemon),
/// prefixed with the hook's name; a failure once per hook and event until it succeeds again.
public final class HookDispatcher: SessionAttachment {
    /// An alarm's own `--hook`s and `--hook-timeout` (nil: an alarm no longer held).
    public typealias Settings = (String) -> (commands: [HookCommand], timeout: Duration)?

    private let log: EventLog
    private let folder: String?
    private let settings: Settings
    /// The name a one-off's events carry (they have no `alarm` field).
    private let oneOffName: String?
    private let test: Bool
    private let inherited: [String: String]
    private weak var session: SessionContext?
    private var worker: HookWorker?
    private var registration: Reactor.Registration?
    private var listing: HookFolder.Listing?
    /// Failures said, by hook and event, until that hook runs on that event without one.
    private var failing: Set<String> = []
    /// Refusals said (an unsafe file, a program not found), each once.
    private var refused: Set<String> = []
    /// Events heard before the session started (the daemon arms its alarms before its loop
    /// runs), run when it starts: the first `armed` tells a "next alarm" hook of a fresh daemon.
    /// Arms coalesced as the worker does (the last one's WAKE_NEXT is after them all); at most
    /// `earlyLimit` kept.
    private var early: [(event: String, time: Instant, fields: [(String, JSONValue)])] = []
    private static let earlyLimit = 256

    /// One run of a hook under `wake test`, for its report: which hook, on which event, and how it went.
    struct Run: Equatable {
        var hook: String
        var event: String
        /// Why it failed ("exited with status 1"); nil when it succeeded or still runs.
        var failure: String?
        var finished = false
        var key = ""
    }
    /// Under `wake test` alone (a daemon's would grow without end): each run handed over, in order,
    /// and each refusal said.
    private(set) var runs: [Run] = []
    private(set) var refusals: [String] = []

    public init(log: EventLog, folder: String? = HookFolder.directory, settings: @escaping Settings, oneOffName: String? = nil,
                test: Bool = false) {
        self.log = log
        self.folder = folder
        self.settings = settings
        self.oneOffName = oneOffName
        self.test = test
        inherited = HookFolder.inheritedEnvironment()
        log.listeners.append { [weak self] event, time, fields in self?.heard(event, time, fields) }
    }

    public func start(in session: SessionContext) {
        self.session = session
        let heardEarly = early
        early = []
        for e in heardEarly { heard(e.event, e.time, e.fields) }
    }

    /// The folder is read again at the next event after a turn of the loop.
    public func beforePoll() { listing = nil }

    /// The session ends: hooks its last events started get a moment to finish (a `stopped` hook
    /// of a one-off that exits now), then are left running on their own.
    public func stop() {
        guard let worker else { return }
        let deadline = SystemClock.monotonic + Self.exitGrace
        while worker.busy > 0, SystemClock.monotonic < deadline {
            _ = try? Poll.waitReadable(worker.loopSignal.fd, within: deadline - SystemClock.monotonic)
            collect()
        }
        collect()
        if let registration { session?.reactor.unregister(registration) }
        registration = nil
    }

    /// `WAKE_ALARM` of a one-off: it has no name, and `wake stop` knows it by its PID.
    public static var oneOffName: String { OneOffName.of(pid: CurrentProcess.id) }

    /// How long an ending session waits for its hooks.
    static let exitGrace: Duration = .seconds(5)

    // MARK: events

    private func heard(_ event: String, _ time: Instant, _ fields: [(String, JSONValue)]) {
        guard HookCommand.eventSet.contains(event) else { return }
        guard session != nil else {
            if event == HookWorker.coalescedEvent, early.last?.event == event { early.removeLast() }
            if early.count < Self.earlyLimit { early.append((event, time, fields)) }
            return
        }
        var alarm = oneOffName ?? ""
        if case .string(let a)? = fields.first(where: { $0.0 == "alarm" })?.1 { alarm = a }
        let own = settings(alarm)
        // What runs, found before anything is made for it: most events of most daemons run nothing.
        var programs: [(key: String, name: String, path: String, arguments: [String])] = folderHooks().map { path in
            (path, String(path.split(separator: "/").last ?? ""), path, [path, event, alarm])
        }
        for command in own?.commands ?? [] where command.runs(on: event) {
            switch HookFolder.program(of: command, path: inherited["PATH"]) {
            case .refused(let why): refuse(command.text, why)
            case .runs(let path): programs.append((command.text, command.words.first ?? path, path, command.words))
            }
        }
        guard !programs.isEmpty, let worker = startedWorker() else { return }
        let line = log.line(event, at: time, fields)
        let env = HookEnvironment(event: event, alarm: alarm, line: line, fields: fields, facts: facts(oneOffName == nil ? alarm : nil),
                                  inherited: inherited, test: test).entries
        let home = HookFolder.startingDirectory(inherited["HOME"])
        let timeout = own?.timeout ?? Defaults.hookTimeout
        for p in programs {
            if test { runs.append(Run(hook: p.name, event: event, key: p.key)) }
            worker.submit(.init(key: p.key, name: p.name, event: event, path: p.path, arguments: p.arguments, environment: env,
                                input: Array(line.utf8), timeout: timeout, directory: home))
        }
    }

    /// What the runner knows of the alarm (`id`; nil: the one-off's only alarm), and the next ring of any.
    private func facts(_ id: String?) -> HookEnvironment.Facts {
        guard let session else { return .init() }
        let runner = session.runner, zone = session.zone
        guard let id = id ?? runner.alarmIDs.first else { return .init() }
        let setup = runner.setup(of: id)
        let next = runner.nextWait().map { Formatting.iso8601($0.wall, zone: zone) }
        let round = runner.round(of: id).map(\.round)
        return .init(occurrence: setup.map { Formatting.iso8601($0.deadline.instant, zone: zone) }, next: next, message: setup?.message,
                     round: round)
    }

    private func folderHooks() -> [String] {
        guard let folder else { return [] }
        let l = listing ?? HookFolder.list(folder)
        listing = l
        switch l {
        case .absent: return []
        case .unsafe(let why): refuse(folder, why); return []
        case .entries(let entries):
            for e in entries { if case .unsafe(let why) = e.verdict { refuse(e.path, why) } }
            return l.runnable
        }
    }

    private func refuse(_ key: String, _ line: String) {
        guard refused.insert(key + "\n" + line).inserted else { return }
        if test { refusals.append(line) }
        session?.console.error("warning: " + line)
        session?.record("hook_refused", [("reason", .string(line))])
    }

    private func startedWorker() -> HookWorker? {
        if let worker { return worker }
        guard let session else { return nil }
        do {
            let w = try HookWorker()
            worker = w
            registration = session.reactor.register(fd: w.loopSignal.fd) { [weak self] _ in self?.collect() }
            return w
        } catch {
            refuse("worker", "cannot run hooks: \(error); the alarms ring without them")
            return nil
        }
    }

    // MARK: what hooks did

    private func collect() {
        guard let worker, let session else { return }
        let (done, dropped) = worker.take()
        for job in dropped {
            ended(job, failure: "dropped: \(HookWorker.queueLimit) runs already waited for it")
            session.console.error("warning: hook \(job.name.printable) on \(job.event): \(HookWorker.queueLimit) runs already wait "
                                  + "for it; this one is dropped (does it hang?)")
        }
        for o in done {
            let name = o.job.name.printable
            for line in o.lines { session.console.error("hook \(name): " + TerminalText.printable(line, limit: HookWorker.lineLimit)) }
            if o.moreLines > 0 { session.console.error("hook \(name): (\(o.moreLines) more lines)") }
            let key = o.job.key + "\n" + o.job.event
            if o.succeeded { ended(o.job, failure: nil); failing.remove(key); continue }
            var fields: [(String, JSONValue)] = [("hook", .string(o.job.name)), ("on", .string(o.job.event))]
            let why: String
            switch o.ending {
            case .exited(let s): why = "exited with status \(s)"; fields.append(("status", .int(Int64(s))))
            case .signalled(let s): why = "was ended by signal \(s)"; fields.append(("signal", .int(Int64(s))))
            case .killed(let after):
                why = "ran past its \(DurationText.format(after)) (--hook-timeout) and was killed"; fields.append(("killed", .bool(true)))
            case .notStarted(let reason): why = "could not start: \(reason)"; fields.append(("reason", .string(reason)))
            }
            ended(o.job, failure: why)
            session.record("hook_failed", fields)
            guard failing.insert(key).inserted else { continue }
            session.console.error("warning: hook \(name) on \(o.job.event) \(why); the alarm goes on (said once until it succeeds)")
        }
    }

    /// A run of `wake test` ended: one hook's runs end in the order of their events.
    private func ended(_ job: HookWorker.Job, failure: String?) {
        guard test, let i = runs.firstIndex(where: { !$0.finished && $0.key == job.key && $0.event == job.event }) else { return }
        runs[i].finished = true
        runs[i].failure = failure
    }
}
