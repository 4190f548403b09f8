import Foundation
import Glibc
import Testing
import WakeCore
@testable import WakeSystem
@testable import WakeTestSupport

@Suite("wake-alarm-timer (issue 23)", .serialized, .enabled(if: HelperFixture.enabled, "needs root, cc, setcap/getcap (libcap2-bin), setpriv and python3"))
struct AlarmTimerHelperTests {
    // MARK: The helper, driven by an ordinary user's client

    @Test(arguments: [("R", 8), ("B", 9)])
    func anOrdinaryUserGetsAnArmedAlarmTimerThatFires(clock: String, clockID: Int) async throws {
        let f = try await HelperFixture.make(capability: true)
        let getcap = try await ChildProcess(HelperFixture.getcap, [f.helper], directory: f.directory).wait()
        #expect(getcap.stdout.contains("cap_wake_alarm=ep"), "\(getcap)")

        let r = try await HelperFixture.runClient([f.client, f.helper, "arm", clock, "200"], directory: f.directory)
        #expect(r["uid"] as? Int == Int(HelperFixture.person), "not run as the person at the seat: \(r)")
        #expect(r["answer"] as? [Int] == [0] && r["descriptors"] as? Int == 1 && r["exit"] as? Int == 0, "\(r)")
        #expect(r["clockid"] as? Int == clockID, "not an alarm clock: \(r)")
        #expect(r["fired"] as? Bool == true, "\(r)")
        // The kernel wants the capability at every timerfd_settime of an alarm timer, not only
        // at timerfd_create: this is why the helper arms it, and wake sends it back to re-arm.
        #expect(r["own_arm_errno"] as? Int == Int(EPERM), "\(r)")
        let rearm = r["rearm"] as? [String: Any]
        #expect(rearm?["answer"] as? [Int] == [0] && rearm?["descriptors"] as? Int == 0 && rearm?["exit"] as? Int == 0, "\(r)")
        #expect(r["rearm_fired"] as? Bool == true, "\(r)")
    }

    // MARK: The policy and the bound (issue 37)

