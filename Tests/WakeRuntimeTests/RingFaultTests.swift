import Glibc
import Testing
import WakeCore
import WakeEngine
@testable import WakeSystem

/// The never-silent promise on the paths the engine wakes itself with: an eventfd, a poll, a
/// thread or the bell that fails at ring time (through the funnel's test hook, which reaches the
/// worker threads a test starts) leaves the alarm audible, or says that it is not. Real workers
/// on ALSA's null PCM, a real reactor; a bell on a pipe.
@Suite("Engine: a failed eventfd, poll, thread or bell at ring time is heard or said")
struct RingFaultTests {
    private static func output(bell: TerminalBell? = nil) throws -> (Reactor, SupervisedOutput, Box) {
        let reactor = Reactor()
        let output = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: bell) { try? RunnerTests.tone() }
        let box = Box()
        output.onEvent = { box.events.append($0) }
        return (reactor, output, box)
    }

    private final class Box { var events: [OutputEvent] = [] }

    private static func ring(_ device: String = "null") throws -> RingRequest {
        RingRequest(sound: try RunnerTests.tone(), soundKind: .user, device: device)
    }

    /// A bell on a pipe, and the pipe's read end (non-blocking) to count the BELs.
    private static func pipeBell() throws -> (TerminalBell, Int32) {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        #expect(fcntl(fds[0], F_SETFL, O_NONBLOCK) == 0)
        return (TerminalBell(owning: fds[1]), fds[0])
    }

    @Test("the output's own eventfd is made when the alarm is set: EMFILE there is refused before the wait")
    func reportSignalAtArmTime() {
        #expect(throws: SystemCallError("eventfd", .tooManyOpenFiles)) {
            try FaultInjector.inject("syscall:eventfd=EMFILE") { _ in _ = try SupervisedOutput(reactor: Reactor(), clock: SystemRuntimeClock(), bell: nil) { nil } }
        }
    }

    @Test("a worker whose request eventfd cannot be made at ring time (EMFILE) still rings, and a stop still stops it")
    func requestSignalAtRingTime() throws {
        let (reactor, output, box) = try Self.output()
        let ring = try Self.ring()
        let injected = FaultInjector.inject("syscall:eventfd=EMFILEx0") { scope in
            output.start(ring)
            return scope.injected
        }
        #expect(injected == 1, "the worker's request signal was refused")
        try SupervisedOutputTests.turn(reactor, for: .seconds(5)) { box.events.contains(.audible) }
        #expect(box.events.contains(.audible), "\(box.events)")
        output.stop()
        guard case .stopped(let frames, _)? = box.events.last else { Issue.record("no stopped report: \(box.events)"); return }
        #expect(frames > 0)
        output.finish(within: .seconds(2))
    }

    @Test("a stop and an exit whose polls all fail (EIO) still end within their bounds and say stopped")
    func stopWithFailingPoll() throws {
        let (reactor, output, box) = try Self.output()
        output.start(try Self.ring())
        try SupervisedOutputTests.turn(reactor, for: .seconds(5)) { box.events.contains(.audible) }
        #expect(box.events.contains(.audible), "\(box.events)")
        let started = ContinuousClock.now
        FaultInjector.inject("syscall:poll=EIOx0") { _ in
            output.stop()
            output.finish(within: .milliseconds(500))
        }
        #expect(ContinuousClock.now - started < .seconds(10), "took \(ContinuousClock.now - started)")
        #expect(box.events.contains { if case .stopped = $0 { true } else { false } }, "\(box.events)")
    }

    @Test("the reactor's poll failing is its typed error, for the session to say, never a trap")
    func reactorPoll() {
        let reactor = Reactor()
        #expect(throws: SystemCallError("poll", .invalidArgument)) {
            try FaultInjector.inject("syscall:poll=EINVAL") { _ in try reactor.runOnce(timeout: .zero) }
        }
    }

    @Test("no thread for any device (EAGAIN at pthread_create): the bell rings and it is said")
    func noThreadRingsTheBell() throws {
        let (bell, bells) = try Self.pipeBell()
        defer { close(bells) }
        let (_, output, box) = try Self.output(bell: bell)
        let ring = try Self.ring()
        FaultInjector.inject("syscall:pthread_create=EAGAINx0") { _ in output.start(ring) }
        #expect(box.events.contains(.bell), "\(box.events)")
        let reasons = box.events.compactMap { if case .fallback(_, _, let reason) = $0 { reason } else { nil } }
        #expect(reasons.contains { $0.contains("cannot start the sound thread") }, "\(reasons)")
        var byte: UInt8 = 0
        #expect(read(bells, &byte, 1) == 1 && byte == 7, "a BEL reached the terminal")
        output.finish(within: .seconds(1))
    }

    @Test("no device opens and the bell's write fails (EIO): the ring says it is silent, with each step's failure")
    func bellWriteFailsSaysSilent() throws {
        let (bell, bells) = try Self.pipeBell()
        defer { close(bells) }
        let (reactor, output, box) = try Self.output(bell: bell)
        let ring = try Self.ring()  // its sound is written to a memfd: before the faults
        try FaultInjector.inject("pcm.open=ENODEVx0;syscall:write=EIOx0") { _ in
            output.start(ring)
            try SupervisedOutputTests.turn(reactor, for: .seconds(10)) {
                box.events.contains { if case .silent = $0 { true } else { false } }
            }
        }
        let silent = box.events.compactMap { if case .silent(let reason, _) = $0 { reason } else { nil } }.first
        #expect(silent?.contains("no sound device works") == true, "\(box.events)")
        #expect(!box.events.contains(.bell) && !box.events.contains(.audible), "\(box.events)")
        output.finish(within: .seconds(1))
    }

    @Test("no device opens and the bell's write finds the terminal paused (EAGAIN): the bell counts as ringing")
    func pausedTerminalStillRings() throws {
        let (bell, bells) = try Self.pipeBell()
        defer { close(bells) }
        let (reactor, output, box) = try Self.output(bell: bell)
        let ring = try Self.ring()  // its sound is written to a memfd: before the faults
        try FaultInjector.inject("pcm.open=ENODEVx0;syscall:write=EAGAINx0") { _ in
            output.start(ring)
            try SupervisedOutputTests.turn(reactor, for: .seconds(10)) { box.events.contains(.bell) }
        }
        #expect(box.events.contains(.bell), "\(box.events)")
        output.finish(within: .seconds(1))
    }

    @Test("BoundedCall: EMFILE at its eventfd is the typed error; with every poll failing it still ends by its deadline")
    func boundedCall() throws {
        #expect(throws: SystemCallError("eventfd", .tooManyOpenFiles)) {
            try FaultInjector.inject("syscall:eventfd=EMFILE") { _ in _ = try BoundedCall.run(limit: .seconds(1), signals: nil) { 1 } }
        }
        let started = ContinuousClock.now
        let (quick, slow) = try FaultInjector.inject("syscall:poll=EIOx0") { _ in
            (try BoundedCall.run(limit: .seconds(2), signals: nil) { 7 },
             try BoundedCall.run(limit: .milliseconds(200), signals: nil) { () -> Int in SystemClock.sleep(for: .seconds(5)); return 8 })
        }
        guard case .done(7) = quick, case .timedOut = slow else { Issue.record("\(quick), \(slow)"); return }
        #expect(ContinuousClock.now - started < .seconds(10), "took \(ContinuousClock.now - started)")
    }
}
