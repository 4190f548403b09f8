import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeRuntime
import WakeSystem
@testable import WakeTestSupport

/// `wake test`'s report of the hooks it ran (issue 53): each hook once, its events in order, how
/// a run that did not succeed went, and what was refused; the same in the JSON.
@Suite("wake test: the hooks in the report")
struct AlarmTestHookReportTests {
    @Test("the hooks that ran, by name with their events; a failure and a run still going said; a refusal; none said as none")
    func hooks() throws {
        var r = AlarmTestReportTests.report()
        #expect(r.lines.contains("hooks: none ran"), "\(r.lines)")
        r.hooks = [.init(hook: "50-lamp", event: "ringing", finished: true), .init(hook: "curl", event: "ringing", finished: true),
                   .init(hook: "50-lamp", event: "stopped", failure: "exited with status 1", finished: true),
                   .init(hook: "curl", event: "stopped")]
        r.hookRefusals = ["hook '/h/60-open' can be written by others (mode 775), so it is not run; chmod go-w it"]
        #expect(r.lines.contains("hooks: 50-lamp (ringing, stopped: exited with status 1); "
                                 + "curl (ringing, stopped: still running when the test ended); "
                                 + "refused: hook '/h/60-open' can be written by others (mode 775), so it is not run; chmod go-w it"),
                "\(r.lines)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.json.text.utf8)) as? [String: Any])
        let hooks = try #require(object["hooks"] as? [[String: Any]])
        #expect(hooks.map { $0["hook"] as? String } == ["50-lamp", "curl", "50-lamp", "curl"])
        #expect(hooks.map { $0["status"] as? String } == ["succeeded", "succeeded", "failed", "running"])
        #expect(hooks[2]["on"] as? String == "stopped" && hooks[2]["reason"] as? String == "exited with status 1")
        #expect((object["hooks_refused"] as? [String])?.count == 1)
    }
}

/// What `wake test` reports comes from the dispatcher: under a test it keeps each run and refusal.
@Suite("HookDispatcher: the runs a test keeps")
struct HookDispatcherRunsTests {
    @Test("a test's dispatcher keeps each run in order with how it ended, and each refusal; a folder hook that fails says its status")
    func keepsRuns() throws {
        let dir = try TestDirectory("wake-hook-runs")
        let folder = dir.path + "/hooks.d"
        #expect(mkdir(folder, 0o700) == 0)
        // Each reads its input first: the test process does not ignore SIGPIPE, as wake does.
        _ = try dir.write("hooks.d/10-ok", Array("#!/bin/sh\ncat >/dev/null\nexit 0\n".utf8), mode: 0o755)
        _ = try dir.write("hooks.d/20-fails", Array("#!/bin/sh\ncat >/dev/null\n[ \"$WAKE_TEST\" = 1 ] && exit 3\nexit 0\n".utf8),
                          mode: 0o755)
        let own = try HookCommand.parse("stopped=wake-no-such-program-53").get()
        let log = EventLog(listenersOnly: .utc)
        let dispatcher = HookDispatcher(log: log, folder: folder, settings: { _ in ([own], .seconds(20)) }, oneOffName: "work", test: true)
        let session = TestSession()
        dispatcher.start(in: session)
        log.emit("ringing", at: RunnerTests.evening)
        log.emit("stopped", at: RunnerTests.evening)
        log.emit("device_lost", at: RunnerTests.evening)  // not an event hooks run on
        try session.turn(until: { dispatcher.runs.count == 4 && dispatcher.runs.allSatisfy(\.finished) }, limit: .seconds(60))
        dispatcher.stop()
        #expect(dispatcher.runs.map { "\($0.hook) \($0.event) \($0.failure ?? "ok")" }
                == ["10-ok ringing ok", "20-fails ringing exited with status 3", "10-ok stopped ok",
                    "20-fails stopped exited with status 3"])
        #expect(dispatcher.refusals == ["hook 'stopped=wake-no-such-program-53': no program 'wake-no-such-program-53' on PATH; "
                                        + "give its full path or install it"])
    }
}
