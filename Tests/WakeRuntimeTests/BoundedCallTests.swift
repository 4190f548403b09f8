import Foundation
import Glibc
import Synchronization
import Testing
import WakeEngine

/// A bounded call given up must not act later (issue 37, 7): the work is told it was abandoned
/// before it makes its change, and its late end is handed over instead of being lost.
@Suite("Bounded call")
struct BoundedCallTests {
    /// What the work thread saw and did, shared with the test.
    final class Trace: Sendable {
        let release = Mutex(false)
        let changed = Mutex(false)
        let lateValue = Mutex<Int?>(nil)
        func waitForRelease() {
            while !release.withLock({ $0 }) { usleep(5_000) }
        }
    }

    @Test("a call that overruns is abandoned: it is told before its change, makes none, and its late end is handed over")
    func abandonedWorkIsToldAndHandedOver() throws {
        let trace = Trace()
        let outcome = try BoundedCall.run(limit: .milliseconds(100), signals: nil, lateFinish: { (value: Int) in trace.lateValue.withLock { $0 = value } }) { isAbandoned in
            trace.waitForRelease()  // a server that does not answer
            if isAbandoned() { return 1 }
            trace.changed.withLock { $0 = true }
            return 2
        }
        guard case .timedOut = outcome else { Issue.record("not given up: \(outcome)"); return }
        trace.release.withLock { $0 = true }
        let deadline = ContinuousClock.now + .seconds(5)
        while trace.lateValue.withLock({ $0 }) == nil && ContinuousClock.now < deadline { usleep(5_000) }
        #expect(trace.lateValue.withLock { $0 } == 1, "the late end is handed over, with what the work returned")
        #expect(!trace.changed.withLock { $0 }, "nothing is changed once the call was given up")
    }

    @Test("a call that ends in time returns its value; it is never told it was abandoned, nor handed over")
    func finishedInTime() throws {
        let late = Mutex(false)
        let outcome = try BoundedCall.run(limit: .seconds(5), signals: nil, lateFinish: { (_: Bool) in late.withLock { $0 = true } }) { isAbandoned in
            isAbandoned()
        }
        guard case .done(let abandoned) = outcome else { Issue.record("\(outcome)"); return }
        #expect(!abandoned)
        usleep(50_000)
        #expect(!late.withLock { $0 })
    }
}
