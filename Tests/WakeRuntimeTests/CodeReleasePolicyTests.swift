import Testing
import WakeCore
import WakeEngine
@testable import WakeRuntime

/// When the session gives back what the arming and the checks left resident (`CodeReleasePolicy`).
@Suite("Code and heap given back before the wait")
struct CodeReleasePolicyTests {
    final class Counter { var releases = 0 }

    static let now = ClockReading(realtime: Instant(nanoseconds: 1_000_000_000_000), boottime: Instant(nanoseconds: 5_000_000_000))

    static func armed(in span: Duration) -> RuntimeEvent {
        let wait = Wait(instant: now.realtime + span, clock: .wall)
        return RuntimeEvent(alarm: "a", time: now, kind: .armed(wait: wait, wall: wait.instant))
    }

    static let ringing = RuntimeEvent(alarm: "a", time: now, kind: .ringing(late: .zero))

    static func policy() -> (CodeReleasePolicy, Counter) {
        let counter = Counter()
        return (CodeReleasePolicy(release: { counter.releases += 1 }), counter)
    }

    static let t0 = ContinuousClock.now
    static let later = t0 + CodeReleasePolicy.quiet

    /// The session's turn: a poll begun at `t0`, timed out, and the next one at `later`.
    static func quietTurn(_ policy: CodeReleasePolicy, prerolled: Bool = false) {
        _ = policy.beforeWait(now: t0, prerolled: prerolled)
        _ = policy.beforeWait(now: later, prerolled: prerolled)
    }

    @Test("an arming for a deadline hours away releases once the session has been quiet, once however many alarms it armed")
    func afterArming() {
        let (policy, counter) = Self.policy()
        #expect(policy.beforeWait(now: Self.t0, prerolled: false) == nil, "nothing to wake for")
        for _ in 0..<3 { policy.observe(Self.armed(in: .seconds(8 * 3600))) }
        #expect(policy.beforeWait(now: Self.t0, prerolled: false) == CodeReleasePolicy.quiet)
        policy.releaseIfRinging()
        #expect(policy.beforeWait(now: Self.t0 + .milliseconds(10), prerolled: false) == CodeReleasePolicy.quiet - .milliseconds(10))
        #expect(counter.releases == 0, "not before the quiet")
        #expect(policy.beforeWait(now: Self.later, prerolled: false) == nil, "released, then waits for a source")
        #expect(policy.beforeWait(now: Self.later, prerolled: false) == nil)
        #expect(counter.releases == 1)
    }

    @Test("a reload that armed nothing releases too; a ring's start does before the next poll, as before")
    func afterReloadAndRing() {
        let (policy, counter) = Self.policy()
        policy.requestRelease()
        Self.quietTurn(policy)
        #expect(counter.releases == 1)
        policy.observe(Self.ringing)
        policy.releaseIfRinging()
        policy.releaseIfRinging()
        #expect(counter.releases == 2)
    }

    @Test("no wait's release once the pre-roll mapped the deadline's code back, nor for a deadline too near for its pre-roll")
    func notBeforeADeadline() {
        let (policy, counter) = Self.policy()
        policy.observe(Self.armed(in: .seconds(8 * 3600)))
        Self.quietTurn(policy, prerolled: true)
        #expect(counter.releases == 0)
        policy.observe(Self.armed(in: .seconds(8 * 3600)))
        policy.observe(Self.armed(in: .milliseconds(1500)))
        Self.quietTurn(policy)
        #expect(counter.releases == 0)
        // The ring releases as it always did.
        policy.observe(Self.ringing)
        policy.releaseIfRinging()
        #expect(counter.releases == 1)
    }
}
