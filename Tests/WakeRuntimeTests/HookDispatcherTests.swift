import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeRuntime
@testable import WakeSystem
@testable import WakeTestSupport

/// Hooks in process (issue 53): the dispatcher on a `TestSession`, an event log for its
/// listeners alone, and real small `/bin/sh` hooks in a temporary hooks.d, run by the real
/// worker thread. Time is real (the hooks are processes): outcomes are asserted, never
/// durations, and waits are bounded generously. The end to end test (`HookEndToEndTests`) has
/// the binary's side: the events of a whole one-off, the environment, a hung `--hook` killed.
@Suite("Hooks: the dispatcher and its worker in process")
struct HookDispatcherTests {
    /// One dispatcher on one session, with its folder and the alarm's `--hook`s.
    final class Bench {
        let dir: TestDirectory
        let hooks: String
        let session = TestSession()
        let log = EventLog(listenersOnly: .utc)
        let dispatcher: HookDispatcher
        let time = RunnerTests.evening

        init(commands: [String] = [], timeout: Duration = .seconds(30), oneOff: String? = nil) throws {
            dir = try TestDirectory("wake-hookdispatch")
            hooks = dir.file("hooks.d")
            guard mkdir(hooks, 0o755) == 0 else { throw WakeTestError("mkdir \(hooks): errno \(errno)") }
            let parsed = try commands.map { try HookCommand.parse($0).get() }
            dispatcher = HookDispatcher(log: log, folder: hooks, settings: { _ in (parsed, timeout) }, oneOffName: oneOff)
            dispatcher.start(in: session)
        }

        /// A hook of the folder: `body` after `#!/bin/sh`; `@FILE` in it stands for `file(FILE)`.
        @discardableResult
        func hook(_ name: String, _ body: String, mode: mode_t = 0o755) throws -> String {
            var text = body
            for word in ["ARGS", "IN", "REC", "GO", "OK", "PID", "RAN"] {
                text = text.replacingOccurrences(of: "@" + word, with: dir.file(word))
            }
            return try dir.write("hooks.d/" + name, Array(("#!/bin/sh\n" + text + "\n").utf8), mode: mode)
        }

        func emit(_ event: String, alarm: String? = "morning", _ more: [(String, JSONValue)] = []) {
            log.emit(event, at: time, (alarm.map { [("alarm", JSONValue.string($0))] } ?? []) + more)
        }

