import CLinux
import Glibc
import SystemPackage
import WakeCore

/// One hook's program (or the daemon's bedtime check, `wake __bedtime-check`), started: in its
/// own process group (so a time limit kills what it started too), with no signal blocked, in the
/// user's home, with exactly the environment it is given, the event on its standard input, and
/// standard output and error on one pipe.
public struct HookProcess: Sendable {
    public let pid: pid_t
    /// Readable when the process has ended (pidfd), or -1 on a kernel without pidfds.
    public let exitFD: Int32
    /// Its output (both streams), non-blocking; -1 once closed.
    public var outputFD: Int32
    /// Its input, non-blocking, until everything is written; -1 once closed.
    public var inputFD: Int32

    /// Starts `path` (a file name, not searched on PATH) with `arguments` (argv[0] included).
    public static func start(path: String, arguments: [String], environment: [String], directory: String?)
        throws(SystemCallError) -> HookProcess {
        var input: [Int32] = [-1, -1], output: [Int32] = [-1, -1]
        try syscall("pipe2") { pipe2(&input, O_CLOEXEC) }
        do { try syscall("pipe2") { pipe2(&output, O_CLOEXEC) } } catch {
            close(input[0]); close(input[1]); throw error
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, output[1], 2)
        if let directory { posix_spawn_file_actions_addchdir_np(&actions, directory) }
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) }; for e in envp { free(e) } }
        var pid: pid_t = 0
        let rc = SpawnAttributes.withDefaultSignals(newProcessGroup: true) { attributes in
            posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        }
        close(input[0]); close(output[1])
        guard rc == 0 else {
            close(input[1]); close(output[0])
            throw SystemCallError("posix_spawn \(path)", Errno(rawValue: rc))
        }
        for fd in [input[1], output[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        let pidfd = wake_pidfd_open(pid)
        if pidfd >= 0 { _ = fcntl(pidfd, F_SETFD, FD_CLOEXEC) }
        return HookProcess(pid: pid, exitFD: pidfd, outputFD: output[0], inputFD: input[1])
    }

    /// For the thread that writes hooks' input, first thing: SIGPIPE blocked on it alone, so a
    /// hook that ends without reading its input is an EPIPE there, never the end of the process
    /// (wake ignores SIGPIPE, but a library's user, as the test runner, need not). A write's
    /// SIGPIPE is sent to the writing thread, so it stays pending on this one; hooks start with
    /// no signal blocked (`SpawnAttributes`).
    public static func blockBrokenPipeOnThisThread() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Writes what it can of `bytes` from `offset`; the new offset. A reader gone (EPIPE: the
    /// hook does not read its input) counts as everything written.
    public func write(_ bytes: [UInt8], from offset: Int) -> Int {
        guard offset < bytes.count else { return offset }
        let n = bytes.withUnsafeBytes { Glibc.write(inputFD, $0.baseAddress! + offset, $0.count - offset) }
        if n > 0 { return offset + n }
        if n < 0, errno == EAGAIN || errno == EINTR { return offset }
        return bytes.count
    }

    /// Reads what is there; nil at end of file (or an error).
    public func read() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(outputFD, $0.baseAddress, $0.count) }
        if n > 0 { return Array(buffer.prefix(n)) }
        if n < 0, errno == EAGAIN || errno == EINTR { return [] }
        return nil
    }

    /// The exit status when it has ended (without waiting); nil while it runs. `.signal` for a
    /// process ended by one.
    public func reap(waiting: Bool = false) -> Ending? {
        var status: Int32 = 0
        var r: pid_t
        repeat { r = waitpid(pid, &status, waiting ? 0 : WNOHANG) } while r == -1 && errno == EINTR
        guard r == pid else { return r == -1 ? .status(-1) : nil }
        return (status & 0x7F) == 0 ? .status((status >> 8) & 0xFF) : .signal(status & 0x7F)
    }

    public enum Ending: Sendable, Equatable {
        case status(Int32)
        case signal(Int32)
    }

    /// SIGTERM to the whole process group: asked to end.
    public func terminateGroup() { _ = Glibc.kill(-pid, SIGTERM) }
    /// SIGKILL to the whole process group: what asking did not end.
    public func killGroup() { _ = Glibc.kill(-pid, SIGKILL) }

    public mutating func closeInput() { if inputFD >= 0 { close(inputFD); inputFD = -1 } }
    public mutating func closeOutput() { if outputFD >= 0 { close(outputFD); outputFD = -1 } }
    public func closeExit() { if exitFD >= 0 { close(exitFD) } }
}
