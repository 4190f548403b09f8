import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeEngine
@testable import WakeRuntime
@testable import WakeSystem
@testable import WakeTestSupport

/// The MPRIS players in process: the runner on a fake clock, the players on a private session
/// bus, their methods called with busctl. Two of a daemon's alarms ringing at once are two
/// players under two names; each call reaches its own alarm with the caller; a player goes when
/// its alarm ends.
@Suite("MPRIS players in-process", .serialized,
       .enabled(if: NotificationMock.isAvailable, "needs dbus-daemon and busctl"))
struct MediaPlayersTests {
    static let player = "org.mpris.MediaPlayer2.Player"

    /// Runs busctl against the mock's bus while the session's loop turns on a thread.
    func busctl(_ mock: NotificationMock, _ session: TestSession, _ arguments: [String]) async throws -> ProcessResult {
        try await DesktopNotifierTests.spinning(session) { try await mock.busctl(arguments) }
    }

    /// Turns the loop until `done`, at most 20 s.
    func spin(_ session: TestSession, until done: @escaping @Sendable () -> Bool) async throws {
        try await DesktopNotifierTests.spinning(session) {
            for _ in 0..<1000 where !done() { try await Task.sleep(for: .milliseconds(20)) }
        }
    }

    @Test("a ring nobody answered: the player's title says the round, 'round 2 of 3', while it is snoozed by nobody")
    func unansweredRound() async throws {
        try await NotificationMock.with(server: false) { mock in
            let session = TestSession(standing: true)
            let players = MediaPlayers(mode: { _ in .on }, pid: 4242, address: mock.address)
            players.start(in: session)
            session.reactor.addHook { players.beforePoll() }
            var settings = AlarmEngine.Settings()
            settings.unattended = Unattended(mode: .snooze, rounds: 3)
            try session.runner.arm(RunnerTests.setup(session.world, id: "work", settings: settings))
            session.world.advance(by: .seconds(8 * 3600))
            let box = UncheckedBox(players)
            try await spin(session) { box.value.names["work"] != nil }
            session.world.advance(by: settings.ringFor)
            let name = try #require(players.names["work"])
            var title = ""
            for _ in 0..<100 where !title.contains("round") {
                let r = try await busctl(mock, session, ["get-property", name, "/org/mpris/MediaPlayer2", Self.player, "Metadata"])
                title = r.stdout
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(title.contains("snoozed until") && title.contains(", round 2 of 3"), "\(title)")
            players.stop()
        }
    }

    @Test("two alarms ringing at once: wake and wake.instance4242, each with its own mode; Stop snoozes the snooze-only one, Next stops the other, each with the caller; a player goes with its alarm")
    func twoAlarms() async throws {
        try await NotificationMock.with(server: false) { mock in
            let session = TestSession(standing: true)
            let players = MediaPlayers(mode: { $0 == "gentle" ? .snoozeOnly : .on }, pid: 4242, address: mock.address)
            players.start(in: session)
            session.reactor.addHook { players.beforePoll() }
            try session.runner.arm(RunnerTests.setup(session.world, id: "gentle"))
            try session.runner.arm(RunnerTests.setup(session.world, id: "firm"))
            session.world.advance(by: .seconds(8 * 3600))
            #expect(session.runner.isRinging)
            let box = UncheckedBox(players)
            try await spin(session) { box.value.names.count == 2 }
            let names = players.names
            #expect(Set(names.values) == ["org.mpris.MediaPlayer2.wake", "org.mpris.MediaPlayer2.wake.instance4242"], "\(names)")
            let gentle = try #require(names["gentle"]), firm = try #require(names["firm"])

            // gentle is snooze-only: Stop snoozes it, and its status becomes Paused.
            var r = try await busctl(mock, session, ["call", gentle, "/org/mpris/MediaPlayer2", Self.player, "Stop"])
            #expect(r.exitCode == 0, "\(r)")
            if case .snoozed? = session.runner.state(of: "gentle") {} else { Issue.record("gentle not snoozed: \(String(describing: session.runner.state(of: "gentle")))") }
            r = try await busctl(mock, session, ["get-property", gentle, "/org/mpris/MediaPlayer2", Self.player, "PlaybackStatus"])
            #expect(r.stdout.contains("\"Paused\""), "\(r)")
            r = try await busctl(mock, session, ["get-property", firm, "/org/mpris/MediaPlayer2", Self.player, "PlaybackStatus"])
            #expect(r.stdout.contains("\"Playing\""), "the other alarm rings on: \(r)")

            // firm is on: Next stops it, by the media controls with busctl's unique name.
            r = try await busctl(mock, session, ["call", firm, "/org/mpris/MediaPlayer2", Self.player, "Next"])
            #expect(r.exitCode == 0, "\(r)")
            guard case .stopped(by: .mediaControl(let caller))? = session.runner.outcome(of: "firm") else {
                Issue.record("firm: \(String(describing: session.runner.outcome(of: "firm")))")
                return
            }
            #expect(caller.uniqueName.hasPrefix(":") && caller.program == "busctl" && (caller.pid ?? 0) > 0, "\(caller)")
            try await spin(session) { box.value.names["firm"] == nil }
            #expect(players.names.keys.sorted() == ["gentle"], "firm's player went with its alarm: \(players.names)")

            let calls = session.recorded.filter { $0.0 == "mpris" }.map { fields in
                Dictionary(fields.1.map { ($0.0, "\($0.1)") }, uniquingKeysWith: { a, _ in a })
            }
            #expect(calls.count == 2 && calls.allSatisfy { $0["by"]?.contains("mpris") == true && $0["caller"]?.contains(":") == true
                && $0["caller_program"]?.contains("busctl") == true }, "\(calls)")
            #expect(calls.first?["alarm"]?.contains("gentle") == true && calls.last?["alarm"]?.contains("firm") == true, "\(calls)")

            // An unknown method is an error by name, never silence; Previous is answered and does nothing.
            r = try await busctl(mock, session, ["call", gentle, "/org/mpris/MediaPlayer2", Self.player, "Shuffle"])
            #expect(r.exitCode != 0 && r.stderr.contains("no method 'Shuffle'"), "\(r)")
            r = try await busctl(mock, session, ["call", gentle, "/org/mpris/MediaPlayer2", Self.player, "Previous"])
            #expect(r.exitCode == 0, "\(r)")
            players.stop()
            #expect(players.names.isEmpty)
        }
    }

    /// Lets a @Sendable poll read the players, which only the loop's thread touches meanwhile.
    final class UncheckedBox<T>: @unchecked Sendable {
        let value: T
        init(_ value: T) { self.value = value }
    }
}
