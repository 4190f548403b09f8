import Glibc
import Testing
@testable import WakeRuntime
@testable import WakeEngine

@Suite("WakeFailure: meanings, not exit codes")
struct WakeFailureTests {
    @Test("a signal during the arm-time checks: said with the signal and the check; `wake add` says nothing was added")
    func interrupted() {
        let error = WakeFailure.interrupted(by: SIGTERM, during: "checking the device")
        #expect(error.message == "interrupted by SIGTERM while checking the device; nothing was set")
        #expect(error.kind == .interrupted(signal: SIGTERM) && error.signal == SIGTERM)
        let adding = error.asAdding
        #expect(adding.message == "interrupted by SIGTERM while checking the device; nothing was added")
        #expect(adding.kind == .interrupted(signal: SIGTERM) && adding.signal == SIGTERM)
    }

    @Test("any other failure is left as it is for `wake add`")
    func otherErrors() {
        let error = WakeFailure(.unavailable, "cannot ring on device 'x': no such device")
        #expect(error.asAdding.message == error.message && error.asAdding.kind == .unavailable && error.asAdding.signal == nil)
    }
}
