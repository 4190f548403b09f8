import CLinux
import Glibc
import SystemPackage
import WakeCore

/// wake's client of `wake-alarm-timer` (Sources/wake-alarm-timer/main.c), the one installed file
/// that holds `CAP_WAKE_ALARM`, so wake itself never runs with a capability (which would put it
/// in secure-execution mode, where sd-bus ignores `DBUS_SESSION_BUS_ADDRESS` and
/// `XDG_RUNTIME_DIR`). The kernel checks the capability at `timerfd_create` and again at every
/// `timerfd_settime` of an alarm timer, so the helper both creates the timer and arms it: wake
/// sends the timer back for each arm and disarm. Polling and reading it need nothing.
///
/// The protocol: the helper gets one end of a `SOCK_SEQPACKET` socketpair as fd 0, an empty
/// environment, no arguments and /dev/null on fds 1 and 2; wake sends one 24-byte request (the
/// clock, `TFD_TIMER_*` flags, the `it_value`), with the timer attached when it has one, and
/// shuts down its writing side; the helper answers one byte, 0 (with the new timer attached
/// when it made one) or the errno that refused it, and for its policy's refusal EACCES and why.
/// See main.c for the layout, the policy (a timer is made only for a person logged in at the
/// machine's seat) and the bound (none armed more than 365 days ahead).
public struct AlarmTimerHelper: Equatable, Sendable {
    public static let fileName = "wake-alarm-timer"
    /// How long the helper gets to answer. It answers in about a millisecond; this bounds a
    /// helper that hangs (a stopped process, a file that is not the helper).
    static let answerTimeoutMilliseconds: Int32 = 5_000
    /// The farthest ahead the helper arms a timer (main.c's FARTHEST_AHEAD_SECONDS).
    public static let farthestAheadDays: Int64 = 365
    public static let farthestAhead: Duration = .seconds(farthestAheadDays * 86_400)
    /// How far ahead wake arms a deadline beyond that, in steps: a day short of the bound, so
    /// that the helper, reading its clock a moment later, never finds the step beyond it.
    public static let farthestStep: Duration = farthestAhead - .seconds(86_400)

    public let path: String
    public init(path: String) { self.path = path }

    // MARK: - Where it is

    /// Where wake looks for the helper, in order, for the binary at `executable`: beside it (a
    /// build directory, or a copy put in place by hand with its helper), then `libexec/wake/`
    /// of the prefix it is installed under (`make install` and the package put it there:
    /// /usr/bin/wake finds /usr/libexec/wake/wake-alarm-timer), then the two system prefixes,
    /// for a binary copied elsewhere on a machine where wake is installed. Never from the
    /// environment or the working directory.
    public static func candidates(executable: String) -> [String] {
        let directory = parent(executable)
        var paths = [directory + "/" + fileName, parent(directory) + "/libexec/wake/" + fileName,
                     "/usr/local/libexec/wake/" + fileName, "/usr/libexec/wake/" + fileName]
        var seen = Set<String>()
        paths.removeAll { !seen.insert($0).inserted }
        return paths
    }

    /// The first candidate (see `candidates`) that is an executable regular file, for the binary
    /// this process runs (`/proc/self/exe`); nil when there is none.
    public static func locate() -> AlarmTimerHelper? {
        guard let executable = runningExecutable() else { return nil }
        for path in candidates(executable: executable) {
            var st = stat()
            if stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 {
                return AlarmTimerHelper(path: path)
            }
        }
        return nil
    }

