import Foundation
import Testing
import WakeCore
import WakeEngine
@testable import WakeRuntime
import WakeSystem
@testable import WakeTestSupport

/// The daemon's D-Bus API in process: a real reactor and a private bus, the daemon's controller
/// and runner on a fake clock, called by busctl. Each method is checked to become the command
/// model's own command or action, and each failure the error its meaning names.
@Suite(.serialized) struct BusAPITests {
    static let name = BusAPIDescription.busName
    static let root = BusAPIDescription.root

    @Test("the installed interface file is the text the code serves")
    func descriptionFileIsTheServedOne() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/io.github.wakeclock.Wake1.xml")
        if ProcessInfo.processInfo.environment["WAKE_REGENERATE"] != nil {
            try BusAPIDescription.document.write(to: file, atomically: true, encoding: .utf8)
        }
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == BusAPIDescription.document,
                "regenerate Resources/io.github.wakeclock.Wake1.xml: WAKE_REGENERATE=1 swift test --filter BusAPITests")
    }

    @Test("each failure's kind has its own error name under the API's prefix")
    func errorNames() {
        let kinds: [WakeFailure.Kind] = [.usage, .soundUnusable, .unavailable, .resource, .cantCreate, .permission, .config, .nothingMatched,
                                         .noSound, .interrupted(signal: 15)]
        let names = kinds.map(BusAPIDescription.errorName)
        #expect(Set(names).count == kinds.count)
        #expect(names.allSatisfy { $0.hasPrefix("io.github.wakeclock.Wake1.Error.") })
    }

    @Test("options: the option table's names, typed values refused with the key, a misspelt key refused")
    func optionsAreTheTablesNames() throws {
        let given = BusValue.properties([("volume", .int32(40)), ("days", .string("weekdays")), ("skip-days", .strings(["/tmp/a.ics"]))])
        let o = try BusAPIOptions(given, method: "Add")
        #expect(try o.text("volume") == "40")
        #expect(try o.texts("skip-days") == ["/tmp/a.ics"])
        #expect(throws: WakeFailure.self) { try o.finish(known: ["volume"]) }
        // Every ring option of the table is an Add key, a new one (snooze-volume) with no edit in the API.
        let every = try BusAPIOptions(.properties(AlarmOption.all(.ring).map { ($0.name, BusValue.string("1")) }), method: "Add")
        try every.finish(known: AlarmOption.all(.ring).map(\.name) + BusAPIOptions.addKeys)
        #expect(try every.text("snooze-volume") == "1")
        let bad = try BusAPIOptions(.properties([("volume", .boolean(true))]), method: "Add")
        #expect(throws: WakeFailure.self) { _ = try bad.text("volume") }
        #expect(throws: WakeFailure.self) { _ = try BusAPIOptions(.string("x"), method: "Add") }
        let snooze = try BusAPIOptions(.properties([("length", .string("20m"))]), method: "Snooze")
        #expect(try BusAPIOptions.snoozeLength(snooze, name: "work", now: RunnerTests.evening, zone: .utc) == .span(.seconds(1200)))
        let long = try BusAPIOptions(.properties([("long", .boolean(true))]), method: "Snooze")
        #expect(try BusAPIOptions.snoozeLength(long, name: "work", now: RunnerTests.evening, zone: .utc) == .long)
    }

    /// A daemon's controller over `alarms`, on a fake clock, with its API on a private bus whose
    /// name it owns by the time `body` runs.
    struct Fixture {
        let mock: NotificationMock
        let session: TestSession
        let store: AlarmStore
        let controller: DaemonController
        let api: BusAPI
        let recorder: EventRecorder
        /// The control directory the API watches for one-offs (the user's is never looked at).
        let controlDirectory: String
    }

    static func withAPI(_ alarms: [StandingAlarm], _ body: (Fixture) async throws -> Void) async throws {
        guard NotificationMock.isAvailable else { return }
        try await NotificationMock.with(server: false) { mock in
            let session = TestSession(standing: true)
            let directory = NSTemporaryDirectory() + "wake-busapi-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let control = directory + "/wake"  // $XDG_RUNTIME_DIR/wake for a wake started with directory as that
            try FileManager.default.createDirectory(atPath: control, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let store = AlarmStore(alarmsFile: directory + "/config/alarms.toml", historyFile: directory + "/state/history.toml")
            try store.update { $0 = alarms }
            let recorder = EventRecorder()
            session.runner.observe(with: recorder)
            let services = DaemonController.Services(clock: session.world, timers: session.world,
                                                     loadConfig: { () throws(WakeFailure) in ConfigDefaults() }, inhibit: nil,
                                                     builtInSound: RunnerTests.tone)
            let controller = DaemonController(runner: session.runner, store: store, zone: .utc, console: session.console, log: nil,
                                              unpaced: true, config: ConfigDefaults(), services: services)
            try controller.start()
            // Resume's action on the fixture's files, at the fake clock's start (the worker's thread reads it).
            let api = BusAPI(controller: controller, clock: session.world, address: mock.address,
                             standing: { StandingContext(store: store, now: { RunnerTests.evening }, zone: .utc) },
                             oneOffs: BusAPIOneOffPlace(directory: control, ownPID: nil))
            api.start(in: session)
            defer { api.stop() }
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline {
                let owner = try await Self.busctl(mock, session, ["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                             "NameHasOwner", "s", Self.name])
                if owner.stdout.contains("b true") { break }
            }
            try await body(Fixture(mock: mock, session: session, store: store, controller: controller, api: api, recorder: recorder,
                                   controlDirectory: control))
        }
    }

    /// Busctl run while the session's loop turns, as the daemon's would.
    static func busctl(_ mock: NotificationMock, _ session: TestSession, _ arguments: [String]) async throws -> ProcessResult {
        let p = try ChildProcess(NotificationMock.busctlPath, ["--address=\(mock.address)"] + arguments, environment: mock.environment,
                                 directory: mock.directory)
        try session.turn(until: { p.hasExited }, limit: .seconds(30))
        return await p.wait(timeout: .seconds(5))
    }

    @Test("Snooze and Stop are the runner's commands by the caller; a quiet alarm is NothingMatched; an unknown one InvalidArgument")
    func snoozeAndStopAreTheCommandModels() async throws {
        try await Self.withAPI([DaemonControllerTests.daily("work", 7)]) { f in
            let (mock, session, controller, recorder) = (f.mock, f.session, f.controller, f.recorder)
            var r = try await Self.busctl(mock, session, ["get-property", Self.name, Self.root, BusAPIDescription.manager, "NextAlarmId", "NextAlarmTime"])
            #expect(r.stdout.contains("s \"work\"") && r.stdout.contains("t \(UInt64((RunnerTests.morning).nanoseconds / 1000))"), "\(r)")

            r = try await Self.busctl(mock, session, ["call", Self.name, Self.root, BusAPIDescription.manager, "Stop", "s", "work"])
            #expect(r.exitCode != 0 && r.stderr.contains("'work' is not ringing or snoozed"), "\(r)")
            r = try await Self.busctl(mock, session, ["call", Self.name, Self.root, BusAPIDescription.manager, "Snooze", "sa{sv}", "nope", "0"])
            #expect(r.exitCode != 0 && r.stderr.contains("no standing alarm named 'nope'"), "\(r)")
            r = try await Self.busctl(mock, session, ["call", Self.name, Self.root, BusAPIDescription.manager, "Stop", "s", ""])
            #expect(r.exitCode != 0 && r.stderr.contains("nothing is ringing or snoozed: nothing to stop"), "\(r)")

            session.world.advance(by: .seconds(8 * 3600))
            controller.applyPending()
            #expect(session.runner.state(of: "work").map { if case .ringing = $0 { true } else { false } } ?? false)
            let path = BusAPIDescription.path(of: "work")
            r = try await Self.busctl(mock, session, ["call", Self.name, path, BusAPIDescription.alarm, "Snooze", "a{sv}", "1", "length", "s", "3m"])
            #expect(r.exitCode == 0, "\(r)")
            // Issue 49, item 8: the snooze names its caller, resolved when it called to a program and PID.
            let snoozedBy = recorder.events.compactMap { e -> Requester? in if case .snoozed(_, let by) = e.kind { by } else { nil } }
            guard case .busAPI(let snoozer)? = snoozedBy.first else { Issue.record("\(snoozedBy)"); return }
            #expect(snoozer.program == "busctl" && (snoozer.pid ?? 0) > 0 && snoozer.uniqueName.hasPrefix(":1."), "\(snoozer)")
            #expect(Requester.busAPI(caller: snoozer).description.hasPrefix("the D-Bus API (busctl, pid "), "\(snoozer)")
            // "" as `wake stop` without an ID: whatever rings or is snoozed.
            r = try await Self.busctl(mock, session, ["call", Self.name, Self.root, BusAPIDescription.manager, "Stop", "s", ""])
            #expect(r.exitCode == 0, "\(r)")
            let stoppedBy = recorder.events.compactMap { e -> Requester? in
                if case .finished(.stopped(let by)) = e.kind { return by } else { return nil }
            }
            #expect(stoppedBy.count == 1 && stoppedBy.first.map {
                        if case .busAPI(let caller) = $0 { caller.uniqueName.hasPrefix(":1.") && caller.program == "busctl" } else { false }
                    } == true,
                    "\(stoppedBy)")
        }
    }
    @Test("an unanswered ring: the alarm's Round and Rounds say 'round 2 of 3' while it is snoozed by nobody, 0 and 0 before")
    func unansweredRoundOnTheBus() async throws {
        try await Self.withAPI([DaemonControllerTests.daily("work", 7)]) { f in
            let (mock, session, controller, api) = (f.mock, f.session, f.controller, f.api)
            let path = BusAPIDescription.path(of: "work")
            func rounds() async throws -> String {
                let r = try await Self.busctl(mock, session,
                                              ["get-property", Self.name, path, BusAPIDescription.alarm, "Round", "Rounds", "State"])
                return r.stdout.split(separator: "\n").joined(separator: " ")
            }
            let before = try await rounds()
            #expect(before == "u 0 u 0 s \"waiting\"")
            session.world.advance(by: .seconds(8 * 3600))
            controller.applyPending()
            session.world.advance(by: .seconds(10 * 60))
            api.beforePoll()
            let unanswered = try await rounds()
            #expect(unanswered == "u 2 u 3 s \"snoozed\"")
        }
    }

    @Test("Resume's options: none lifts the pause on now, 'on' the one a date falls in, 'all' every one; nothing lifted is NothingMatched")
    func resumeTakesAllAndOn() async throws {
        try await Self.withAPI([DaemonControllerTests.daily("work", 7)]) { f in
            let (mock, session, store) = (f.mock, f.session, f.store)
            let day: Int64 = 86_400, now = RunnerTests.evening  // Mon 23 Nov 2026 23:00 UTC
            func paused(_ pauses: [Pause]) throws {
                try store.updateHistory { h in var r = h["work"] ?? AlarmRecord(name: "work"); r.pauses = pauses; h["work"] = r }
            }
            func left() throws -> [Pause] { (try store.loadHistory()["work"]?.pauses ?? []).filter { $0.until > now } }
            func resume(_ arguments: [String]) async throws -> ProcessResult {
                try await Self.busctl(mock, session,
                                      ["call", Self.name, Self.root, BusAPIDescription.manager, "Resume", "sa{sv}"] + arguments)
            }
            // Christmas planned ahead: a bare Resume lifts nothing, and says which option would.
            let christmas = Pause(from: now + .seconds(30 * day), until: now + .seconds(40 * day))
            try paused([christmas])
            var r = try await resume(["work", "0"])
            #expect(r.exitCode != 0 && r.stderr.contains("Resume: nothing lifted: no pause is on now; 'work' is paused from ")
                    && r.stderr.contains("lift one with the option 'on' (a date in it), or every pause with 'all' true"), "\(r)")
            #expect(!r.stderr.contains("--"), "the method takes no command-line flags: \(r)")
            #expect(try left() == [christmas])
            r = try await resume(["work", "1", "on", "s", "2026-12-21"])
            #expect(r.exitCode != 0 && r.stderr.contains("nothing lifted: no pause falls on 2026-12-21"), "\(r)")
            r = try await resume(["work", "1", "on", "s", "2026-12-24"])
            #expect(r.exitCode == 0, "\(r)")
            #expect(try left().isEmpty)

            // A pause on now and one ahead: 'all' lifts both; both options together are refused.
            try paused([Pause(until: now + .seconds(2 * day)), christmas])
            r = try await resume(["work", "2", "all", "b", "true", "on", "s", "2026-12-24"])
            #expect(r.exitCode != 0 && r.stderr.contains("give one"), "\(r)")
            r = try await resume(["work", "1", "on", "s", "24/12"])
            #expect(r.exitCode != 0 && r.stderr.contains("Resume: option 'on': invalid date '24/12'"), "\(r)")
            r = try await resume(["", "1", "all", "b", "true"])
            #expect(r.exitCode == 0, "\(r)")
            #expect(try left().isEmpty)
            r = try await resume(["work", "0"])
            #expect(r.exitCode != 0 && r.stderr.contains("nothing lifted: no pause is on now") && !r.stderr.contains(";"), "\(r)")
        }
    }

    @Test("Update is wake change (Add's keys, when, reset; its refusals as Usage); Enabled is written as wake off and on, nothing else is")
    func updateAndEnabled() async throws {
        try await Self.withAPI([DaemonControllerTests.daily("work", 7, options: ["device": "null", "volume": "80"])]) { f in
            let (mock, session, store) = (f.mock, f.session, f.store)
            let path = BusAPIDescription.path(of: "work")
            func alarm() throws -> StandingAlarm? { try store.load().first { $0.name == "work" } }
            var r = try await Self.busctl(mock, session, ["call", Self.name, path, BusAPIDescription.alarm, "Update", "a{sv}", "3",
                                                          "when", "s", "6:45", "snooze", "s", "5m", "reset", "as", "1", "volume"])
            #expect(r.exitCode == 0, "\(r)")
            var work = try #require(try alarm())
            #expect(work.shortTimeText == "06:45" && work.days == DaySet.daily.bits && work.options == ["device": "null", "snooze": "5m"],
                    "\(work)")
            r = try await Self.busctl(mock, session, ["call", Self.name, path, BusAPIDescription.alarm, "Update", "a{sv}", "1",
                                                      "volume", "s", "0"])
            #expect(r.exitCode != 0 && r.stderr.contains("silent"), "\(r)")
            r = try await Self.busctl(mock, session, ["call", Self.name, path, BusAPIDescription.alarm, "Update", "a{sv}", "1",
                                                      "tyme", "s", "7:00"])
            #expect(r.exitCode != 0 && r.stderr.contains("unknown option 'tyme'"), "\(r)")
            r = try await Self.busctl(mock, session, ["call", Self.name, path, BusAPIDescription.alarm, "Update", "a{sv}", "2",
                                                      "before-first-event", "s", "work.ics", "lead", "s", "1h"])
            #expect(r.exitCode != 0 && r.stderr.contains("Update: option 'before-first-event' names 'work.ics', not an absolute path"),
                    "\(r)")
            r = try await Self.busctl(mock, session, ["set-property", Self.name, path, BusAPIDescription.alarm, "Enabled", "b", "false"])
            #expect(r.exitCode == 0, "\(r)")
            work = try #require(try alarm())
            #expect(work.isOff, "\(work)")
            // An alarm switched off is changed as it is, and stays off.
            r = try await Self.busctl(mock, session, ["call", Self.name, path, BusAPIDescription.alarm, "Update", "a{sv}", "1",
                                                      "when", "s", "6:50"])
            #expect(r.exitCode == 0, "\(r)")
            work = try #require(try alarm())
            #expect(work.isOff && work.shortTimeText == "06:50", "\(work)")
            r = try await Self.busctl(mock, session, ["set-property", Self.name, path, BusAPIDescription.alarm, "Name", "s", "x"])
            #expect(r.exitCode != 0 && r.stderr.contains("read-only"), "\(r)")
            r = try await Self.busctl(mock, session, ["set-property", Self.name, path, BusAPIDescription.alarm, "Enabled", "b", "true"])
            #expect(r.exitCode == 0, "\(r)")
            #expect(try alarm()?.isOff == false)
            // Days as wake list says them: the rules after the weekdays.
            r = try await Self.busctl(mock, session, ["call", Self.name, path, BusAPIDescription.alarm, "Update", "a{sv}", "1",
                                                      "weeks", "s", "odd"])
            #expect(r.exitCode == 0, "\(r)")
            f.controller.applyPending()
            f.api.beforePoll()
            r = try await Self.busctl(mock, session, ["get-property", Self.name, path, BusAPIDescription.alarm, "Days"])
            #expect(r.stdout.contains("s \"daily in odd weeks\""), "\(r)")
        }
    }

    @Test("a pre-ringing alarm: State says so; Stop ends the pre-alarm by the caller and the alarm stays set; Add refuses a relative file")
    func preRingingAndRelativeFiles() async throws {
        try await Self.withAPI([DaemonControllerTests.daily("work", 7, options: ["pre-alarm": "10m"])]) { f in
            let (mock, session, controller, recorder, api, store) = (f.mock, f.session, f.controller, f.recorder, f.api, f.store)
            let path = BusAPIDescription.path(of: "work")
            session.world.advance(by: .seconds(8 * 3600 - 300))
            controller.applyPending()
            api.beforePoll()  // as the daemon's loop does before each wait: the objects follow what changed
            #expect(session.runner.state(of: "work").map { if case .preRinging = $0 { true } else { false } } ?? false)
            var r = try await Self.busctl(mock, session, ["get-property", Self.name, path, BusAPIDescription.alarm, "State"])
            #expect(r.stdout.contains("s \"pre-ringing\""), "\(r)")
            r = try await Self.busctl(mock, session, ["call", Self.name, Self.root, BusAPIDescription.manager, "Stop", "s", "work"])
            #expect(r.exitCode == 0, "\(r)")
            #expect(session.runner.state(of: "work").map { if case .armed = $0 { true } else { false } } ?? false, "the alarm stays set")
            #expect(recorder.events.contains { if case .preRingStopped = $0.kind { true } else { false } })
            api.beforePoll()
            r = try await Self.busctl(mock, session, ["get-property", Self.name, path, BusAPIDescription.alarm, "State"])
            #expect(r.stdout.contains("s \"waiting\""), "\(r)")

            // A relative file name: the daemon's working directory is not the caller's.
            r = try await Self.busctl(mock, session, ["call", Self.name, Self.root, BusAPIDescription.manager, "Add", "sa{sv}", "08:00",
                                                 "1", "sound", "s", "alarm.flac"])
            #expect(r.exitCode != 0 && r.stderr.contains("option 'sound' names 'alarm.flac', not an absolute path"), "\(r)")
            #expect(try store.load().map(\.name) == ["work"])
        }
    }

    @Test("a one-off from a terminal: listed by its PID, read-only, its state followed by its socket's touches, Stop and Snooze sent to it")
    func oneOffsAreShownAndForwarded() async throws {
        try await Self.withAPI([DaemonControllerTests.daily("work", 7)]) { f in
            let (mock, session, api) = (f.mock, f.session, f.api)
            // `wake 06:00` in a terminal: its own session and control socket, on the same loop here.
            let oneOff = TestSession(reactor: session.reactor)
            let endpoint = ControlEndpoint(directory: f.controlDirectory)
            endpoint.start(in: oneOff)
            defer { endpoint.stop() }
            try oneOff.runner.arm(RunnerTests.setup(oneOff.world, at: RunnerTests.morning - .seconds(3600)))
            let pid = getpid(), name = "pid:\(pid)", path = BusAPIDescription.path(of: "pid:\(pid)")
            #expect(path == Self.root + "/oneoff/\(pid)")
            /// Turns the loop as the two processes' would until the API shows `state` (nil: no one-off).
            func settle(_ state: String?) throws {
                try session.turn(until: {
                    endpoint.beforePoll()
                    api.beforePoll()
                    return !api.isLooking && api.oneOffState(pid) == state
                })
                #expect(api.oneOffState(pid) == state)
            }
            func get(_ names: [String]) async throws -> String {
                let r = try await Self.busctl(mock, session, ["get-property", Self.name, path, BusAPIDescription.alarm] + names)
                return r.stdout.split(separator: "\n").joined(separator: " ")
            }
            try settle("waiting")
            // The manager's signals, as a standing alarm's: from what the looks see change.
            let monitor = try ChildProcess("/usr/bin/dbus-monitor", ["--address", mock.address,
                                                                     "type='signal',interface='\(BusAPIDescription.manager)'"],
                                           environment: mock.environment, directory: mock.directory)
            defer { monitor.send(SIGTERM) }
            try session.turn(until: { monitor.currentStdout.contains("NameLost") })
            var r = try await Self.busctl(mock, session, ["call", Self.name, Self.root, BusAPIDescription.manager, "ListAlarms"])
            #expect(r.stdout.contains(path) && r.stdout.contains(BusAPIDescription.path(of: "work")), "\(r)")
            let six = (RunnerTests.morning - .seconds(3600)).nanoseconds / 1000
            #expect(try await get(["Name", "Kind", "ReadOnly", "Pid", "State", "NextRing"])
                    == "s \"\(name)\" s \"one-off\" b true u \(pid) s \"waiting\" t \(six)")
            let work = BusAPIDescription.path(of: "work")
            r = try await Self.busctl(mock, session, ["get-property", Self.name, work, BusAPIDescription.alarm, "Kind", "ReadOnly", "Pid"])
            #expect(r.stdout.split(separator: "\n") == ["s \"standing\"", "b false", "u 0"], "\(r)")
            r = try await Self.busctl(mock, session, ["get-property", Self.name, Self.root, BusAPIDescription.manager, "NextAlarmId"])
            #expect(r.stdout.contains("s \"\(name)\""), "the one-off at 06:00 is the next alarm: \(r)")

            // Edits are refused, by name and on the object; Stop while it waits is the wake's own refusal.
            r = try await Self.busctl(mock, session, ["call", Self.name, Self.root, BusAPIDescription.manager, "Remove", "s", name])
            #expect(r.exitCode != 0 && r.stderr.contains("owns itself") && r.stderr.contains("wake cancel \(pid)"), "\(r)")
            r = try await Self.busctl(mock, session, ["call", Self.name, path, BusAPIDescription.alarm, "Skip"])
            #expect(r.exitCode != 0 && r.stderr.contains("Skip: '\(name)' is a one-off alarm"), "\(r)")
            r = try await Self.busctl(mock, session, ["call", Self.name, path, BusAPIDescription.alarm, "Stop"])
            #expect(r.exitCode != 0 && r.stderr.contains("is waiting, not ringing"), "\(r)")

            oneOff.world.advance(by: .seconds(7 * 3600))  // 06:00: it rings; its socket is touched
            #expect(oneOff.runner.isRinging)
            try settle("ringing")
            // Answered after the wake has snoozed and the object says so.
            r = try await Self.busctl(mock, session, ["call", Self.name, path, BusAPIDescription.alarm, "Snooze", "a{sv}", "1",
                                                     "length", "s", "3m"])
            #expect(r.exitCode == 0, "\(r)")
            #expect(try await get(["State"]) == "s \"snoozed\"")
            r = try await Self.busctl(mock, session, ["call", Self.name, Self.root, BusAPIDescription.manager, "Stop", "s", name])
            #expect(r.exitCode == 0, "\(r)")
            #expect(oneOff.runner.isFinished)
            r = try await Self.busctl(mock, session, ["call", Self.name, Self.root, BusAPIDescription.manager, "ListAlarms"])
            #expect(!r.stdout.contains("/oneoff/") && api.oneOffNames.isEmpty, "a stopped one-off is gone: \(r)")
            r = try await Self.busctl(mock, session, ["call", Self.name, Self.root, BusAPIDescription.manager, "Stop", "s", name])
            #expect(r.exitCode != 0 && r.stderr.contains("no one-off alarm '\(name)' is running"), "\(r)")
            try session.turn(until: { api.beforePoll(); return monitor.currentStdout.contains("member=Stopped") })
            let members = monitor.currentStdout.split(separator: "\n").compactMap { line in
                line.firstRange(of: "member=").map { String(line[$0.upperBound...].prefix { $0 != " " }) }
            }
            #expect(members.filter { !$0.hasPrefix("Name") } == ["Ringing", "Snoozed", "Stopped"], "\(monitor.currentStdout)")
            #expect(monitor.currentStdout.contains("string \"\(name)\""), "\(monitor.currentStdout)")
        }
    }

    @Test("a one-off killed without a word (SIGKILL leaves its socket): its object goes, as when it ends")
    func killedOneOffGoes() async throws {
        try await Self.withAPI([]) { f in
            let (session, api) = (f.session, f.api)
            // A real `wake +1h` in its own process, its socket in the directory the API watches.
            let runtime = URL(fileURLWithPath: f.controlDirectory).deletingLastPathComponent().path
            let wake = try WakeProcess(["+1h", "-D", "null", "--inhibit", "off", "--notify", "off", "--mpris", "off", "-q"],
                                       environment: ["XDG_RUNTIME_DIR": runtime], events: false)
            defer { wake.send(SIGKILL) }
            let name = OneOffName.of(pid: wake.pid)
            try session.turn(until: { api.beforePoll(); return api.oneOffNames == [name] }, limit: .seconds(30))
            #expect(api.oneOffNames == [name] && api.oneOffState(wake.pid) == "waiting")
            wake.send(SIGKILL)
            _ = await wake.wait(timeout: .seconds(10))
            #expect(FileManager.default.fileExists(atPath: f.controlDirectory + "/\(wake.pid).sock"), "SIGKILL leaves the socket")
            try session.turn(until: { api.beforePoll(); return !api.isLooking && api.oneOffNames.isEmpty }, limit: .seconds(30))
            #expect(api.oneOffNames.isEmpty)
        }
    }
}
