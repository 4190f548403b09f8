import Glibc
import Testing
@testable import WakeRuntime

@Suite("ArmError: a signal during the arm-time checks")
struct ArmErrorTests {
    @Test("said with the signal and the check; 128 + n; `wake add` says nothing was added")
    func interrupted() {
        let error = ArmError.interrupted(by: SIGTERM, during: "checking the device")
        #expect(error.message == "interrupted by SIGTERM while checking the device; nothing was set")
        #expect(error.status == 143 && error.signal == SIGTERM)
        let adding = error.asAdding
        #expect(adding.message == "interrupted by SIGTERM while checking the device; nothing was added")
        #expect(adding.status == 143 && adding.signal == SIGTERM)
    }

    @Test("any other error is left as it is for `wake add`")
    func otherErrors() {
        let error = ArmError(message: "cannot ring on device 'x': no such device", status: 69)
        #expect(error.asAdding.message == error.message && error.asAdding.status == 69 && error.asAdding.signal == nil)
    }
}