    static func runningExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let p = String(path[..<slash])
        return p.isEmpty ? "/" : p
    }

    // MARK: - Whether it would work

    /// What stands between this helper and an alarm timer, as far as can be told without running
    /// it: its file capability, the mount it is on, and this process's no_new_privs and bounding
    /// set (a capability outside the bounding set is not granted at exec), from `status` (this
    /// process's /proc/self/status). Nil when none.
    public func obstacle(processStatus status: String = WakeAlarmCapability.processStatus()) -> WakeSystemSupport.Obstacle? {
        let attribute = readCapabilityAttribute()
        var fs = statvfs()
        let nosuid = statvfs(path, &fs) == 0 && fs.f_flag & UInt(ST_NOSUID) != 0
        return WakeSystemSupport.helperObstacle(path: path, capabilityAttribute: attribute, onNosuidMount: nosuid,
                                                 processStatus: status)
    }

    /// The file's `security.capability` attribute, nil when it has none.
    public func readCapabilityAttribute() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { getxattr(path, "security.capability", $0.baseAddress, $0.count) }
        return n > 0 ? Array(buffer[0..<n]) : nil
    }

    // MARK: - Asking it

    /// A new, disarmed timer on `clock`'s alarm clock (`CLOCK_REALTIME_ALARM` for `.wall`,
    /// `CLOCK_BOOTTIME_ALARM` for `.elapsed`), made by the helper; its `arm(at:)` and `disarm()`
    /// go through the helper too. Blocks for the helper's round trip (about a millisecond; at
    /// most `answerTimeoutMilliseconds`).
    public func timer(_ clock: DeadlineClock) throws(AlarmTimerError) -> WakeTimer {
        let expected = clock == .wall ? CLOCK_REALTIME_ALARM : CLOCK_BOOTTIME_ALARM
        let (byte, fd) = try exchange(Self.request(clockID: expected, flags: 0, value: Instant(nanoseconds: 0)), passing: -1)
        guard byte == 0 else {
            if fd >= 0 { close(fd) }
            throw .refused(helper: path, SystemCallError("timerfd_create", Errno(rawValue: Int32(byte))))
        }
        guard fd >= 0 else { throw .badAnswer(helper: path, "a success without a descriptor") }
        let found = Self.timerClock(fd)
        guard found == expected else {
            close(fd)
            throw .badAnswer(helper: path, "a descriptor that is not a timer on clock \(expected) (clockid \(found.map(String.init) ?? "none"))")
        }
        return WakeTimer(adopting: fd, clockID: expected, armedBy: self)
    }

    /// Has the helper call `timerfd_settime(fd, flags, {0, value})` on wake's timer `fd`.
    public func settime(_ fd: Int32, clockID: clockid_t, flags: Int32, value: Instant) throws(AlarmTimerError) {
        let (byte, extra) = try exchange(Self.request(clockID: clockID, flags: flags, value: value), passing: fd)
        if extra >= 0 { close(extra) }
        guard byte == 0 else { throw .refused(helper: path, SystemCallError("timerfd_settime", Errno(rawValue: Int32(byte)))) }
    }

    /// The 24-byte request: clock ('R' or 'B'), flags (1 absolute, 2 cancel on set), six zero
    /// bytes, then `it_value` as two native 64-bit integers.
    static func request(clockID: clockid_t, flags: Int32, value: Instant) -> [UInt8] {
        var bytes: [UInt8] = [clockID == CLOCK_REALTIME_ALARM ? UInt8(ascii: "R") : UInt8(ascii: "B"), 0, 0, 0, 0, 0, 0, 0]
        if flags & Int32(TFD_TIMER_ABSTIME) != 0 { bytes[1] |= 1 }
        if flags & Int32(TFD_TIMER_CANCEL_ON_SET) != 0 { bytes[1] |= 2 }
        let ns = max(value.nanoseconds, 0)
        withUnsafeBytes(of: Int64(ns / 1_000_000_000)) { bytes += $0 }
        withUnsafeBytes(of: Int64(ns % 1_000_000_000)) { bytes += $0 }
        return bytes
    }

    /// Sends one request (with `fd` attached unless it is -1) and returns the answer byte and
    /// the descriptor that came with it (-1 when none), reaping the helper. Tests send bad requests.
    func exchange(_ request: [UInt8], passing fd: Int32) throws(AlarmTimerError) -> (UInt8, Int32) {
        var pair: [Int32] = [-1, -1]
        do {
            try syscall("socketpair") { socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) }
        } catch { throw .call(helper: path, error) }
        let ours = pair[0], theirs = pair[1]
        defer { close(ours) }
        let pid: pid_t
        do { pid = try spawn(socket: theirs) } catch {
            close(theirs)
            throw error
        }
        close(theirs)

        // From here the child is always reaped, whatever happens.
        var answer: (UInt8, Int32)?
        var failure: AlarmTimerError?
        do {
            answer = try converse(ours, request, passing: fd)
        } catch {
            failure = error
        }
        // A refusal is an answer: the helper exits by itself, it is not killed.
        var answered = answer != nil
        if case .notAllowed? = failure { answered = true }
        let status = reap(pid, killing: !answered)
        if let answer { return answer }
        if case .noAnswer = failure { throw .noAnswer(helper: path, status: status) }
        throw failure ?? .noAnswer(helper: path, status: status)
    }

    private func converse(_ socket: Int32, _ request: [UInt8], passing fd: Int32) throws(AlarmTimerError) -> (UInt8, Int32) {
        if !request.isEmpty || fd != -1 {
            do {
                try syscall("sendmsg") { request.withUnsafeBytes { wake_send_descriptor(socket, $0.baseAddress, UInt($0.count), fd) } }
            } catch {
                // The helper went away before reading (EPIPE): its exit status says why.
                if error.errno == .brokenPipe || error.errno == .connectionReset { throw .noAnswer(helper: path, status: .running) }
                throw .call(helper: path, error)
            }
        }
        shutdown(socket, Int32(SHUT_WR))

        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready: Int32
        do { ready = try syscall("poll") { poll(&poller, 1, Self.answerTimeoutMilliseconds) } } catch { throw .call(helper: path, error) }
        guard ready > 0 else { throw .noAnswer(helper: path, status: .running) }

        var bytes = [UInt8](repeating: 0, count: 8)
        var fd: Int32 = -1
        let n: Int
        do {
            n = try syscall("recvmsg") { bytes.withUnsafeMutableBufferPointer { wake_receive_descriptor(socket, $0.baseAddress, UInt($0.count), &fd) } }
        } catch {
            if error.errno == .connectionReset { throw .noAnswer(helper: path, status: .running) }
            throw .call(helper: path, error)
        }
        if n == 2, bytes[0] == UInt8(EACCES), fd < 0 {
            guard let why = AlarmTimerError.Refusal(rawValue: bytes[1]) else {
                throw .badAnswer(helper: path, "a refusal for an unknown reason (\(bytes[1]))")
            }
            throw .notAllowed(helper: path, uid: getuid(), why)
        }
        guard n == 1 else {
            if fd >= 0 { close(fd) }
            if n == 0 { throw .noAnswer(helper: path, status: .running) }
            throw .badAnswer(helper: path, "\(n) bytes where one was due")
        }
        return (bytes[0], fd)
    }

    /// Starts the helper with `socket` as fd 0, /dev/null on 1 and 2, nothing else open (every
    /// other descriptor of wake's is close-on-exec, and the helper closes any that is not), no
    /// environment, no argument, and no signal blocked.
    private func spawn(socket: Int32) throws(AlarmTimerError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, socket, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        defer { free(argv[0]) }
        let envp: [UnsafeMutablePointer<CChar>?] = [nil]
        let rc = SpawnAttributes.withDefaultSignals { attributes in posix_spawn(&pid, path, &actions, &attributes, argv, envp) }
        guard rc == 0 else { throw .call(helper: path, SystemCallError("posix_spawn", Errno(rawValue: rc))) }
        return pid
    }

    /// Waits for the helper (killing it first when it gave no answer: a hung one must not hang wake).
    private func reap(_ pid: pid_t, killing: Bool) -> AlarmTimerError.HelperStatus {
        if killing { kill(pid, SIGKILL) }
        var st: Int32 = 0
        while waitpid(pid, &st, 0) == -1 {
            if Glibc.errno != EINTR { return .running }
        }
        let signal = st & 0x7F
        return signal == 0 ? .exited((st >> 8) & 0xFF) : .killed(signal)
    }

    /// The clock of a timerfd, from `/proc/self/fdinfo` (`clockid: 8`); nil when `fd` is not a timerfd.
    public static func timerClock(_ fd: Int32) -> clockid_t? {
        guard let bytes = ZoneLoader.readProcFile("/proc/self/fdinfo/\(fd)") else { return nil }
        return WakeSystemSupport.statusField("clockid", in: String(decoding: bytes, as: UTF8.self)).flatMap { clockid_t($0) }
    }
}

