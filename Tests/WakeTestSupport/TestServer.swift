import Foundation
import Glibc

/// The one fixture of every private server the tests start (`LogindMock`, `NotificationMock`,
/// `PulseAudioServer`, `SystemdUserManager`): start it, wait until it answers while watching
/// that its processes stay alive, retry a start that never comes up, stop it however the test
/// ends, and stop its processes (SIGCONT, SIGTERM, SIGKILL after a grace period, reaped).
///
/// A server is a class with `stop()`; its `start(...)` builds it and calls `waitUntil` (or
/// `ready`), its `with { ... }` is `TestServer.using(start, body)`.
protocol TestServer: AnyObject {
    /// Stops the server and everything it started, and reaps them. Safe to call twice.
    func stop() async
}

extension TestServer {
    /// Runs `body` with a server from `start` and stops it afterwards whether or not `body` threw.
    static func using<T>(_ start: () async throws -> Self, _ body: (Self) async throws -> T) async throws -> T {
        let server = try await start()
        do {
            let r = try await body(server)
            await server.stop()
            return r
        } catch {
            await server.stop()
            throw error
        }
    }

    /// `start` up to `attempts` times, each from scratch: a start that does not come up is thrown
    /// away (seen under ASan on two cores: a dbusmock that never claimed its name, with nothing
    /// on its stderr, while a second start came up at once). The last failure is thrown.
    static func retrying(_ what: String, attempts: Int, _ start: () async throws -> Self) async throws -> Self {
        var failure: Error = WakeTestError("\(what) was never started")
        for _ in 0..<max(1, attempts) {
            do { return try await start() } catch { failure = error }
        }
        throw failure
    }

    /// Returns the server once `wait` returns; stops it and rethrows when `wait` throws, so a
    /// start that fails half-way leaves no process behind.
    func ready(_ wait: (Self) async throws -> Void) async throws -> Self {
        do {
            try await wait(self)
            return self
        } catch {
            await stop()
            throw error
        }
    }
}

/// The waiting and stopping parts of `TestServer`, for the servers' own code.
enum TestServerProcesses {
    /// What the last readiness check saw, for the timeout's message.
    final class Note { var text = "" }

    /// Polls `isReady` every `interval` until it says true. Throws `"<name> exited: <result>"`
    /// as soon as one of `watching` exits, and `onTimeout()` once `deadline` has passed.
    static func waitUntil(deadline: ContinuousClock.Instant, every interval: Duration,
                          watching: [(name: String, process: ChildProcess)],
                          onTimeout: () -> String, _ isReady: () async throws -> Bool) async throws {
        while true {
            for (name, process) in watching where process.hasExited {
                throw WakeTestError("\(name) exited: \(process.result.map { "\($0)" } ?? "?")")
            }
            if try await isReady() { return }
            if ContinuousClock.now >= deadline { throw WakeTestError(onTimeout()) }
            try await Task.sleep(for: interval)
        }
    }

    /// Lets each process run again (a frozen one cannot act on SIGTERM), asks it to end
    /// (SIGTERM) and reaps it; `ChildProcess.wait` kills it (SIGKILL) after `grace`.
    static func terminate(_ processes: [ChildProcess?], grace: Duration = .seconds(5)) async {
        for p in processes.compactMap({ $0 }) {
            p.send(SIGCONT)
            p.send(SIGTERM)
            await p.wait(timeout: grace)
        }
    }
}