        /// The console's lines (each starts `wake: `).
        var said: [String] { session.lines.lines }
        func said(_ prefix: String) -> [String] { said.filter { $0.hasPrefix("wake: " + prefix) } }
        func recorded(_ event: String) -> [[(String, JSONValue)]] { session.recorded.filter { $0.0 == event }.map(\.1) }
        func lines(_ file: String) -> [String] {
            ((try? String(contentsOfFile: dir.file(file), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        /// Turns the loop until `done` (generous: the machine is loaded); records an issue if it never holds.
        func wait(_ what: String, limit: Duration = .seconds(30), until done: () -> Bool) throws {
            try session.turn(until: done, limit: limit)
            if !done() { Issue.record("never: \(what)\n\(said.joined(separator: "\n"))") }
        }

        deinit { dispatcher.stop() }
    }

    static func text(_ fields: [(String, JSONValue)]) -> String { JSONValue.object(fields).text }

    @Test("a folder hook is called as HOOK EVENT ALARM with the event's log line on its input; its output said as 'hook NAME:'")
    func argumentsAndInput() throws {
        let b = try Bench(oneOff: "pid:4242")
        try b.hook("10-record", #"printf '%s\n' "$0" "$@" > @ARGS; cat > @IN; echo "got $WAKE_EVENT for $WAKE_ALARM""#)
        let fields: [(String, JSONValue)] = [("by", .string("key"))]
        b.emit("stopped", alarm: nil, fields)
        try b.wait("the hook's line") { !b.said("hook 10-record:").isEmpty }
        #expect(b.lines("ARGS") == [b.hooks + "/10-record", "stopped", "pid:4242"])
        let input = try String(contentsOfFile: b.dir.file("IN"), encoding: .utf8)
        #expect(input == b.log.line("stopped", at: b.time, fields) && input.hasSuffix("}\n"), "\(input)")
        #expect(b.said("hook") == ["wake: hook 10-record: got stopped for pid:4242"])
        #expect(b.recorded("hook_failed").isEmpty)
    }

    @Test("events the hooks do not run on (devices, mixers) start nothing")
    func otherEventsIgnored() throws {
        let b = try Bench()
        try b.hook("10-record", "echo \"$1\" >> @REC")
        b.emit("device_lost")
        b.emit("armed")
        try b.wait("armed run") { b.lines("REC").contains("armed") }
        #expect(b.lines("REC") == ["armed"])
    }

    @Test("one hook's runs go in the order of their events, one at a time")
    func orderPerHook() throws {
        let b = try Bench()
        try b.hook("10-order", "echo \"start $1\" >> @REC; sleep 0.05; echo \"end $1\" >> @REC")
        let events = ["armed", "ringing", "snoozed", "ringing", "stopped"]
        for e in events { b.emit(e) }
        try b.wait("ten lines") { b.lines("REC").count == 10 }
        #expect(b.lines("REC") == events.flatMap { ["start \($0)", "end \($0)"] })
    }

    @Test("different hooks run side by side: one waiting for another's run does not hold it")
    func sideBySide() throws {
        let b = try Bench()
        // 10-slow runs first (byte order) and ends only once 20-fast has run, or fails after 20 s.
        try b.hook("10-slow", #"i=0; while [ ! -e @GO ]; do i=$((i+1)); [ $i -gt 200 ] && { echo "no go"; exit 1; }; sleep 0.1; done"#
                   + "\necho saw go")
        try b.hook("20-fast", "touch @GO; echo went")
        b.emit("ringing")
        try b.wait("both said") { b.said("hook").count == 2 }
        #expect(Set(b.said("hook")) == ["wake: hook 10-slow: saw go", "wake: hook 20-fast: went"])
        #expect(b.recorded("hook_failed").isEmpty)
    }

    @Test("a hook past its timeout is ended with its process group, said once and recorded as killed")
    func timeout() throws {
        let b = try Bench(timeout: .milliseconds(300))
        try b.hook("10-hang", "sleep 600 & echo $! > @PID; wait")
        b.emit("ringing")
        try b.wait("killed") { !b.recorded("hook_failed").isEmpty }
        #expect(b.said("warning") == ["wake: warning: hook 10-hang on ringing ran past its 300ms (--hook-timeout) and was killed; "
                                      + "the alarm goes on (said once until it succeeds)"])
        #expect(b.recorded("hook_failed").map(Self.text) == [Self.text([("hook", .string("10-hang")), ("on", .string("ringing")),
                                                                         ("killed", .bool(true))])])
        // What the hook started went with it (a zombie waiting for its reaper counts as gone).
        let pid = try #require(b.lines("PID").first.flatMap { pid_t($0) })
        func alive() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
            return !stat.contains(") Z ")
        }
        try b.wait("the hook's child gone", until: { !alive() })
        #expect(!alive())
    }

    @Test("at most 5 lines are said, each up to 200 characters, then how many more")
    func outputCapped() throws {
        let b = try Bench()
        try b.hook("10-talk", "head -c 300 /dev/zero | tr '\\0' x; echo; for i in 2 3 4 5 6 7; do echo \"line $i\"; done; printf 'no end'")
        b.emit("ringing")
        try b.wait("more lines said") { b.said("hook 10-talk: (") .count == 1 }
        #expect(b.said("hook") == ["wake: hook 10-talk: " + String(repeating: "x", count: 200)]
                + (2...5).map { "wake: hook 10-talk: line \($0)" } + ["wake: hook 10-talk: (3 more lines)"])
    }

    @Test("each failing kind: one line per hook and event, a hook_failed record per run",
          arguments: [("exit 3", "exited with status 3", ("status", JSONValue.int(3))),
                      ("kill -USR1 $$", "was ended by signal \(SIGUSR1)", ("signal", JSONValue.int(Int64(SIGUSR1))))])
    func failureSaidOnce(body: String, why: String, field: (String, JSONValue)) throws {
        let b = try Bench()
        try b.hook("10-fail", body)
        for e in ["ringing", "ringing", "snoozed"] { b.emit(e) }
        try b.wait("three runs") { b.recorded("hook_failed").count == 3 }
        #expect(b.said("warning") == ["ringing", "snoozed"].map {
            "wake: warning: hook 10-fail on \($0) \(why); the alarm goes on (said once until it succeeds)"
        })
        #expect(b.recorded("hook_failed").map(Self.text) == ["ringing", "ringing", "snoozed"].map {
            Self.text([("hook", .string("10-fail")), ("on", .string($0)), field])
        })
    }

    @Test("a hook that cannot start (its interpreter missing) is said once, with the reason")
    func notStarted() throws {
        let b = try Bench()
        let path = try b.dir.write("hooks.d/10-lost", Array("#!/nonexistent/sh\n".utf8), mode: 0o755)
        b.emit("ringing")
        b.emit("ringing")
        try b.wait("two runs") { b.recorded("hook_failed").count == 2 }
        let reason = "posix_spawn \(path): No such file or directory"
        #expect(b.said("warning") == ["wake: warning: hook 10-lost on ringing could not start: \(reason); "
                                      + "the alarm goes on (said once until it succeeds)"])
        #expect(b.recorded("hook_failed").first.map(Self.text)
                == Self.text([("hook", .string("10-lost")), ("on", .string("ringing")), ("reason", .string(reason))]))
    }

    @Test("runs waiting behind a running one that then cannot start are each tried at once, none left for the next event")
    func queuedRunsThatCannotStart() throws {
        let b = try Bench()
        try b.hook("10-lost", "touch @RAN; sleep 1")
        b.emit("ringing")
        try b.wait("the first run started") { FileManager.default.fileExists(atPath: b.dir.file("RAN")) }
        // While it runs, the hook loses its interpreter, and two more runs wait behind it.
        _ = try b.dir.write("hooks.d/10-lost", Array("#!/nonexistent/sh\n".utf8), mode: 0o755)
        b.emit("ringing")
        b.emit("ringing")
        try b.wait("both queued runs failed to start", limit: .seconds(20)) { b.recorded("hook_failed").count >= 2 }
    }

    @Test("a failure is said again after the hook succeeded on that event, not after a success on another")
    func saidAgainAfterSuccess() throws {
        let b = try Bench()
        try b.hook("10-flaky", "echo \"ran $1\"; [ -e @OK ] && exit 0; exit 3")
        var runs = 0
        func run(_ event: String, ok: Bool) throws {
            if ok { _ = try b.dir.write("OK", [UInt8]()) } else { unlink(b.dir.file("OK")) }
            b.emit(event)
            runs += 1
            try b.wait("run \(runs)") { b.said("hook 10-flaky: ran").count == runs }
        }
        try run("ringing", ok: false)   // said
        try run("ringing", ok: false)   // not again
        try run("stopped", ok: true)    // another event's success
        try run("ringing", ok: false)   // still not again
        try run("ringing", ok: true)    // that event's success
        try run("ringing", ok: false)   // said again
        let line = "wake: warning: hook 10-flaky on ringing exited with status 3; the alarm goes on (said once until it succeeds)"
        #expect(b.said("warning") == [line, line])
        #expect(b.recorded("hook_failed").count == 4)
    }

    @Test("a session that ends waits for the hooks its last events started (a one-off's stopped), and says their output")
    func stopWaits() throws {
        let b = try Bench()
        try b.hook("10-music", "sleep 0.3; echo playing; touch @RAN")
        b.emit("stopped")
        b.dispatcher.stop()
        #expect(access(b.dir.file("RAN"), F_OK) == 0)
        #expect(b.said("hook") == ["wake: hook 10-music: playing"])
    }

    @Test("past 32 runs waiting for one hook, a run is dropped and said; the others run")
    func queueLimit() throws {
        let b = try Bench()
        try b.hook("10-block", #"echo "$1" >> @RAN; i=0; while [ ! -e @GO ] && [ $i -lt 300 ]; do i=$((i+1)); sleep 0.1; done"#)
        b.emit("ringing")
        try b.wait("the first run started") { !b.lines("RAN").isEmpty }
        for _ in 0..<(HookWorker.queueLimit + 1) { b.emit("snoozed") }
        try b.wait("the drop said") { !b.said("warning").isEmpty }
        _ = try b.dir.write("GO", [UInt8]())
        try b.wait("33 runs") { b.lines("RAN").count == 1 + HookWorker.queueLimit }
        #expect(b.said("warning") == ["wake: warning: hook 10-block on snoozed: 32 runs already wait for it; "
                                      + "this one is dropped (does it hang?)"])
        #expect(b.lines("RAN") == ["ringing"] + Array(repeating: "snoozed", count: HookWorker.queueLimit))
    }

    @Test("an unsafe folder hook and a --hook program not on PATH: each said once and recorded, neither run; the rest run")
    func refusedOnce() throws {
        let b = try Bench(commands: ["ringing=no-such-program-wake-test --flag", "ringing=sh -c 'echo \"$0\"' from-hook"])
        try b.hook("10-open", "touch @RAN", mode: 0o775)
        try b.hook("20-ok", "echo ok")
        b.emit("ringing")
        b.emit("ringing")
        try b.wait("two runs of each") { b.said("hook").count == 4 }
        let refusals = ["hook '\(b.hooks)/10-open' can be written by others (mode 775), so it is not run; chmod go-w it",
                        "hook 'ringing=no-such-program-wake-test --flag': no program 'no-such-program-wake-test' on PATH; "
                            + "give its full path or install it"]
        #expect(b.said("warning") == refusals.map { "wake: warning: " + $0 })
        #expect(b.recorded("hook_refused").map(Self.text) == refusals.map { Self.text([("reason", .string($0))]) })
        #expect(Set(b.said("hook")) == ["wake: hook 20-ok: ok", "wake: hook sh: from-hook"])
        #expect(access(b.dir.file("RAN"), F_OK) != 0)
    }
}