/// Why no alarm timer came from the helper. One line each, with what to do.
public enum AlarmTimerError: Error, Equatable, CustomStringConvertible {
    public enum HelperStatus: Equatable, Sendable {
        case exited(Int32), killed(Int32)
        /// Not known: it was still running when the answer was given up on (then killed).
        case running
    }

    /// A call failed: wake's own (socketpair, posix_spawn, send, recvmsg) or, for
    /// `timerfd_create`, the helper's, whose errno it sent back. `helper` is its path.
    case call(helper: String, SystemCallError)
    /// The helper's `timerfd_create` refused the timer: EPERM when the file lacks the capability.
    case refused(helper: String, SystemCallError)
    /// The helper ended (or hung) without answering.
    case noAnswer(helper: String, status: HelperStatus)
    /// The helper answered something else than the protocol allows.
    case badAnswer(helper: String, String)
    /// This process has CAP_WAKE_ALARM and made the timer itself, and that failed.
    case direct(SystemCallError)
    /// The helper's policy turned this user (`uid`) away: it makes timers only for a person
    /// logged in at the machine's seat.
    case notAllowed(helper: String, uid: UInt32, Refusal)

    /// Why the policy refused (the second byte of its answer).
    public enum Refusal: UInt8, Equatable, Sendable {
        /// uid 1-999, systemd's dynamic service users, nobody.
        case systemAccount = 1
        /// No online session on a seat: an ssh login, a cron job, a lingering daemon before any login.
        case noSeat = 2
        /// No systemd-logind or elogind records (/run/systemd/users) to tell by.
        case noLoginRecords = 3
    }

