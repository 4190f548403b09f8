import CLinux
import Glibc
import SystemPackage
import WakeCore

/// A short-lived program run for its output (`systemctl --user show wake.service`), bounded: one
/// that does not finish in time is killed. The child gets no signal blocked (wake blocks them
/// all for its signalfd, and a child would inherit that), /dev/null on stdin and stderr, and
/// wake's environment.
public enum ChildProcess {
    public struct Output: Sendable {
        /// The exit status, or nil when the program was killed (by the time limit or a signal).
        public var status: Int32?
        public var stdout: String
    }

    /// Runs `arguments[0]` (found on PATH) with the rest; nil when it cannot be started (not
    /// installed), with the reason.
    public static func run(_ arguments: [String], timeout: Duration = .seconds(2)) -> Result<Output, SystemCallError> {
        guard let program = arguments.first else { return .failure(SystemCallError("posix_spawnp", .invalidArgument)) }
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe2(&pipeFDs, O_CLOEXEC) == 0 else { return .failure(SystemCallError("pipe2", Errno(rawValue: Glibc.errno))) }
        let (readEnd, writeEnd) = (pipeFDs[0], pipeFDs[1])
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writeEnd, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        let rc = SpawnAttributes.withDefaultSignals { attributes in posix_spawnp(&pid, program, &actions, &attributes, argv, environ) }
        close(writeEnd)
        guard rc == 0 else { return .failure(SystemCallError("posix_spawnp \(program)", Errno(rawValue: rc))) }

        var bytes: [UInt8] = []
        let deadline = SystemClock.monotonic + timeout
        var timedOut = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline - SystemClock.monotonic
            guard left > .zero, (try? Poll.waitReadable(readEnd, within: left)) == true else { timedOut = true; break }
            let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if n > 0 { bytes += buffer.prefix(n); if bytes.count > 1 << 20 { timedOut = true; break } ; continue }
            if n < 0 && Glibc.errno == EINTR { continue }
            break
        }
        if timedOut { kill(pid, SIGKILL) }
        var st: Int32 = 0
        while waitpid(pid, &st, 0) == -1 && Glibc.errno == EINTR {}
        let exited = (st & 0x7F) == 0 && !timedOut
        return .success(Output(status: exited ? (st >> 8) & 0xFF : nil, stdout: String(decoding: bytes, as: UTF8.self)))
    }
}
