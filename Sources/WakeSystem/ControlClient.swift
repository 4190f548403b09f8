import Glibc
import SystemPackage
import WakeCore

/// The asking side of the control protocol: one request to every registered wake of the user
/// at once, their answers gathered within one deadline, so a stopped or hung process costs
/// the caller that deadline and no more. Entries whose process is gone are removed on the way.
public enum ControlClient {
    public struct Reply {
        public var pid: Int32
        /// The records it sent, or nil when it did not answer.
        public var records: [ControlRecord]?
        /// Why there is no answer, in words.
        public var problem: String?
    }

    /// The longest answer read from one process (a daemon with a few hundred alarms needs a
    /// fraction of it); more is a broken peer.
    static let maxReply = 1 << 20

    private final class Exchange {
        let pid: Int32
        let socket: UnixSocket
        var output: ArraySlice<UInt8>
        var input: [UInt8] = []
        var done = false
        var problem: String?
        init(pid: Int32, socket: UnixSocket, output: ArraySlice<UInt8>) { self.pid = pid; self.socket = socket; self.output = output }
    }

    /// `including`: which registered processes are asked, by PID (the daemon's D-Bus API leaves
    /// itself out, and asks one one-off alone what it forwards to it).
    public static func ask(_ request: ControlRequest, directory: String, timeout: Duration = .seconds(2),
                           including: (Int32) -> Bool = { _ in true }) -> [Reply] {
        var replies: [Reply] = []
        var exchanges: [Exchange] = []
        let me = geteuid()
        let deadline = SystemClock.monotonic + timeout
        for (pid, path) in ControlDirectory.entries(in: directory) where including(pid) {
            let socket: UnixSocket
            do { socket = try connect(path, until: deadline) } catch {
                switch error.errno {
                case .connectionRefused, .noSuchFileOrDirectory:
                    // Nobody listens: if its process is gone, the entry is stale. (A process
                    // that is alive may be between bind and listen; leave it be.)
                    if kill(pid, 0) != 0 && errno == ESRCH { _ = unlink(path) }
                case .resourceTemporarilyUnavailable:
                    replies.append(Reply(pid: pid, records: nil, problem: "its queue is full (stopped or hung?)"))
                default:
                    replies.append(Reply(pid: pid, records: nil, problem: error.description))
                }
                continue
            }
            // The server is checked as the server checks us: another user's socket planted in
            // the directory must not be able to answer for our alarms.
            guard let peer = try? socket.peerCredentials(), peer.uid == me else {
                replies.append(Reply(pid: pid, records: nil, problem: "its socket is not served by you; ignored"))
                continue
            }
            exchanges.append(Exchange(pid: pid, socket: socket, output: ArraySlice(request.line.utf8)))
        }
        while exchanges.contains(where: { !$0.done }) {
            let left = deadline - SystemClock.monotonic
            guard left > .zero else { break }
            let open = exchanges.filter { !$0.done }
            var fds = open.map { Poll.Descriptor(fd: $0.socket.fd, events: $0.output.isEmpty ? Poll.readable : Poll.writable, revents: 0) }
            let n: Int
            do { n = try Poll.wait(&fds, timeout: left) } catch { break }
            guard n > 0 else { continue }
            for (i, x) in open.enumerated() where fds[i].revents != 0 { step(x) }
        }
        for x in exchanges {
            if x.done, x.problem == nil, let records = parse(x.input) {
                replies.append(Reply(pid: x.pid, records: records, problem: nil))
            } else {
                replies.append(Reply(pid: x.pid, records: nil, problem: x.problem ?? (x.done ? "its answer did not parse" : "no answer within \(DurationText.format(timeout)) (stopped or hung?)")))
            }
        }
        return replies.sorted { $0.pid < $1.pid }
    }

    /// Connects; a full queue (a busy server, or one crowded by other clients) is tried again
    /// every 20 ms until `deadline`, since the server drains it as it turns.
    static func connect(_ path: String, until deadline: Instant) throws(SystemCallError) -> UnixSocket {
        while true {
            do { return try UnixSocket.connect(to: path) } catch {
                guard error.errno == .resourceTemporarilyUnavailable, SystemClock.monotonic < deadline else { throw error }
                SystemClock.sleep(for: .milliseconds(20))
            }
        }
    }

    private static func step(_ x: Exchange) {
        do {
            if !x.output.isEmpty {
                x.output = x.output.dropFirst(try x.socket.write(x.output))
                return
            }
            switch try x.socket.read(into: &x.input, limit: 16384) {
            case .bytes:
                if x.input.count > maxReply { x.done = true; x.problem = "its answer is too long" }
                else if x.input.count >= 9, x.input.suffix(9).elementsEqual("kind=end\n".utf8) { x.done = true }
            case .wouldBlock: break
            case .end: x.done = true
            }
        } catch {
            x.done = true
            x.problem = error.description
        }
    }

    /// The records up to `kind=end`; nil when the answer is cut short or does not parse.
    static func parse(_ bytes: [UInt8]) -> [ControlRecord]? {
        var records: [ControlRecord] = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            guard let r = try? ControlRecord(decoding: line) else { return nil }
            if r["kind"] == "end" { return records }
            records.append(r)
        }
        return nil
    }
}
