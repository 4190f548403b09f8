import Testing
@testable import WakeSystem

@Suite("System: fields of a /proc status file")
struct ProcStatusTests {
    static let status = """
        Name:\twake
        Cap:\tnot a real field
        CapEff:\t0000000800000000
        CapBnd:\t000001ffffffffff  \t
        NoNewPrivs:\t1
        Empty:
        no colon here

        """

    @Test("the field asked for, its value trimmed; a prefix is not the name; none is nil")
    func fields() {
        #expect(WakeSystemSupport.statusField("Name", in: Self.status) == "wake")
        #expect(WakeSystemSupport.statusField("Cap", in: Self.status) == "not a real field")
        #expect(WakeSystemSupport.statusField("CapBnd", in: Self.status) == "000001ffffffffff")
        #expect(WakeSystemSupport.statusField("Empty", in: Self.status) == "")
        #expect(WakeSystemSupport.statusField("CapPrm", in: Self.status) == nil)
        #expect(WakeSystemSupport.statusField("no colon here", in: Self.status) == nil)
        #expect(WakeSystemSupport.statusField("Name", in: "") == nil)
    }

    @Test("CapEff read as hex (CAP_WAKE_ALARM is bit 35); NoNewPrivs and CapBnd stop the helper")
    func capabilities() {
        let eff = WakeAlarmCapability.effectiveCapabilities(status: Self.status)
        #expect(eff == 0x8_0000_0000 && WakeAlarmCapability.holdsWakeAlarm(eff))
        #expect(WakeAlarmCapability.effectiveCapabilities(status: "Name:\twake\n") == 0)
        // cap_wake_alarm+ep, revision 2: magic with the effective flag, permitted high word bit 3.
        let attribute: [UInt8] = [0x01, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0, 0, 0, 0, 0, 0]
        #expect(WakeSystemSupport.helperObstacle(path: "/h", capabilityAttribute: attribute, onNosuidMount: false,
                                                  processStatus: Self.status) == .noNewPrivileges(helper: "/h"))
        let bounded = "NoNewPrivs:\t0\nCapBnd:\t0000000000000000\n"
        #expect(WakeSystemSupport.helperObstacle(path: "/h", capabilityAttribute: attribute, onNosuidMount: false,
                                                  processStatus: bounded) == .notInBoundingSet)
        let fine = "NoNewPrivs:\t0\nCapBnd:\t000001ffffffffff\n"
        #expect(WakeSystemSupport.helperObstacle(path: "/h", capabilityAttribute: attribute, onNosuidMount: false,
                                                  processStatus: fine) == nil)
    }
}
