import Glibc
import SystemPackage
import WakeCore

/// The machine-readable record of what the alarm did: one JSON object per line (`--events`).
///
/// What `--events PATH` accepts, checked when the alarm is set (exit 73 otherwise):
/// - `-`: standard output (the human lines then all go to stderr), whatever it is.
/// - A regular file: created with mode 0644 if missing, else appended to, so a series of alarms
///   can share one log. Refused when the file system holding it is full.
/// - A character device, such as a terminal or `/dev/null` (`/dev/stdout` and `/dev/stderr`
///   when those are a terminal).
/// - A FIFO or pipe (`/dev/stderr` when it is piped) only if something is reading it at that
///   moment; one with no reader is refused at once (waiting for a reader would hang the alarm).
///   It is written without blocking: a reader that stops reading loses lines, never the alarm.
/// - Nothing else: a directory, a block device or a socket is refused.
///
/// When the alarm is set, a zero-length write checks the target takes writes without putting
/// anything in it (it finds `/dev/full`), and for a regular file the free space of its file
/// system is checked. A write that fails later (disk full, reader gone) is reported once
/// through `onWriteFailure`; the alarm goes on, and later lines are still attempted.
public final class EventLog {
    /// Why the log cannot be written. `errno` is the nearest errno (ENOSPC for a full disk).
    public struct OpenError: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var reason: String
        public var errno: Errno
        public var description: String {
            "cannot write the event log '\(path.printable)': \(reason); give a writable regular file, or '-' for standard output"
        }
    }

    private let fd: Int32
    private let ownsFD: Bool
    /// The zone each line's time is written in; changed when the machine's zone changes.
    public var zone: TimeZoneRules
    public let path: String
    /// True for `-`: the lines go to standard output.
    public let isStandardOutput: Bool
    /// Called once, with one line saying what failed, the first time a line cannot be written.
    public var onWriteFailure: ((String) -> Void)?
    public private(set) var writeFailed = false

    /// Free space below this counts as full: every line must fit.
    static let minimumFreeBytes: UInt64 = 4096

    public init(path: String, zone: TimeZoneRules) throws(OpenError) {
        self.zone = zone
        self.path = path
        func fail(_ r: String, _ e: Errno) -> OpenError { OpenError(path: path, reason: r, errno: e) }
        // Everything that can fail happens before the stored properties are set: a class whose
        // init throws once they are all set runs its deinit, which would close the descriptor a
        // second time (and with it whatever another thread had opened under that number).
        let opened: Int32
        if path == "-" {
            opened = STDOUT_FILENO
        } else {
            do {
                opened = try RegularFile.open(path, flags: O_WRONLY | O_APPEND | O_CREAT, mode: 0o600,
                                              accept: [.regular, .characterDevice, .fifo]).fd
            } catch {
                throw fail(error.reason, error.errno)
            }
        }
        if let problem = EventLog.probe(opened) {
            if path != "-" { close(opened) }
            throw fail(problem.reason, problem.errno)
        }
        fd = opened
        ownsFD = path != "-"
        isStandardOutput = path == "-"
    }

    /// A log that writes nowhere, for its listeners alone (hooks without `--events`).
    public init(listenersOnly zone: TimeZoneRules) {
        self.zone = zone
        path = ""
        fd = -1
        ownsFD = false
        isStandardOutput = false
    }

    /// Told of every event after it is written: the hooks see exactly what the log has
    /// (`line` makes its text, for the few events a listener acts on).
    public var listeners: [(_ event: String, _ time: Instant, _ fields: [(String, JSONValue)]) -> Void] = []

    deinit { if ownsFD { close(fd) } }

    /// Checks a descriptor will take writes, without writing anything into it.
    static func probe(_ fd: Int32) -> (reason: String, errno: Errno)? {
        var none: UInt8 = 0
        do {
            try syscall("write") { Glibc.write(fd, &none, 0) }
        } catch {
            if error.errno != .resourceTemporarilyUnavailable { return ("a test write failed (\(error.errno))", error.errno) }
        }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        var fs = statvfs()
        guard fstatvfs(fd, &fs) == 0, fs.f_blocks > 0 else { return nil }  // no figures (some FUSE): cannot tell
        let blocks = geteuid() == 0 ? fs.f_bfree : fs.f_bavail
        let free = UInt64(blocks).multipliedReportingOverflow(by: UInt64(fs.f_frsize))
        if !free.overflow && free.partialValue < minimumFreeBytes {
            return ("the file system holding it is full (\(free.partialValue) bytes free)", .noSpace)
        }
        return nil
    }

    /// One line: `event` and `time` first, then `fields` in the order given.
    public func emit(_ event: String, at time: Instant, _ fields: [(String, JSONValue)] = []) {
        if fd >= 0 { write(Array(line(event, at: time, fields).utf8)) }
        for listener in listeners { listener(event, time, fields) }
    }

    /// An event's line, with its newline.
    public func line(_ event: String, at time: Instant, _ fields: [(String, JSONValue)]) -> String {
        JSONValue.object([("event", .string(event)), ("time", .string(Formatting.iso8601(time, zone: zone, milliseconds: true)))]
                         + fields).text + "\n"
    }

    /// Writes a whole line: one write when it can (lines never interleave), the rest retried
    /// after a partial write.
    private func write(_ bytes: [UInt8]) {
        var done = 0
        while done < bytes.count {
            do {
                let n = try syscall("write") { bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) } }
                if n == 0 { return reportFailure("cannot write to the event log '\(path.printable)' (it takes no more bytes); the alarm goes on without it") }
                done += n
            } catch {
                let why = error.errno == .resourceTemporarilyUnavailable ? "its reader is not reading; lines are being lost" : error.errno.description
                return reportFailure("cannot write to the event log '\(path.printable)' (\(why)); the alarm goes on without it")
            }
        }
    }

    private func reportFailure(_ message: String) {
        guard !writeFailed else { return }
        writeFailed = true
        onWriteFailure?(message)
    }
}