/// The worker alone: what the dispatcher cannot choose (the grace between SIGTERM and SIGKILL).
@Suite("Hooks: the worker")
struct HookWorkerTests {
    /// Outcomes until `count` have come, or 30 s.
    static func outcomes(_ worker: HookWorker, _ count: Int) throws -> [HookWorker.Outcome] {
        var got: [HookWorker.Outcome] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while got.count < count, ContinuousClock.now < deadline {
            _ = try Poll.waitReadable(worker.loopSignal.fd, within: .milliseconds(100))
            got += worker.take().done
        }
        return got
    }

    @Test("a hook that ignores SIGTERM is killed (SIGKILL to its group) the grace after; the run counts as killed")
    func termIgnored() throws {
        let dir = try TestDirectory("wake-hookworker")
        let path = try dir.write("stubborn", Array("#!/bin/sh\ntrap '' TERM\necho waiting\nsleep 600\n".utf8), mode: 0o755)
        let worker = try HookWorker(killGrace: .milliseconds(200))
        worker.submit(.init(key: path, name: "stubborn", event: "ringing", path: path, arguments: [path, "ringing", "x"],
                            environment: ["PATH=/usr/bin:/bin"], input: Array("{}\n".utf8), timeout: .milliseconds(200), directory: nil))
        let got = try Self.outcomes(worker, 1)
        #expect(got.map(\.ending) == [.killed(after: .milliseconds(200))])
        #expect(got.first?.lines == ["waiting"])
        #expect(worker.busy == 0)
    }
}
