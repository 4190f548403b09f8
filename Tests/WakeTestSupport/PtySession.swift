import Foundation
import Glibc

/// wake on a pseudo-terminal (Support/pty_driver.py), like `runOnPty`, but started in the
/// background so the test can act while the driver runs its steps: watch the event log, freeze
/// a sound server, time how long wake takes to exit. `finish()` returns what `runOnPty` returns.
final class PtySession {
    let directory: TestDirectory
    let eventsPath: String
    let arguments: [String]
    private let driver: ChildProcess
    let started = ContinuousClock.now

    init(_ arguments: [String], steps: [String], environment: [String: String] = [:], unset: [String] = [],
         timeout: Double = 30) throws {
        let dir = try TestDirectory("wake-pty")
        directory = dir
        eventsPath = dir.file("events.jsonl")
        self.arguments = arguments
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("pty_driver.py").path
        let args = [script, "--events", eventsPath, "--timeout", "\(timeout)"] + steps.flatMap { ["--step", $0] }
            + ["--", WakeBinary.path] + arguments + ["--events", eventsPath]
        driver = try ChildProcess("/usr/bin/python3", args, environment: environment, unset: unset, directory: dir)
    }

    var events: [WakeEvent] { WakeEvent.read(eventsPath) }
    var eventLogText: String { ChildProcess.read(eventsPath) }
    /// True once the driver has finished (wake has exited, or the driver gave up and killed it).
    var hasExited: Bool { driver.hasExited }

    /// Waits until the `occurrence`-th event called `name` is in the log.
    @discardableResult
    func waitForEvent(_ name: String, occurrence: Int = 1, timeout: Duration = .seconds(15)) async throws -> WakeEvent {
        let deadline = ContinuousClock.now + timeout
        while true {
            let matching = events.filter { $0.name == name }
            if matching.count >= occurrence { return matching[occurrence - 1] }
            if driver.hasExited {
                throw WakeTestError("wake (on a pty) exited before event '\(name)' #\(occurrence): \(driver.result!)\nevents:\n\(eventLogText)")
            }
            if ContinuousClock.now >= deadline {
                throw WakeTestError("no event '\(name)' #\(occurrence) within \(timeout)\nevents:\n\(eventLogText)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Waits for the driver; `exitedAt` is when the test saw it finish.
    func finish(timeout: Duration = .seconds(60)) async throws -> (run: PtyRun, events: [WakeEvent], exitedAt: ContinuousClock.Instant) {
        let r = await driver.wait(timeout: timeout)
        let exitedAt = ContinuousClock.now
        guard r.exitCode == 0, let line = r.stdoutLines.last else { throw WakeTestError("pty driver failed: \(r)") }
        var outcome = try JSONDecoder().decode(PtyRun.self, from: Data(line.utf8))
        outcome.events = eventLogText
        return (outcome, events, exitedAt)
    }
}
