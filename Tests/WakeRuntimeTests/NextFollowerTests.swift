import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeEngine
@testable import WakeRuntime
@testable import WakeSystem
@testable import WakeTestSupport

/// `wake next --follow` in process (issue 41): a real reactor, real inotify on a temporary
/// directory's files and control directory, the alarms added by the real action. It looks again
/// on a change and prints only a changed line; idle, it makes no look at all.
@Suite("wake next --follow in-process")
struct NextFollowerTests {
    final class Feed {
        let dir: TestDirectory
        let context: StandingContext
        let control: String
        let reactor = Reactor()
        var lines: [String] = []
        var said: [String] = []
        var follower: NextFollower!

        init(format: NextAlarmFeedFormat) throws {
            dir = try TestDirectory()
            control = dir.path + "/run/wake"
            try FileManager.default.createDirectory(atPath: control, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let store = AlarmStore(alarmsFile: dir.path + "/config/wake/alarms.toml", historyFile: dir.path + "/config/wake/history.toml")
            let control = control
            // The real clock: the follower's timer is on it.
            context = StandingContext(store: store, now: { SystemClock.realtime }, zone: .utc, daemonRunning: { true },
                                      controlDirectory: { control })
            let places = NextFollower.Places(fileDirectories: [store.alarmsDirectory], controlDirectory: control, watchZone: false)
            follower = try NextFollower(format: format, context: context, places: places, reactor: reactor,
                                        timers: ReactorTimers(reactor: reactor),
                                        write: { [unowned self] in self.lines.append($0); return true },
                                        say: { [unowned self] in self.said.append($0) })
        }

        /// Turns the loop until `done` or 5 s pass.
        func turn(until done: () -> Bool) throws {
            let end = ContinuousClock.now + .seconds(5)
            while !done() && ContinuousClock.now < end { try reactor.runOnce(timeout: .milliseconds(50)) }
        }

        /// Turns the loop for `span` whatever happens.
        func idle(_ span: Duration) throws {
            let end = ContinuousClock.now + span
            while ContinuousClock.now < end { try reactor.runOnce(timeout: .milliseconds(50)) }
        }

        func add(_ when: String, name: String) throws {
            let ring = try RingSettings(values: ["device": "null"])
            let request = StandingAlarmActions.AddRequest(when: [when], days: "daily", name: name, ring: ring, given: ["--device"])
            _ = try StandingAlarmActions.add(request, console: Console(capturing: Console.LineCapture()), signals: try SignalChannel(), in: context)
        }
    }

    /// The alarm's time, UTC, twelve hours from now: an alarm due a minute after the test began
    /// (06:30 in a run at 06:29) changed its line on its own, "in 1 min" turning into "now".
    static let halfADayAhead: String = {
        let seconds = Int((SystemClock.realtime.nanoseconds / 1_000_000_000 + 12 * 3600) % 86_400)
        return String(format: "%02d:%02d", seconds / 3600, seconds / 60 % 60)
    }()

    @Test("none at the start; a line for an added alarm and for a skip; nothing for an unrelated file; no look while idle")
    func followsTheFiles() throws {
        let f = try Feed(format: .waybar)
        try f.turn { f.lines.count == 1 }
        #expect(f.lines == [#"{"text":"","tooltip":"no alarm","class":"none","alt":"none"}"# + "\n"])
        #expect(f.said.isEmpty, "\(f.said)")

        try f.add(Self.halfADayAhead, name: "work")
        try f.turn { f.lines.count == 2 }
        let tooltip = #""tooltip":""# + Self.halfADayAhead + " "
        #expect(f.lines.last?.contains(tooltip) == true && f.lines.last?.contains("(work)") == true, "\(f.lines)")

        _ = try StandingAlarmActions.skip(.init(name: "work", undo: false, count: nil, dates: []),
                                          console: Console(capturing: Console.LineCapture()), in: f.context)
        try f.turn { f.lines.count == 3 }
        #expect(f.lines.last?.contains("skipped") == true, "\(f.lines)")

        // A file beside the alarms changes: a look, and no line, since the answer is the same.
        let looks = f.follower.looks
        _ = try f.dir.write("config/wake/notes.txt", Array("x".utf8))
        try f.turn { f.follower.looks > looks }
        try f.idle(.milliseconds(200))
        #expect(f.follower.looks > looks && f.lines.count == 3, "\(f.lines)")

        // Idle: no look at all (the only timer is at the alarm's time or a day's turn, hours away).
        let idleLooks = f.follower.looks
        try f.idle(.milliseconds(500))
        #expect(f.follower.looks == idleLooks)
    }

    @Test("a running wake touching its socket makes the follower look again")
    func followsTheControlDirectory() throws {
        let f = try Feed(format: .plain)
        try f.turn { f.lines.count == 1 }
        let looks = f.follower.looks
        let socket = try f.dir.write("run/wake/4242.sock", [])
        try f.idle(.milliseconds(100))
        let afterCreate = f.follower.looks
        #expect(afterCreate > looks, "a wake registering is a change")
        ControlDirectory.announceChange(socket)
        try f.turn { f.follower.looks > afterCreate }
        #expect(f.follower.looks > afterCreate, "a touch of a socket is a change")
        #expect(f.lines == ["\n"], "no alarm, and nothing new to print: \(f.lines)")
    }

    @Test("an unreadable alarms file is said once and the last line stays")
    func brokenFileSaidOnce() throws {
        let f = try Feed(format: .plain)
        try f.add(Self.halfADayAhead, name: "work")
        try f.turn { f.lines.count == 1 }
        let good = f.lines
        // A directory where the file should be: nothing can be read (a broken line alone would be
        // set aside, as the daemon does, and said as a warning).
        unlink(f.context.store.alarmsFile)
        mkdir(f.context.store.alarmsFile, 0o700)
        try f.turn { !f.said.isEmpty }
        _ = try f.dir.write("config/wake/notes.txt", Array("x".utf8))
        try f.idle(.milliseconds(300))
        #expect(f.said.count == 1, "\(f.said)")
        #expect(f.lines == good, "\(f.lines)")
    }

    @Test("--format and --json are refused where they mean nothing; an unknown format names the others")
    func checkedOptions() {
        #expect(throws: WakeFailure.self) { try NextFollower.checked(format: "json", follow: false, json: false) }
        #expect(throws: WakeFailure.self) { try NextFollower.checked(format: nil, follow: true, json: true) }
        do {
            _ = try NextFollower.checked(format: "polybar", follow: true, json: false)
            Issue.record("polybar accepted")
        } catch {
            #expect(error.kind == .usage && error.message.contains("plain, json, waybar, i3blocks"), "\(error.message)")
        }
        #expect((try? NextFollower.checked(format: nil, follow: true, json: false)) == .plain)
    }
}