    /// Only a person logged in at a seat gets a timer: not a system account (nobody, a greeter's
    /// uid below 1000 even with a seat), not a user whose sessions have no seat (ssh), not one
    /// with no session at all, not one whose record root did not write.
    @Test func thePolicyRefusesSystemAccountsAndUsersWithoutASeat() async throws {
        let f = try await HelperFixture.make(capability: true)
        try HelperFixture.record(120, onlineSeats: "seat0", in: f.directory)
        try HelperFixture.record(4545, onlineSeats: "seat0", in: f.directory)
        chown(f.directory.file("logind/users/4545"), 4545, 4545)
        let cases: [(user: [String], uid: Int, reason: Int, says: String)] = [
            (HelperFixture.asNobody, 65534, 1, "a system account"),
            (HelperFixture.asUser(120), 120, 1, "a system account"),
            (HelperFixture.asUser(HelperFixture.seatless), Int(HelperFixture.seatless), 2, "no session on a seat"),
            (HelperFixture.asUser(4444), 4444, 2, "no session on a seat"),
            (HelperFixture.asUser(4545), 4545, 2, "no session on a seat"),
        ]
        for c in cases {
            let r = try await HelperFixture.runClient([f.client, f.helper, "arm", "R", "200"], directory: f.directory, as: c.user)
            #expect(r["uid"] as? Int == c.uid, "\(r)")
            #expect(r["answer"] as? [Int] == [Int(EACCES), c.reason] && r["descriptors"] as? Int == 0 && r["exit"] as? Int == 77, "uid \(c.uid): \(r)")
            let stderr = r["stderr"] as? String ?? ""
            #expect(stderr.hasPrefix("wake-alarm-timer: uid \(c.uid) may not wake this machine: ") && stderr.contains(c.says)
                    && stderr.filter { $0 == "\n" }.count == 1, "uid \(c.uid): \(stderr)")
        }
        // The person at the seat: a timer that fires.
        let ok = try await HelperFixture.runClient([f.client, f.helper, "arm", "B", "100"], directory: f.directory)
        #expect(ok["answer"] as? [Int] == [0] && ok["fired"] as? Bool == true && ok["exit"] as? Int == 0, "\(ok)")
        // Logged out of the seat (the session closed): refused from then on.
        try HelperFixture.record(HelperFixture.person, onlineSeats: "", in: f.directory)
        let gone = try await HelperFixture.runClient([f.client, f.helper, "arm", "B", "100"], directory: f.directory)
        #expect(gone["answer"] as? [Int] == [Int(EACCES), 2], "\(gone)")
    }

    /// No timer more than 365 days ahead, on either clock, made or re-armed; a timer given back
    /// must be on the clock its request names (else a boot-clock timer named as the wall clock
    /// would be armed decades ahead).
    @Test func noTimerIsArmedMoreThan365DaysAhead() async throws {
        let f = try await HelperFixture.make(capability: true)
        let year = 365 * 86_400
        for clock in ["R", "B"] {
            let within = try await HelperFixture.runClient([f.client, f.helper, "rearm", clock, clock, "\(year - 60)"], directory: f.directory)
            #expect((within["rearm"] as? [String: Any])?["answer"] as? [Int] == [0], "\(clock): \(within)")
            let beyond = try await HelperFixture.runClient([f.client, f.helper, "rearm", clock, clock, "\(year + 60)"], directory: f.directory)
            let refused = beyond["rearm"] as? [String: Any]
            #expect(refused?["answer"] as? [Int] == [Int(ERANGE)] && refused?["exit"] as? Int == 65, "\(clock): \(beyond)")
            let said = (refused?["stderr"] as? String) ?? ""
            #expect(said.contains("more than 365 days ahead"), "\(beyond)")
        }
        // Made with a value: the same bound (a relative time, 365 days and a second).
        let seconds = String(format: "%016llx", UInt64(year + 1).byteSwapped)
        let made = try await HelperFixture.runClient([f.client, f.helper, "raw", "5200000000000000" + seconds + String(repeating: "00", count: 8)],
                                                     directory: f.directory)
        #expect(made["answer"] as? [Int] == [Int(ERANGE)] && made["descriptors"] as? Int == 0 && made["exit"] as? Int == 65, "\(made)")
        for (madeOn, named) in [("B", "R"), ("R", "B")] {
            let r = try await HelperFixture.runClient([f.client, f.helper, "rearm", madeOn, named, "60"], directory: f.directory)
            let answer = r["rearm"] as? [String: Any]
            let said = (answer?["stderr"] as? String) ?? ""
            #expect(answer?["answer"] as? [Int] == [Int(EPROTO)] && said.contains("not a timer on the clock"), "\(r)")
        }
    }

    /// wake's client: a refusal is a typed error whose line says why and what to do; a deadline
    /// beyond the bound is armed a step ahead (and the helper takes it).
    @Test func wakesClientSaysWhyItWasRefusedAndArmsAFarDeadlineInSteps() async throws {
        let f = try await HelperFixture.make(capability: true)
        // (The line names this process's uid: the launcher stands in for a wake run as that user.)
        let me = getuid()
        for (user, why, says) in [(HelperFixture.asNobody, AlarmTimerError.Refusal.systemAccount, "uid \(me) is a system account; run wake as"),
                                  (HelperFixture.asUser(HelperFixture.seatless), .noSeat, "uid \(me) has no session on a seat (an ssh login")] {
            let helper = AlarmTimerHelper(path: try HelperFixture.launcher(for: f.helper, in: f.directory, as: user))
            do {
                _ = try helper.timer(.wall)
                Issue.record("a timer for \(user)")
            } catch {
                #expect(error == .notAllowed(helper: helper.path, uid: me, why), "\(error)")
                #expect(!error.isPermissionDenied && error.systemCallError.errno.rawValue == EACCES)
                #expect(error.description.hasPrefix("\(helper.path) wakes the machine only for a user logged in at its seat, and \(says)")
                        && !error.description.contains("\n"), "\(error)")
            }
        }
        let helper = AlarmTimerHelper(path: try HelperFixture.launcher(for: f.helper, in: f.directory))
        for clock in [DeadlineClock.wall, .elapsed] {
            let timer = try helper.timer(clock)
            let now = SystemClock.read(clock == .wall ? CLOCK_REALTIME : CLOCK_BOOTTIME)
            try timer.arm(at: now + .seconds(2 * 365 * 86_400))
            let remaining = try #require(Self.remainingSeconds(timer.fd), "fdinfo of \(clock)")
            #expect(remaining > 363 * 86_400 && remaining <= 365 * 86_400, "\(clock): armed \(remaining) s ahead")
            try timer.arm(at: now + .seconds(3600))
            let near = try #require(Self.remainingSeconds(timer.fd))
            #expect(near > 3500 && near <= 3600, "\(clock): \(near)")
        }
    }

    /// How long until a timerfd of this process expires (`it_value` in /proc/self/fdinfo).
    static func remainingSeconds(_ fd: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/fdinfo/\(fd)", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("it_value:") }),
              let open = line.firstIndex(of: "("), let comma = line.firstIndex(of: ",") else { return nil }
        return Int(line[line.index(after: open)..<comma].trimmingCharacters(in: .whitespaces))
    }

    @Test func withoutTheCapabilityTheHelperSaysSoAndExits77() async throws {
        let f = try await HelperFixture.make(capability: false)
        let r = try await HelperFixture.runClient([f.client, f.helper, "arm", "R", "200"], directory: f.directory)
        #expect(r["answer"] as? [Int] == [Int(EPERM)] && r["descriptors"] as? Int == 0, "\(r)")
        #expect(r["exit"] as? Int == 77, "\(r)")
        let stderr = r["stderr"] as? String ?? ""
        #expect(stderr.hasSuffix("\n") && stderr.filter { $0 == "\n" }.count == 1 && stderr.contains("setcap cap_wake_alarm+ep"), "\(stderr)")
    }

    /// Every malformed request is refused with EPROTO and exit 65, and no timer is made.
    @Test func badRequestsAreRefused() async throws {
        let f = try await HelperFixture.make(capability: true)
        let zeros = { (n: Int) in String(repeating: "00", count: n) }
        let cases: [(String, String)] = [
            ("", "no request"),
            ("52", "too short"),
            ("52" + zeros(22), "too short"),
            ("52" + zeros(24), "too long"),
            ("52" + zeros(200), "too long"),
            ("58" + zeros(23), "unknown clock"),
            ("72" + zeros(23), "unknown clock"),
            ("5204" + zeros(22), "unknown flags"),
            ("5202" + zeros(22), "cancel-on-set without an absolute time"),
            ("520001" + zeros(21), "reserved bytes"),
            ("52" + zeros(15) + String(repeating: "ff", count: 8), "out of range"),
            ("52" + zeros(7) + String(repeating: "ff", count: 8) + zeros(8), "out of range"),
            (String(repeating: "41", count: 24), "unknown clock"),
        ]
        for (hex, why) in cases {
            let r = try await HelperFixture.runClient([f.client, f.helper, "raw", hex], directory: f.directory)
            #expect(r["exit"] as? Int == 65 && r["answer"] as? [Int] == [Int(EPROTO)] && r["descriptors"] as? Int == 0, "\(hex): \(r)")
            let stderr = r["stderr"] as? String ?? ""
            #expect(stderr.contains(why) && stderr.filter { $0 == "\n" }.count == 1, "\(hex): \(stderr)")
        }
    }

    /// Not started by wake: no socket on fd 0 (a file, nothing, a terminal), or arguments.
    @Test func runByHandItRefusesWithUsage() async throws {
        let f = try await HelperFixture.make(capability: true)
        for stdin in [StandardInput.null, .closed, .text("R")] {
            let r = try await ChildProcess(f.helper, [], stdin: stdin, directory: f.directory).wait()
            #expect(r.exitCode == 64 && r.stderrIsOneLine && r.stderr.contains("run by wake, not by hand"), "\(stdin): \(r)")
        }
        let args = try await ChildProcess(f.helper, ["R"], directory: f.directory).wait()
        #expect(args.exitCode == 64 && args.stderrIsOneLine && args.stderr.contains("takes no arguments"), "\(args)")
        let version = try await ChildProcess(f.helper, ["--version"], directory: f.directory).wait()
        #expect(version.exitCode == 0 && version.stdout == "wake-alarm-timer 2\n", "\(version)")
        // From a terminal: script(1) gives it a pseudo-terminal as fd 0.
        let tty = try await ChildProcess("/usr/bin/script", ["-qec", f.helper, "/dev/null"], directory: f.directory).wait()
        #expect(tty.exitCode == 64 && tty.stdout.contains("run by wake, not by hand"), "\(tty)")
    }

    // MARK: wake's client (AlarmTimerHelper, WakeTimer), talking to the helper run as nobody

    @Test func wakesClientGetsAnAlarmTimerArmsItThroughTheHelperAndItFires() async throws {
        let f = try await HelperFixture.make(capability: true)
        let helper = AlarmTimerHelper(path: try HelperFixture.launcher(for: f.helper, in: f.directory))
        let timer = try helper.timer(.wall)
        #expect(timer.clockID == CLOCK_REALTIME_ALARM)
        #expect(AlarmTimerHelper.timerClock(timer.fd) == CLOCK_REALTIME_ALARM)
        try timer.arm(at: SystemClock.realtime + .milliseconds(200))
        var p = pollfd(fd: timer.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&p, 1, 5_000) == 1)
        #expect(timer.acknowledge() == .fired)
        // Armed again and disarmed: nothing comes.
        try timer.arm(at: SystemClock.realtime + .milliseconds(200))
        timer.disarm()
        #expect(poll(&p, 1, 500) == 0)

        // The round trip's cost: a spawn, a request and an answer.
        let start = ContinuousClock.now
        let n = 20
        for _ in 0..<n { try timer.arm(at: SystemClock.realtime + .seconds(60)) }
        let each = (ContinuousClock.now - start) / n
        print("wake-alarm-timer round trip (through setpriv): \(each)")
        #expect(each < .seconds(2), "a round trip that hangs, not a speed target (the benchmark has those)")
        // And straight (this root process runs it: no sh, no setpriv), as wake does.
        let direct = AlarmTimerHelper(path: f.helper)
        let straight = try direct.timer(.wall)
        let start2 = ContinuousClock.now
        for _ in 0..<n { try straight.arm(at: SystemClock.realtime + .seconds(60)) }
        print("wake-alarm-timer round trip (spawned directly): \((ContinuousClock.now - start2) / n)")
    }

    @Test func withoutTheCapabilityWakesClientThrowsATypedErrorThatSaysWhatToDo() async throws {
        let f = try await HelperFixture.make(capability: false)
        let helper = AlarmTimerHelper(path: try HelperFixture.launcher(for: f.helper, in: f.directory))
        #expect(AlarmTimerHelper(path: f.helper).obstacle() == .helperLacksCapability(path: f.helper))
        do {
            _ = try helper.timer(.elapsed)
            Issue.record("a timer without the capability")
        } catch {
            #expect(error == .refused(helper: helper.path, SystemCallError("timerfd_create", .notPermitted)))
            #expect(error.isPermissionDenied)
            #expect(error.description.contains("sudo setcap cap_wake_alarm+ep \(helper.path)"), "\(error)")
            #expect(error.systemCallError.errno == .notPermitted)
        }
    }

    @Test func aHelperThatDiesOrIsNotTheHelperIsReportedWithItsStatus() async throws {
        do {
            _ = try AlarmTimerHelper(path: "/bin/false").timer(.wall)
            Issue.record("/bin/false gave a timer")
        } catch {
            #expect(error == .noAnswer(helper: "/bin/false", status: .exited(1)), "\(error)")
            #expect(error.description.contains("reinstall wake"), "\(error)")
        }
        do {
            _ = try AlarmTimerHelper(path: "/nonexistent/wake-alarm-timer").timer(.wall)
            Issue.record("a missing helper gave a timer")
        } catch {
            #expect(error == .call(helper: "/nonexistent/wake-alarm-timer", SystemCallError("posix_spawn", .noSuchFileOrDirectory)), "\(error)")
        }
    }

    @Test func theFileCapabilityIsReadFromItsAttribute() async throws {
        let f = try await HelperFixture.make(capability: true)
        let attribute = try #require(AlarmTimerHelper(path: f.helper).readCapabilityAttribute())
        #expect(WakeSystemSupport.fileGrantsWakeAlarm(attribute))
        #expect(AlarmTimerHelper(path: f.helper).obstacle() == nil)
        // Another capability is not this one.
        _ = try await ChildProcess(HelperFixture.setcap, ["cap_net_raw+ep", f.helper], directory: f.directory).wait()
        let other = try #require(AlarmTimerHelper(path: f.helper).readCapabilityAttribute())
        #expect(!WakeSystemSupport.fileGrantsWakeAlarm(other))
        // Permitted without the effective flag (+p) is not enough for a program that does not raise it.
        _ = try await ChildProcess(HelperFixture.setcap, ["cap_wake_alarm+p", f.helper], directory: f.directory).wait()
        #expect(!WakeSystemSupport.fileGrantsWakeAlarm(try #require(AlarmTimerHelper(path: f.helper).readCapabilityAttribute())))
    }
}

