import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeTestSupport

/// R5. The timer under clock changes: `ECANCELED` over and over, and the wall clock stepped
/// back past the deadline after it fired. The engine side runs always, with plain events. The
/// end-to-end side steps this machine's real-time clock (and puts it back), which every process
/// on the machine sees: it runs only as root with WAKE_CLOCK_STEP=1 (e.g. `WAKE_CLOCK_STEP=1 make stress`).

private func at(_ realtime: Int64, boot: Int64) -> ClockReading {
    ClockReading(realtime: Instant(seconds: realtime), boottime: Instant(seconds: boot))
}

private func rings(_ actions: [AlarmEngine.Action]) -> Bool {
    actions.contains { if case .startRinging = $0 { return true } else { return false } }
}

@Suite("R5. Clock changes: the engine")
struct ClockStepEngineTests {
    static let deadline: Int64 = 1_800_000_000
    static let wall = Wait(instant: Instant(seconds: deadline), clock: .wall)
    static let settings = AlarmEngine.Settings(lateLimit: .seconds(1800), snooze: .seconds(540), ringFor: .seconds(600))

    @Test("ECANCELED 10,000 times before the deadline: each re-arms the same wait; then it rings once")
    func repeatedCancel() {
        var e = AlarmEngine(deadline: Self.wall, settings: Self.settings)
        for i in 0..<10_000 {
            // Clock steps both ways, all before the deadline.
            let swing: Int = i % 2 == 0 ? -(i % 977) : i % 613
            let offset = Int64(swing) - 1000
            let now = at(Self.deadline + offset, boot: 5_000 + Int64(i))
            let actions = e.handle(.clockChanged(now))
            #expect(actions == [.reportClockChange(now), .armTimer(Self.wall)], "step \(i)")
            #expect(e.state == .armed(Self.wall))
        }
        let ringing = e.handle(.timerFired(at(Self.deadline, boot: 20_000)))
        #expect(rings(ringing))
        #expect(e.handle(.timerFired(at(Self.deadline, boot: 20_000))) == [])
    }

    @Test("a clock step back past the deadline after it fired: reported, no second ring, no crash")
    func stepBackWhileRinging() {
        var e = AlarmEngine(deadline: Self.wall, settings: Self.settings)
        #expect(rings(e.handle(.timerFired(at(Self.deadline, boot: 10_000)))))
        let steps: [Int64] = [1, 60, 3600, 86_400, 10 * 365 * 86_400]
        for back in steps {
            let now = at(Self.deadline - back, boot: 10_001)
            #expect(e.handle(.clockChanged(now)) == [.reportClockChange(now)], "back \(back) s")
            #expect(e.handle(.timerFired(now)) == [], "back \(back) s")
            if case .ringing = e.state {} else { Issue.record("no longer ringing after a step back of \(back) s: \(e.state)") }
        }
        // The ring limit (boottime) still ends it.
        let end = e.handle(.ringLimitReached(at(Self.deadline - 86_400, boot: 10_600)))
        #expect(end.last == .finish(.timedOut))
    }

    @Test("a clock step back while snoozed: the snooze (boottime) is neither shortened nor lost")
    func stepBackWhileSnoozed() {
        var e = AlarmEngine(deadline: Self.wall, settings: Self.settings)
        _ = e.handle(.timerFired(at(Self.deadline, boot: 10_000)))
        _ = e.handle(.signal(.snooze, at(Self.deadline + 5, boot: 10_005)))
        let until = Wait(instant: Instant(seconds: 10_005 + 540), clock: .elapsed)
        #expect(e.state == .snoozed(until))
        let stepped = at(Self.deadline - 7200, boot: 10_100)
        #expect(e.handle(.clockChanged(stepped)) == [.reportClockChange(stepped), .armTimer(until)])
        // The snooze ends by boottime, whatever the wall clock says.
        let later = at(Self.deadline - 7200 + 445, boot: 10_545)
        #expect(rings(e.handle(.timerFired(later))))
    }

