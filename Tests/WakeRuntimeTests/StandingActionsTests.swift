import Foundation
import Testing
import WakeCore
@testable import WakeEngine
@testable import WakeRuntime
@testable import WakeSystem
@testable import WakeTestSupport

/// `wake add`, `list`, `next`, `skip`, `pause`, `resume` and `remove` in-process (issue 38):
/// the files in a temporary directory, "now" fixed, the zone UTC, no daemon, no running wake
/// asked. What each says is what a user would read.
@Suite("Standing-alarm actions in-process")
struct StandingActionsTests {
    /// Monday 2026-11-23 23:00 UTC.
    static let now = RunnerTests.evening

    struct World {
        let dir: TestDirectory
        let context: StandingContext
        let lines = Console.LineCapture()
        let console: Console
        let signals: SignalChannel

        init(daemon: Bool = false) throws {
            dir = try TestDirectory()
            let store = AlarmStore(alarmsFile: dir.path + "/config/wake/alarms.toml", historyFile: dir.path + "/config/wake/history.toml")
            context = StandingContext(store: store, now: { StandingActionsTests.now }, zone: .utc, daemonRunning: { daemon })
            console = Console(capturing: lines)
            signals = try SignalChannel()
        }

        func add(_ when: [String], days: String? = nil, name: String? = nil, _ options: [String: String] = ["device": "null"]) throws(WakeFailure) -> CommandResult {
            let ring = try RingSettings(values: options)
            let request = StandingAlarmActions.AddRequest(when: when, days: days, name: name, ring: ring,
                                                          given: Set(options.keys.map { "--" + $0 }))
            return try StandingAlarmActions.add(request, console: console, signals: signals, in: context)
        }

        var said: String { lines.lines.joined(separator: "\n") }
    }

    @Test("add stores what was given, says the next ring and that no daemon runs; list shows it; remove takes it out")
    func addListRemove() throws {
        let w = try World()
        #expect(try w.add(["06:30"], days: "weekdays", name: "work", ["device": "null", "volume": "80"]) == .done)
        #expect(w.said.contains("added 'work': 06:30 on weekdays; next 06:30 tomorrow"), "\(w.said)")
        #expect(w.said.contains("no daemon is running to ring it"))
        let stored = try w.context.store.load()
        #expect(stored.map(\.name) == ["work"] && stored.first?.options == ["device": "null", "volume": "80"])

        #expect(try StandingAlarmActions.list(json: false, console: w.console, in: w.context) == .done)
        #expect(w.said.contains("work") && w.said.contains("06:30"), "\(w.said)")
        #expect(try StandingAlarmActions.next(json: false, console: w.console, in: w.context) == .done)
        #expect(try StandingAlarmActions.remove(name: "work", console: w.console, in: w.context) == .done)
        #expect(try w.context.store.load().isEmpty)
        #expect(try StandingAlarmActions.next(json: false, console: w.console, in: w.context) == .failed(.nothingMatched))
    }

    @Test("list's columns line up by characters, a message in another script too; the last column is left as it is")
    func listColumnsAlign() {
        let lines = StandingAlarmActions.columns([["NAME", "NEXT", "MESSAGE"], ["café", "07:00", "wake up"], ["x", "", "élan  "]])
        #expect(lines == ["NAME  NEXT   MESSAGE", "café  07:00  wake up", "x            élan  "])
    }

    @Test("refusals: a time in the past, a duplicate name, an unknown alarm to remove; nothing written")
    func refusals() throws {
        let w = try World()
        #expect(throws: WakeFailure.self) { _ = try w.add(["2020-01-01T07:00"]) }
        _ = try w.add(["06:30"], name: "work")
        do {
            _ = try w.add(["07:00"], name: "work")
            Issue.record("a second 'work' was added")
        } catch {
            #expect(error.kind == .usage && error.message.contains("exists already"), "\(error.message)")
        }
        do {
            _ = try StandingAlarmActions.remove(name: "gym", console: w.console, in: w.context)
            Issue.record("removed an alarm that is not there")
        } catch {
            #expect(error.kind == .usage || error.kind == .nothingMatched, "\(error.kind)")
        }
        #expect(try w.context.store.load().map(\.name) == ["work"])
    }

    @Test("skip and skip --undo, pause and resume: the history says it, and list shows it")
    func skipPauseResume() throws {
        let w = try World(daemon: true)
        _ = try w.add(["06:30"], days: "daily", name: "work")
        #expect(try StandingAlarmActions.skip(name: "work", undo: false, console: w.console, in: w.context) == .done)
        #expect(try w.context.store.loadHistory()["work"]?.skips.isEmpty == false)
        #expect(try StandingAlarmActions.skip(name: "work", undo: true, console: w.console, in: w.context) == .done)
        #expect(try w.context.store.loadHistory()["work"]?.skips.isEmpty == true)
        #expect(try StandingAlarmActions.pause(until: "2026-11-30", names: [], console: w.console, in: w.context) == .done)
        #expect(try w.context.store.loadHistory()["work"]?.pauses.isEmpty == false)
        #expect(try StandingAlarmActions.list(json: true, console: w.console, in: w.context) == .done)
        #expect(try StandingAlarmActions.resume(names: [], console: w.console, in: w.context) == .done)
        let resumed = try w.context.store.loadHistory()["work"]?.pauses.first?.until
        #expect(resumed.map { $0 <= Self.now } == true, "resume ends the pause now: \(String(describing: resumed))")
        #expect(!w.said.contains("no daemon is running"), "a daemon runs here: \(w.said)")
    }

    @Test("a broken alarms file: list shows what it can and ends with problems; add refuses with config")
    func brokenFile() throws {
        let w = try World()
        _ = try w.add(["06:30"], days: "daily", name: "work")
        let text = try String(contentsOfFile: w.context.store.alarmsFile, encoding: .utf8)
        try (text + "\n[alarms.bad]\ntime = \"25:99\"\ncreated = \"2026-01-01T00:00:00Z\"\n")
            .write(toFile: w.context.store.alarmsFile, atomically: true, encoding: .utf8)
        #expect(try StandingAlarmActions.list(json: false, console: w.console, in: w.context) == .doneWithProblems)
        #expect(w.said.contains("work"))
        do {
            _ = try w.add(["07:00"], name: "gym")
            Issue.record("added over a broken file")
        } catch {
            #expect(error.kind == .config, "\(error.message)")
        }
    }

    @Test("a comment that is not UTF-8: list says it as a warning and ends well (exit 0), the alarm shown")
    func latin1CommentIsANote() throws {
        let w = try World()
        _ = try w.add(["06:30"], days: "daily", name: "work")
        let text = try String(contentsOfFile: w.context.store.alarmsFile, encoding: .utf8)
        try Data(Array(text.utf8) + Array("# caf".utf8) + [0xE9] + [0x0A]).write(to: URL(fileURLWithPath: w.context.store.alarmsFile))
        #expect(try StandingAlarmActions.list(json: false, console: w.console, in: w.context) == .done)
        #expect(w.said.contains("work"))
        #expect(w.said.contains("warning: '\(w.context.store.alarmsFile)' line ")
                && w.said.contains(": a comment that is not valid UTF-8 text is skipped; its alarm is kept; save the file as UTF-8"),
                "\(w.said)")
    }
}