/// The pure parts: where the helper is looked for, what stands in its way, and the decision for
/// auto (no flag), require (--wake-system) and off (--no-wake-system).
@Suite("Wake-system support (issue 23)")
struct WakeSystemSupportTests {
    @Test func theHelperIsLookedForBesideTheBinaryThenInLibexec() {
        #expect(AlarmTimerHelper.candidates(executable: "/usr/bin/wake") == [
            "/usr/bin/wake-alarm-timer", "/usr/libexec/wake/wake-alarm-timer", "/usr/local/libexec/wake/wake-alarm-timer",
        ])
        #expect(AlarmTimerHelper.candidates(executable: "/home/a/.local/bin/wake") == [
            "/home/a/.local/bin/wake-alarm-timer", "/home/a/.local/libexec/wake/wake-alarm-timer",
            "/usr/local/libexec/wake/wake-alarm-timer", "/usr/libexec/wake/wake-alarm-timer",
        ])
    }

    static let helper = AlarmTimerHelper(path: "/usr/libexec/wake/wake-alarm-timer")
    static let capWakeAlarm: UInt64 = 1 << 35

    @Test func theDecisionForEachMode() {
        let ready = WakeSystemSupport.assess(processCapabilities: 0, helper: Self.helper, helperObstacle: nil, searched: [], clocks: ["rtc0"])
        #expect(ready.canWakeSystem && ready.source == .helper(Self.helper))
        for mode in [WakeSystemSupport.Mode.auto, .require] {
            #expect(WakeSystemSupport.decide(mode, ready) == .alarmClock(.helper(Self.helper), clocks: ["rtc0"]))
        }
        #expect(WakeSystemSupport.decide(.off, ready) == .ordinaryClock(warning: nil))

        // The process's own capability comes first.
        let direct = WakeSystemSupport.assess(processCapabilities: Self.capWakeAlarm, helper: nil, helperObstacle: nil, searched: [], clocks: ["rtc0"])
        #expect(WakeSystemSupport.decide(.auto, direct) == .alarmClock(.direct, clocks: ["rtc0"]))

        // No RTC: 69 under --wake-system, a warning otherwise.
        let noRTC = WakeSystemSupport.assess(processCapabilities: 0, helper: Self.helper, helperObstacle: nil, searched: [], clocks: [])
        #expect(WakeSystemSupport.decide(.require, noRTC) == .refused(.noRealTimeClock))
        #expect(!WakeSystemSupport.Obstacle.noRealTimeClock.isMissingCapability)
        guard case .ordinaryClock(let warning?) = WakeSystemSupport.decide(.auto, noRTC) else { Issue.record("no warning"); return }
        #expect(warning.hasPrefix("a closed lid or a suspend will delay this alarm: ") && !warning.contains("\n"))

        // No capability and no RTC: the capability is named first (77).
        let lacking = WakeSystemSupport.assess(processCapabilities: 0, helper: Self.helper,
                                               helperObstacle: .helperLacksCapability(path: Self.helper.path), searched: [], clocks: [])
        #expect(WakeSystemSupport.decide(.require, lacking) == .refused(.helperLacksCapability(path: Self.helper.path)))
        #expect(WakeSystemSupport.Obstacle.helperLacksCapability(path: "x").isMissingCapability)
        let missing = WakeSystemSupport.assess(processCapabilities: 0, helper: nil, helperObstacle: nil,
                                               searched: ["/opt/wake-alarm-timer"], clocks: ["rtc0"])
        #expect(WakeSystemSupport.decide(.require, missing) == .refused(.noHelper(searched: ["/opt/wake-alarm-timer"])))
    }

    @Test func whatKeepsAHelperFromItsCapability() {
        // security.capability, revision 2, cap_wake_alarm (35) permitted and effective.
        let v2: [UInt8] = [0x01, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0, 0, 0, 0, 0, 0]
        let status = "Name:\twake\nNoNewPrivs:\t0\nCapBnd:\t000001ffffffffff\n"
        #expect(WakeSystemSupport.helperObstacle(path: "h", capabilityAttribute: v2, onNosuidMount: false, processStatus: status) == nil)
        #expect(WakeSystemSupport.helperObstacle(path: "h", capabilityAttribute: nil, onNosuidMount: false, processStatus: status)
                == .helperLacksCapability(path: "h"))
        #expect(WakeSystemSupport.helperObstacle(path: "h", capabilityAttribute: v2, onNosuidMount: true, processStatus: status)
                == .helperOnNosuidMount(path: "h"))
        #expect(WakeSystemSupport.helperObstacle(path: "h", capabilityAttribute: v2, onNosuidMount: false,
                                                 processStatus: "NoNewPrivs:\t1\nCapBnd:\t000001ffffffffff\n") == .noNewPrivileges(helper: "h"))
        #expect(WakeSystemSupport.helperObstacle(path: "h", capabilityAttribute: v2, onNosuidMount: false,
                                                 processStatus: "NoNewPrivs:\t0\nCapBnd:\t00000000ffffffff\n") == .notInBoundingSet)
        // Revision 3 with a namespace's root id does not apply here; without the effective flag neither.
        let v3 = [0x01, 0, 0, 0x03] + Array(v2.dropFirst(4)) + [0, 0, 0, 0]
        #expect(WakeSystemSupport.fileGrantsWakeAlarm(v3))
        #expect(!WakeSystemSupport.fileGrantsWakeAlarm(Array(v3.dropLast(4)) + [0xe8, 0x03, 0, 0]))
        #expect(!WakeSystemSupport.fileGrantsWakeAlarm([0x00] + Array(v2.dropFirst())))
        #expect(!WakeSystemSupport.fileGrantsWakeAlarm([]))
        #expect(!WakeSystemSupport.fileGrantsWakeAlarm(Array(v2.prefix(12))))
    }

    @Test func theRequestLayout() {
        let r = AlarmTimerHelper.request(clockID: CLOCK_REALTIME_ALARM, flags: 1 | 2,  // TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET
                                         value: Instant(nanoseconds: 1_700_000_000_123_456_789))
        #expect(r.count == 24 && r[0] == UInt8(ascii: "R") && r[1] == 3 && r[2..<8].allSatisfy { $0 == 0 })
        #expect(r[8..<16].withUnsafeBytes { $0.loadUnaligned(as: Int64.self) } == 1_700_000_000)
        #expect(r[16..<24].withUnsafeBytes { $0.loadUnaligned(as: Int64.self) } == 123_456_789)
        #expect(AlarmTimerHelper.request(clockID: CLOCK_BOOTTIME_ALARM, flags: 0, value: Instant(nanoseconds: 0))[0] == UInt8(ascii: "B"))
    }
}