    @Test("a step forward past the deadline: rings late within the limit, missed beyond it")
    func stepForward() {
        var within = AlarmEngine(deadline: Self.wall, settings: Self.settings)
        let a = within.handle(.clockChanged(at(Self.deadline + 600, boot: 1)))
        #expect(a.contains(.startRinging(late: .seconds(600))))
        var beyond = AlarmEngine(deadline: Self.wall, settings: Self.settings)
        let b = beyond.handle(.clockChanged(at(Self.deadline + 1801, boot: 1)))
        #expect(b.last == .finish(.missed(late: .seconds(1801))))
    }

    /// Random events with clocks that jump both ways: the engine never rings from a finished
    /// state, finishes at most once, and only rings from armed or snoozed.
    @Test("50,000 random events with clocks jumping both ways keep the engine's invariants")
    func randomEvents() {
        var rng = SplitMix64(seed: 0x5EED_C10C)
        for round in 0..<500 {
            let clock: DeadlineClock = rng.next() % 2 == 0 ? .wall : .elapsed
            let deadline = Wait(instant: Instant(seconds: Int64(rng.next() % 100_000)), clock: clock)
            let settings = AlarmEngine.Settings(lateLimit: .seconds(Int64(rng.next() % 3600)), snooze: .seconds(1 + Int64(rng.next() % 600)),
                                                ringFor: .seconds(Int64(rng.next() % 600)))
            var e = AlarmEngine(deadline: deadline, settings: settings)
            var finishes = 0
            var boot: Int64 = Int64(rng.next() % 100_000)
            for _ in 0..<100 {
                boot += Int64(rng.next() % 400)  // boottime never goes back
                let real = Int64(rng.next() % 200_000) - 50_000  // the wall clock goes anywhere
                let now = at(real, boot: boot)
                let event: AlarmEngine.Event
                switch rng.next() % 6 {
                case 0: event = .timerFired(now)
                case 1: event = .clockChanged(now)
                case 2: event = .key(["s", "x", "q", " ", "z"][Int(rng.next() % 5)], now)
                case 3: event = .signal([.snooze, .snooze, .terminate, .hangup, .interrupt][Int(rng.next() % 5)], now)
                case 4: event = .ringLimitReached(now)
                default: event = rng.next() % 50 == 0 ? .soundFailed("x") : .timerFired(now)
                }
                let wasFinished = e.isFinished
                let stateBefore = e.state
                let actions = e.handle(event)
                if wasFinished { #expect(actions.isEmpty, "round \(round): actions after finishing") }
                if rings(actions) {
                    switch stateBefore {
                    case .armed, .snoozed: break
                    default: Issue.record("round \(round): rang from \(stateBefore)")
                    }
                }
                finishes += actions.filter { if case .finish = $0 { return true } else { return false } }.count
            }
            #expect(finishes <= 1, "round \(round): finished \(finishes) times")
        }
    }
}

/// A small seeded generator (SplitMix64): the same inputs on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// MARK: - End to end, stepping the real clock

/// Steps CLOCK_REALTIME by `delta` (negative: back). Returns false when not permitted.
@discardableResult
private func stepRealtime(by delta: Duration) -> Bool {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    let ns = Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec) + delta.nanoseconds
    var to = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
    return clock_settime(CLOCK_REALTIME, &to) == 0
}

/// Sets the clock to what it reads now: no real change, but every CANCEL_ON_SET timer is cancelled.
@discardableResult
private func touchRealtime() -> Bool { stepRealtime(by: .zero) }

/// The wall-clock time `seconds` from now as HH:MM:SS in UTC (wake runs with TZ=UTC).
private func utcClockText(secondsFromNow seconds: Int) -> String {
    var t = time(nil) + seconds
    var parts = tm()
    gmtime_r(&t, &parts)
    return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
}