    /// The call and its errno, as `SystemCallError` (for callers that carry only that type);
    /// EPROTO when the helper gave no answer or a wrong one.
    public var systemCallError: SystemCallError {
        switch self {
        case .call(let helper, let e): SystemCallError("\(e.call) (for \(helper))", e.errno)
        case .refused(let helper, let e): SystemCallError("\(e.call) in \(helper)", e.errno)
        case .noAnswer(let helper, let status): SystemCallError("\(helper) \(Self.text(status))", .protocolError)
        case .badAnswer(let helper, let what): SystemCallError("\(helper) answered \(what)", .protocolError)
        case .direct(let e): e
        case .notAllowed(let helper, _, _): SystemCallError("\(helper)'s policy", Errno(rawValue: EACCES))
        }
    }

    /// True when the cause is a missing capability (EPERM from `timerfd_create`).
    public var isPermissionDenied: Bool {
        switch self {
        case .refused(_, let e), .direct(let e): e.errno == .notPermitted
        default: false
        }
    }

    public var description: String {
        switch self {
        case .refused(let helper, let e) where e.errno == .notPermitted:
            "\(helper) could not create an alarm timer: it lacks CAP_WAKE_ALARM; grant it with 'sudo setcap cap_wake_alarm+ep \(helper)'"
        case .refused(let helper, let e) where e.errno.rawValue == ERANGE:
            "\(helper) arms no timer more than \(AlarmTimerHelper.farthestAheadDays) days ahead, and wake asked for one; "
                + "report this as a bug in wake"
        case .refused(let helper, let e) where e.call == "timerfd_settime":
            "\(helper) could not arm an alarm timer: timerfd_settime: \(e.errno.description); reinstall wake (make install, or the package)"
        case .refused(let helper, let e):
            "\(helper) could not create an alarm timer: timerfd_create: \(e.errno.description); this kernel may lack alarm timers"
        case .notAllowed(let helper, let uid, let why):
            "\(helper) wakes the machine only for a user logged in at its seat, and " + Self.text(why, uid: uid)
        case .call(let helper, let e):
            "cannot ask \(helper) for an alarm timer: \(e.call): \(e.errno.description)"
        case .noAnswer(let helper, let status):
            "\(helper) \(Self.text(status)) without an alarm timer; reinstall wake (make install, or the package)"
        case .badAnswer(let helper, let what):
            "\(helper) answered \(what); it is not wake's helper: reinstall wake (make install, or the package)"
        case .direct(let e):
            "cannot create an alarm timer: \(e.call): \(e.errno.description)"
        }
    }

    static func text(_ why: Refusal, uid: UInt32) -> String {
        switch why {
        case .systemAccount:
            "uid \(uid) is a system account; run wake as the person it wakes"
        case .noSeat:
            "uid \(uid) has no session on a seat (an ssh login, or a daemon started before any login); "
                + "log in at the machine's own screen and keyboard, then start wake again (the daemon: systemctl --user restart wake)"
        case .noLoginRecords:
            "no login manager records sessions here (/run/systemd/users is missing); run systemd-logind or elogind"
        }
    }

    static func text(_ status: HelperStatus) -> String {
        switch status {
        case .exited(let code): "exited with status \(code)"
        case .killed(let signal): "was killed by signal \(signal)"
        case .running: "gave no answer in \(AlarmTimerHelper.answerTimeoutMilliseconds / 1000) s"
        }
    }
}
