import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeEngine
@testable import WakeRuntime
@testable import WakeSystem
@testable import WakeTestSupport

/// The desktop notifier in-process (issue 38): the runner on a fake clock, the notification
/// server python-dbusmock's on a private session bus. Its buttons reach the runner; a server
/// that vanishes costs the notification, never the alarm.
@Suite("Desktop notifier in-process", .serialized,
       .enabled(if: NotificationMock.isAvailable, "needs dbus-daemon and python3-dbusmock"))
struct DesktopNotifierTests {
    /// Turns `session`'s loop on a thread of its own while `body` runs (which awaits the mock).
    static func spinning<T>(_ session: TestSession, _ body: () async throws -> T) async throws -> T {
        let spinner = Spinner(session)
        spinner.start()
        defer { spinner.stop() }
        return try await body()
    }

    /// The loop's turns, on a thread, until told to stop; the session is touched by it alone meanwhile.
    final class Spinner: @unchecked Sendable {
        private let session: TestSession
        private let lock = NSLock()
        private var running = true
        private var thread: Thread?
        private let done = DispatchSemaphore(value: 0)
        init(_ session: TestSession) { self.session = session }
        func start() {
            let t = Thread { [self] in
                while lock.withLock({ running }) { _ = try? session.reactor.runOnce(timeout: .milliseconds(10)) }
                done.signal()
            }
            thread = t
            t.start()
        }
        func stop() {
            lock.withLock { running = false }
            done.wait()
        }
    }

    /// A notifier on the mock's bus, for a session with one alarm that rings at once.
    static func ringing(_ mock: NotificationMock, settings: AlarmEngine.Settings = .init()) throws -> (TestSession, DesktopNotifier) {
        let session = TestSession()
        let notifier = DesktopNotifier(mode: .auto, bus: try NotificationBus(address: mock.bus.address), address: mock.bus.address)
        notifier.start(in: session)
        try session.runner.arm(RunnerTests.setup(session.world, settings: settings))
        session.world.advance(by: .seconds(8 * 3600))
        #expect(session.runner.isRinging)
        return (session, notifier)
    }

    @Test("ringing shows a notification with Snooze and Stop; Snooze snoozes, then Stop stops, by the notification")
    func buttons() async throws {
        try await NotificationMock.with { mock in
            let (session, notifier) = try Self.ringing(mock)
            let shown = try await Self.spinning(session) { try await mock.waitForNotify() }
            #expect(shown.actions.contains("snooze") && shown.actions.contains("stop"), "\(shown)")
            try await Self.spinning(session) {
                try await mock.press("snooze", on: 1)
                for _ in 0..<200 where !Self.isSnoozed(session) { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(Self.isSnoozed(session), "Snooze did not snooze")
            // Replaced, not a second one: the time it rings again, Stop alone, still resident.
            let replaced = try await Self.spinning(session) { try await mock.waitForNotify(2) }
            #expect(replaced.replacesID == 1 && replaced.summary.contains("snoozed until 07:09"), "\(replaced)")
            #expect(replaced.actions == ["stop", "Stop"] && replaced.hints["resident"] == "true", "\(replaced)")
            session.world.advance(by: .seconds(9 * 60))  // the snooze ends: it rings again
            #expect(session.runner.isRinging)
            try await Self.spinning(session) {
                try await mock.press("stop", on: 1)
                for _ in 0..<200 where !session.runner.isFinished { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(session.runner.outcome(of: "alarm") == .stopped(by: .notification), "\(String(describing: session.runner.outcome(of: "alarm")))")
            // Withdrawn at the end.
            _ = try await Self.spinning(session) {
                try await mock.waitForCalls("CloseNotification(1)") { calls in
                    calls.contains { if case .close(1) = $0 { true } else { false } }
                }
            }
            notifier.stop()
        }
    }

    @Test("two snooze buttons: the long one snoozes for --snooze-long; with the limit used up neither is offered and the body says so")
    func longButton() async throws {
        try await NotificationMock.with { mock in
            let settings = AlarmEngine.Settings(snooze: .seconds(9 * 60), ringFor: .zero, snoozeLimit: 1, snoozeLong: .seconds(25 * 60))
            let (session, notifier) = try Self.ringing(mock, settings: settings)
            let shown = try await Self.spinning(session) { try await mock.waitForNotify() }
            #expect(shown.actions == ["snooze", "Snooze 9 min", "snooze-long", "Snooze 25 min", "stop", "Stop"], "\(shown)")
            let pressedAt = session.world.now()
            try await Self.spinning(session) {
                try await mock.press("snooze-long", on: 1)
                for _ in 0..<200 where !Self.isSnoozed(session) { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(session.runner.state(of: "alarm") == .snoozed(Wait(instant: pressedAt.boottime + .seconds(25 * 60), clock: .elapsed)))
            session.world.advance(by: .seconds(9 * 60))
            #expect(!session.runner.isRinging, "not the short length")
            session.world.advance(by: .seconds(16 * 60))
            #expect(session.runner.isRinging, "rings again at the long length's end")
            // The one snooze allowed is used: the notice offers Stop alone and says why.
            let again = try await Self.spinning(session) { try await mock.waitForNotify(3) }
            #expect(again.actions == ["stop", "Stop"] && again.body.contains("Snoozed 1 of 1: no snoozes left."), "\(again)")
            // A press of a button shown before is refused, and the alarm rings on.
            try await Self.spinning(session) {
                try await mock.press("snooze-long", on: 1)
                try await Task.sleep(for: .milliseconds(300))
            }
            #expect(session.runner.isRinging && session.runner.snoozes(of: "alarm") == SnoozeCount(used: 1, limit: 1))
            session.runner.command(.stop, by: .key("x"))
            notifier.stop()
        }
    }

    @Test("the server vanishes mid-ring: the alarm rings on, and a stop by key still works")
    func serverVanishes() async throws {
        let mock = try await NotificationMock.start()
        let (session, notifier) = try Self.ringing(mock)
        _ = try await Self.spinning(session) { try await mock.waitForNotify() }
        await mock.stop()  // the bus daemon and the server go
        try await Self.spinning(session) { try await Task.sleep(for: .milliseconds(500)) }
        #expect(session.runner.isRinging, "the alarm went quiet with its notification")
        session.runner.command(.stop, by: .key("x"))
        #expect(session.runner.isFinished)
        notifier.stop()  // bounded: nothing left to wait for
    }

    static func isSnoozed(_ session: TestSession) -> Bool {
        if case .snoozed? = session.runner.state(of: "alarm") { return true }
        return false
    }
}