@Suite("R5. Clock changes: end to end (steps the real clock)", .serialized, .enabled(if: Stress.clockStepAllowed, "root and WAKE_CLOCK_STEP=1"))
struct ClockStepEndToEndTests {
    @Test("ECANCELED over and over while waiting: clock_changed each time, still rings at the deadline")
    func repeatedCancel() async throws {
        let when = utcClockText(secondsFromNow: 6)
        let wake = try DetachedWake([when, "-D", "null", "--inhibit", "off", "--ring-for", "0"], environment: ["TZ": "UTC"])
        try await wake.waitForEvent("armed")
        for _ in 0..<100 {
            #expect(touchRealtime(), "clock_settime failed: errno \(errno)")
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(wake.count("ringing") == 0, "rang early: \(wake.eventLogText)")
        #expect(wake.count("clock_changed") >= 1, "\(wake.eventLogText)")
        let ringing = try await wake.waitForEvent("ringing", timeout: .seconds(15))
        let late = Double(ringing["late_ms"] ?? "") ?? -1
        #expect(late >= 0 && late < 2000, "late_ms \(late)")
        wake.send(SIGTERM)
        let r = await wake.wait()
        #expect(r.exitCode == 0, "\(wake.report(r))")
        print("R5: \(wake.count("clock_changed")) clock_changed events for 100 clock sets")
    }

    @Test("the clock stepped back 10 s past the deadline after it rang: no second ring; SIGTERM → 0")
    func stepBackAfterRinging() async throws {
        let when = utcClockText(secondsFromNow: 3)
        let wake = try DetachedWake([when, "-D", "null", "--inhibit", "off", "--ring-for", "0"], environment: ["TZ": "UTC"])
        try await wake.waitForEvent("ringing", timeout: .seconds(15))
        // Put the clock back exactly as it would have been, whatever happens.
        var mono0 = timespec(), real0 = timespec()
        clock_gettime(CLOCK_MONOTONIC, &mono0)
        clock_gettime(CLOCK_REALTIME, &real0)
        defer {
            var mono = timespec()
            clock_gettime(CLOCK_MONOTONIC, &mono)
            let elapsed = (Int64(mono.tv_sec) - Int64(mono0.tv_sec)) * 1_000_000_000 + Int64(mono.tv_nsec) - Int64(mono0.tv_nsec)
            let ns = Int64(real0.tv_sec) * 1_000_000_000 + Int64(real0.tv_nsec) + elapsed
            var to = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
            clock_settime(CLOCK_REALTIME, &to)
        }
        #expect(stepRealtime(by: .seconds(-10)), "clock_settime failed: errno \(errno)")
        try await Task.sleep(for: .milliseconds(1500))
        #expect(!wake.hasExited, "\(wake.eventLogText)")
        #expect(wake.count("ringing") == 1, "\(wake.eventLogText)")
        wake.send(SIGTERM)
        let r = await wake.wait()
        #expect(r.exitCode == 0, "\(wake.report(r))")
        #expect(wake.count("ringing") == 1 && wake.count("fallback") == 0, "\(wake.report(r))")
    }
}

/// The edge's mapping of keys and signals to commands, so these engine runs read as before.
private enum ControlSignal {
    case interrupt, terminate, hangup, snooze
}

private extension AlarmEngine.Event {
    static func key(_ k: Character, _ now: ClockReading) -> Self {
        let (command, who) = KeyBinding.command(for: k.asciiValue ?? 0)
        return .command(command, by: who, now)
    }

    static func signal(_ s: ControlSignal, _ now: ClockReading) -> Self {
        let names: [ControlSignal: (String, Int32)] = [.interrupt: ("SIGINT", 2), .terminate: ("SIGTERM", 15),
                                                       .hangup: ("SIGHUP", 1), .snooze: ("SIGUSR1", 10)]
        let (name, number) = names[s] ?? ("SIGTERM", 15)
        return .command(s == .snooze ? .snooze : .cancel, by: .signal(name: name, number: number), now)
    }
}
