import CLinux
import Foundation
import Glibc
import SystemPackage
import Testing
import WakeCore
@testable import WakeSystem
@testable import WakeTestSupport

/// Each wrapper's error paths, reached through the `syscall()` funnel's test hook
/// (`FaultInjector.inject`, debug builds only) instead of real faults: the call named fails with
/// the errno given, and the wrapper must turn it into its typed error with the call's name and
/// that errno, retry `EINTR`, and leave nothing half done. The rules hold only for the task
/// that sets them, so these run side by side with every other suite.
@Suite("System: error paths through the syscall funnel")
struct SystemCallFaultTests {
    /// The error `body` throws, when it throws one of type `E`.
    func thrown<E: Error>(_ type: E.Type, _ body: () throws -> Void) -> E? {
        do { try body() } catch let e as E { return e } catch { Issue.record("unexpected error \(error)") }
        return nil
    }

    @Test("the funnel: EINTR is retried, anything else is the call's name and errno")
    func funnel() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let byte: [UInt8] = [7]
        let (n, injected) = try FaultInjector.inject("syscall:write=EINTRx3") { scope in
            let n = try syscall("write") { write(fds[1], byte, 1) }
            return (n, scope.injected)
        }
        #expect(n == 1 && injected == 3, "three interrupted attempts, then the write itself")
        let e = thrown(SystemCallError.self) {
            try FaultInjector.inject("syscall:write=EAGAIN") { _ in _ = try syscall("write(pipe)") { write(fds[1], byte, 1) } }
        }
        #expect(e == SystemCallError("write(pipe)", .resourceTemporarilyUnavailable))
        #expect(e?.description == "write(pipe): \(Errno.resourceTemporarilyUnavailable)")
        // Outside the body, and for other calls, nothing is injected.
        #expect(try syscall("write") { write(fds[1], byte, 1) } == 1)
        let (m, none) = try FaultInjector.inject("syscall:read=EIO") { scope in
            let m = try syscall("write") { write(fds[1], byte, 1) }
            return (m, scope.injected)
        }
        #expect(m == 1 && none == 0)
    }

    @Test("@after and xcount: the third open fails, once")
    func counting() throws {
        let dir = try TestDirectory("wake-fault")
        let path = try dir.write("f", [1, 2, 3])
        FaultInjector.inject("syscall:open=EMFILE@2") { scope in
            for i in 1...4 {
                do {
                    close(try RegularFile.open(path).fd)
                    #expect(i != 3)
                } catch {
                    #expect(i == 3 && (error as? FileOpenError)?.errno == .tooManyOpenFiles)
                }
            }
            #expect(scope.injected == 1)
        }
    }

    @Test("RegularFile: EMFILE at open, EIO at fstat and read, EINTR retried")
    func regularFile() throws {
        let dir = try TestDirectory("wake-fault")
        let path = try dir.write("sound.wav", Array(repeating: 0, count: 100))
        let open = thrown(FileOpenError.self) { try FaultInjector.inject("syscall:open=EMFILE") { _ in _ = try RegularFile.open(path) } }
        #expect(open == FileOpenError(path: path, reason: Errno.tooManyOpenFiles.description, errno: .tooManyOpenFiles))
        let stat = thrown(FileOpenError.self) { try FaultInjector.inject("syscall:fstat=EIO") { _ in _ = try RegularFile.open(path) } }
        #expect(stat?.errno == .ioError && stat?.reason == "fstat: \(Errno.ioError)")
        let read = thrown(FileOpenError.self) { try FaultInjector.inject("syscall:read=EIO") { _ in _ = try RegularFile.readAll(path) } }
        #expect(read?.errno == .ioError && read?.reason == "read: \(Errno.ioError)")
        let bytes = try FaultInjector.inject("syscall:open=EINTRx2;syscall:read=EINTR") { scope in
            let bytes = try RegularFile.readAll(path)
            return (bytes, scope.injected)
        }
        #expect(bytes.0.count == 100 && bytes.1 == 3)
    }

    @Test("AtomicFile: ENOSPC at write leaves the old file and no temporary one; EINTR is retried")
    func atomicFile() throws {
        let dir = try TestDirectory("wake-fault")
        let path = dir.file("alarms.toml")
        try AtomicFile.write("old\n", to: path)
        for (rule, call, errno) in [("syscall:write=ENOSPC", "write", Errno.noSpace), ("syscall:fsync=EIO", "fsync", .ioError),
                                    ("syscall:rename=EROFS", "rename", .readOnlyFileSystem), ("syscall:open=EMFILE", "open", .tooManyOpenFiles)] {
            let e = thrown(SystemCallError.self) { try FaultInjector.inject(rule) { _ in try AtomicFile.write("new\n", to: path) } }
            #expect(e == SystemCallError(call, errno), "\(rule)")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n", "\(rule)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["alarms.toml"], "\(rule): a temporary file is left")
        }
        try FaultInjector.inject("syscall:write=EINTRx2") { scope in
            try AtomicFile.write("new\n", to: path)
            #expect(scope.injected == 2)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    }

    @Test("EventLog: a write that fails is said once (ENOSPC, EAGAIN); the probe at open takes EAGAIN, refuses ENOSPC")
    func eventLog() throws {
        let t = Instant(nanoseconds: 1_700_000_000_000_000_000)
        let dir = try TestDirectory("wake-fault")
        let path = dir.file("events.jsonl")
        for (rule, why) in [("syscall:write=ENOSPCx0", Errno.noSpace.description), ("syscall:write=EAGAINx0", "its reader is not reading")] {
            let log = try EventLog(path: path, zone: .utc)
            var messages: [String] = []
            log.onWriteFailure = { messages.append($0) }
            FaultInjector.inject(rule) { _ in
                log.emit("one", at: t)
                log.emit("two", at: t)
            }
            #expect(messages.count == 1 && log.writeFailed, "\(rule): \(messages)")
            #expect(messages.first?.contains(why) == true && messages.first?.contains("the alarm goes on") == true, "\(messages)")
        }
        // EINTR is no failure: the line is written whole.
        let log = try EventLog(path: path, zone: .utc)
        FaultInjector.inject("syscall:write=EINTR") { _ in log.emit("three", at: t) }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!log.writeFailed && text.contains("\"event\":\"three\""))
        // The zero-length probe at open: EAGAIN (a FIFO whose reader is slow) is accepted, ENOSPC refused.
        #expect(throws: Never.self) { try FaultInjector.inject("syscall:write=EAGAIN") { _ in _ = try EventLog(path: path, zone: .utc) } }
        let e = thrown(EventLog.OpenError.self) { try FaultInjector.inject("syscall:write=ENOSPC") { _ in _ = try EventLog(path: path, zone: .utc) } }
        #expect(e?.errno == .noSpace && e?.reason == "a test write failed (\(Errno.noSpace))")
        #expect(e.map { !$0.description.contains("\n") } == true)
    }

    @Test("WakeTimer: EMFILE at timerfd_create, EINVAL at timerfd_settime, EINTR retried")
    func timer() throws {
        let create = thrown(SystemCallError.self) { try FaultInjector.inject("syscall:timerfd_create=EMFILE") { _ in _ = try WakeTimer(clock: .wall) } }
        #expect(create == SystemCallError("timerfd_create", .tooManyOpenFiles))
        let periodic = thrown(SystemCallError.self) {
            try FaultInjector.inject("syscall:timerfd_settime=EINVAL") { _ in _ = try WakeTimer(periodic: .seconds(1)) }
        }
        #expect(periodic == SystemCallError("timerfd_settime", .invalidArgument))
        let timer = try WakeTimer(clock: .wall)
        try FaultInjector.inject("syscall:timerfd_settime=EINTR") { scope in
            try timer.arm(at: Instant(seconds: 4_000_000_000))
            #expect(scope.injected == 1)
        }
        var spec = itimerspec()
        let got = timerfd_gettime(timer.fd, &spec)
        #expect(got == 0 && spec.it_value.tv_sec > 0, "armed after the retry")
        timer.disarm()
    }

    @Test("FileLock: EAGAIN from flock is 'still locked' after the timeout; another errno is said as it is")
    func fileLock() throws {
        let dir = try TestDirectory("wake-fault")
        let path = dir.file("alarms.lock")
        let busy = thrown(StoreError.self) {
            try FaultInjector.inject("syscall:flock=EAGAINx0") { _ in _ = try FileLock(path: path, timeout: .milliseconds(30)) }
        }
        #expect(busy?.path == path && busy?.reason.hasPrefix("still locked by another wake after ") == true, "\(String(describing: busy))")
        let other = thrown(StoreError.self) { try FaultInjector.inject("syscall:flock=ENOLCK") { _ in _ = try FileLock(path: path) } }
        #expect(other?.reason == SystemCallError("flock", .noLocks).description)
        // Interrupted twice, then taken.
        try FaultInjector.inject("syscall:flock=EINTRx2") { scope in
            _ = try FileLock(path: path, timeout: .milliseconds(30))
            #expect(scope.injected == 2)
        }
    }

    @Test("sockets, inotify and signalfd: EMFILE is the call's typed error")
    func descriptors() throws {
        let dir = try TestDirectory("wake-fault")
        let socket = thrown(SystemCallError.self) {
            try FaultInjector.inject("syscall:socket=EMFILE") { _ in _ = try UnixSocket.listen(at: dir.file("s.sock")) }
        }
        #expect(socket == SystemCallError("socket(AF_UNIX)", .tooManyOpenFiles))
        let listen = thrown(SystemCallError.self) {
            try FaultInjector.inject("syscall:listen=EADDRINUSE") { _ in _ = try UnixSocket.listen(at: dir.file("l.sock")) }
        }
        #expect(listen == SystemCallError("listen(\(dir.file("l.sock")))", .addressInUse))
        let watch = thrown(SystemCallError.self) {
            try FaultInjector.inject("syscall:inotify_init1=EMFILE") { _ in _ = try DirectoryWatch(directories: [dir.path]) }
        }
        #expect(watch == SystemCallError("inotify_init1", .tooManyOpenFiles))
        let added = thrown(SystemCallError.self) {
            try FaultInjector.inject("syscall:inotify_add_watch=ENOSPC") { _ in _ = try DirectoryWatch(directories: [dir.path]) }
        }
        #expect(added == SystemCallError("inotify_add_watch(\(dir.path))", .noSpace), "the inotify watch limit")
        let signals = thrown(SystemCallError.self) { try FaultInjector.inject("syscall:signalfd=EMFILE") { _ in _ = try SignalChannel() } }
        #expect(signals == SystemCallError("signalfd", .tooManyOpenFiles))
    }
}
