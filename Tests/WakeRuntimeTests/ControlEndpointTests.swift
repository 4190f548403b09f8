import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeEngine
@testable import WakeRuntime
@testable import WakeSystem
@testable import WakeTestSupport

/// The control endpoint in-process (issue 38): a session's answers to `wake list`, `stop`,
/// `snooze` and `cancel`, with the runner on a fake clock, the socket real, and the client
/// (`ControlClient`, what the commands use) on a thread of its own while the test turns the loop.
@Suite("Control endpoint in-process")
struct ControlEndpointTests {
    /// Asks `request` of every session in `directory` from another thread, turning `session`'s
    /// loop meanwhile; the replies.
    static func ask(_ request: ControlRequest, of session: TestSession, in directory: String) throws -> [ControlClient.Reply] {
        let box = ReplyBox()
        let thread = Thread {
            let replies = ControlClient.ask(request, directory: directory, timeout: .seconds(5))
            box.set(replies)
        }
        thread.start()
        try session.turn(until: { box.get() != nil })
        return box.get() ?? []
    }

    /// The client thread's answer, handed over under a lock.
    final class ReplyBox: @unchecked Sendable {
        private let lock = NSLock()
        private var replies: [ControlClient.Reply]?
        func set(_ r: [ControlClient.Reply]) { lock.withLock { replies = r } }
        func get() -> [ControlClient.Reply]? { lock.withLock { replies } }
    }

    static func endpoint(_ session: TestSession) throws -> (ControlEndpoint, TestDirectory) {
        let dir = try TestDirectory()
        chmod(dir.path, 0o700)
        let endpoint = ControlEndpoint(directory: dir.path)
        endpoint.start(in: session)
        return (endpoint, dir)
    }

    @Test("a one-off: list while waiting, a stop refused while waiting, snooze and stop while ringing")
    func oneOffCommands() throws {
        let session = TestSession()
        let (endpoint, dir) = try Self.endpoint(session)
        defer { endpoint.stop() }
        try session.runner.arm(RunnerTests.setup(session.world))
        let pid = String(getpid())

        var r = try Self.ask(.list, of: session, in: dir.path)
        #expect(r.count == 1 && r[0].records?.first?["state"] == "waiting" && r[0].records?.first?["id"] == pid, "\(r)")
        // Without an ID a stop is for what rings: a waiting alarm is left out; named, it is refused.
        r = try Self.ask(.command(.stop, id: nil), of: session, in: dir.path)
        #expect(r[0].records?.isEmpty == true, "\(r)")
        r = try Self.ask(.command(.stop, id: pid), of: session, in: dir.path)
        #expect(r[0].records?.first?["kind"] == "refused" && r[0].records?.first?["reason"] == "waiting", "\(r)")

        session.world.advance(by: .seconds(8 * 3600))  // the morning: it rings
        #expect(session.runner.isRinging)
        r = try Self.ask(.list, of: session, in: dir.path)
        #expect(r[0].records?.first?["state"] == "ringing")
        r = try Self.ask(.command(.snooze, id: pid), of: session, in: dir.path)
        #expect(r[0].records?.first?["action"] == "snoozed" && r[0].records?.first?.instant("until") != nil, "\(r)")
        r = try Self.ask(.command(.snooze, id: pid), of: session, in: dir.path)
        #expect(r[0].records?.first?["reason"] == "snoozed", "a second snooze while snoozed is refused: \(r)")
        r = try Self.ask(.command(.stop, id: nil), of: session, in: dir.path)
        #expect(r[0].records?.first?["action"] == "stopped", "\(r)")
        #expect(session.runner.isFinished)
        r = try Self.ask(.list, of: session, in: dir.path)
        #expect(r[0].records?.isEmpty == true, "a finished alarm is not listed: \(r)")
    }

    @Test("the daemon: alarms by name, cancel refused for a standing alarm, an unknown name matches nothing, silent said as silent")
    func daemonCommands() throws {
        let session = TestSession(standing: true)
        let (endpoint, dir) = try Self.endpoint(session)
        defer { endpoint.stop() }
        try session.runner.arm(RunnerTests.setup(session.world, id: "work"))
        try session.runner.arm(RunnerTests.setup(session.world, id: "gym", at: RunnerTests.morning + .seconds(3600)))
        var r = try Self.ask(.list, of: session, in: dir.path)
        #expect(Set(r[0].records?.map { $0["id"] ?? "" } ?? []) == ["work", "gym"] && r[0].records?.allSatisfy { $0["standing"] == "1" } == true)
        r = try Self.ask(.command(.cancel, id: "work"), of: session, in: dir.path)
        #expect(r[0].records?.first?["reason"] == "standing", "\(r)")
        r = try Self.ask(.command(.stop, id: "nobody"), of: session, in: dir.path)
        #expect(r[0].records?.isEmpty == true, "\(r)")
        session.world.advance(by: .seconds(8 * 3600))
        session.isSilent = true
        r = try Self.ask(.list, of: session, in: dir.path)
        #expect(r[0].records?.first { $0["id"] == "work" }?["state"] == "silent", "\(r)")
    }

    @Test("a bad request gets an error record; a client that sends nothing is dropped after the idle limit, and others are served meanwhile")
    func badAndHangingClients() throws {
        let session = TestSession()
        let (endpoint, dir) = try Self.endpoint(session)
        defer { endpoint.stop() }
        try session.runner.arm(RunnerTests.setup(session.world))
        let path = ControlDirectory.socketPath(in: dir.path, pid: getpid())
        let bad = try UnixSocket.connect(to: path)
        _ = try bad.write(ArraySlice("wake/9 explode\n".utf8))
        var answer: [UInt8] = []
        try session.turn(until: {
            _ = try? bad.read(into: &answer, limit: 4096)
            return String(decoding: answer, as: UTF8.self).contains("end")
        })
        #expect(String(decoding: answer, as: UTF8.self).contains("\"kind\":\"error\"") || String(decoding: answer, as: UTF8.self).contains("kind=error")
                || String(decoding: answer, as: UTF8.self).contains("error"), "\(String(decoding: answer, as: UTF8.self))")

        let hung = try UnixSocket.connect(to: path)
        try session.turn(until: { endpoint.server?.clientCount == 1 }, limit: .seconds(5))
        let r = try Self.ask(.list, of: session, in: dir.path)
        #expect(r.first?.records?.count == 1, "served beside a hanging client: \(r)")
        try session.turn(until: { endpoint.server?.clientCount == 0 }, limit: .seconds(ControlServer.idleLimit.components.seconds + 5))
        #expect(endpoint.server?.clientCount == 0, "the hanging client was not dropped")
        withExtendedLifetime(hung) {}
    }
}
