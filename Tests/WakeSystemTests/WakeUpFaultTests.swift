import Glibc
import Synchronization
import SystemPackage
import Testing
import WakeCore
@testable import WakeSystem

/// The calls the event loop and the output workers wake each other with (eventfd, poll, sleep),
/// the terminal bell and the worker threads, through the `syscall()` funnel's test hook: each
/// failure is its typed error or a plain "no", never a trap or a hang, and EINTR is retried.
@Suite("System: eventfd, poll, sleep, the bell and threads through the funnel")
struct WakeUpFaultTests {
    @Test("EventSignal: EMFILE at eventfd is the typed error; a ring that cannot be written is a plain false")
    func eventSignal() throws {
        #expect(throws: SystemCallError("eventfd", .tooManyOpenFiles)) {
            try FaultInjector.inject("syscall:eventfd=EMFILE") { _ in _ = try EventSignal() }
        }
        let signal = try EventSignal()
        defer { signal.close() }
        #expect(try !Poll.waitReadable(signal.fd, within: .zero), "a fresh signal is not rung")
        let rang = FaultInjector.inject("syscall:eventfd_write=EIO") { _ in signal.signal() }
        #expect(!rang)
        #expect(try !Poll.waitReadable(signal.fd, within: .milliseconds(5)), "the failed ring woke nobody")
        // Rings add up; one drain takes them all; draining an empty signal is harmless.
        #expect(signal.signal() && signal.signal())
        #expect(try Poll.waitReadable(signal.fd, within: .zero))
        signal.drain()
        #expect(try !Poll.waitReadable(signal.fd, within: .zero))
        signal.drain()
        // Interrupted, the ring is written all the same.
        let (again, injected) = FaultInjector.inject("syscall:eventfd_write=EINTRx2") { scope in (signal.signal(), scope.injected) }
        #expect(again && injected == 2)
        #expect(try Poll.waitReadable(signal.fd, within: .zero))
    }

    @Test("Poll: EIO is the call's typed error, EINTR is retried, and the timeout is rounded up once")
    func poll() throws {
        let signal = try EventSignal()
        defer { signal.close() }
        signal.signal()
        #expect(throws: SystemCallError("poll", .ioError)) {
            try FaultInjector.inject("syscall:poll=EIO") { _ in _ = try Poll.waitReadable(signal.fd, within: .seconds(1)) }
        }
        let (ready, injected) = try FaultInjector.inject("syscall:poll=EINTRx3") { scope in
            (try Poll.waitReadable(signal.fd, within: .seconds(1)), scope.injected)
        }
        #expect(ready && injected == 3)
        #expect(Poll.milliseconds(nil) == -1)
        #expect(Poll.milliseconds(.zero) == 0 && Poll.milliseconds(.milliseconds(-5)) == 0)
        #expect(Poll.milliseconds(.nanoseconds(1)) == 1 && Poll.milliseconds(.milliseconds(1)) == 1)
        #expect(Poll.milliseconds(.milliseconds(1) + .nanoseconds(1)) == 2)
        #expect(Poll.milliseconds(.seconds(Int64.max)) == Int32.max, "no overflow, no trap")
    }

    @Test("SystemClock.sleep: an interrupted sleep sleeps the rest; a failed one returns at once")
    func sleep() {
        let start = SystemClock.monotonic
        let injected = FaultInjector.inject("syscall:nanosleep=EINTRx2") { scope in
            SystemClock.sleep(for: .milliseconds(20))
            return scope.injected
        }
        #expect(injected == 2 && SystemClock.monotonic - start >= .milliseconds(20))
        let failed = SystemClock.monotonic
        FaultInjector.inject("syscall:nanosleep=EINVAL") { _ in SystemClock.sleep(for: .seconds(30)) }
        #expect(SystemClock.monotonic - failed < .seconds(5))
    }

    @Test("TerminalBell: BEL written; EAGAIN (a paused terminal) still rings, EIO does not; EINTR retried")
    func bell() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let bell = TerminalBell(owning: fds[1])
        #expect(bell.ring())
        var byte: UInt8 = 0
        #expect(read(fds[0], &byte, 1) == 1 && byte == 7)
        #expect(FaultInjector.inject("syscall:write=EAGAIN") { _ in bell.ring() })
        #expect(!FaultInjector.inject("syscall:write=EIO") { _ in bell.ring() })
        let (rang, injected) = FaultInjector.inject("syscall:write=EINTR") { scope in (bell.ring(), scope.injected) }
        #expect(rang && injected == 1)
        #expect(read(fds[0], &byte, 1) == 1 && byte == 7, "the retried BEL arrived")
    }

    @Test("DetachedThread: EAGAIN at pthread_create is the typed error; a thread it starts keeps the starter's rules")
    func thread() throws {
        let ran = Mutex(false)
        #expect(throws: SystemCallError("pthread_create", .resourceTemporarilyUnavailable)) {
            try FaultInjector.inject("syscall:pthread_create=EAGAIN") { _ in try DetachedThread.start { ran.withLock { $0 = true } } }
        }
        let done = try EventSignal()
        defer { done.close() }
        let failure = Mutex<SystemCallError?>(nil)
        try FaultInjector.inject("syscall:eventfd=ENFILE") { _ in
            try DetachedThread.start {
                do throws(SystemCallError) { try EventSignal().close() } catch { failure.withLock { $0 = error } }
                done.signal()
            }
        }
        #expect(try Poll.waitReadable(done.fd, within: .seconds(10)))
        #expect(failure.withLock { $0 } == SystemCallError("eventfd", .tooManyOpenFilesInSystem))
        #expect(!ran.withLock { $0 }, "a thread that could not be made ran nothing")
    }
}
